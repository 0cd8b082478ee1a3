import Foundation
import XCTest
@testable import SkillKit

final class InputDecodingTests: XCTestCase {
    struct Params: Decodable {
        let title: String
        let from: String?
        let count: Int?
        let flag: Bool?
        let kind: Kind?
        let due: Date?
        let range: Range?
        let items: [Item]?
    }
    enum Kind: String, Decodable { case a, b }
    struct Range: Decodable { let from: String; let to: String }
    struct Item: Decodable { let name: String }

    private func message(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try SkillInput(intent: "t.t", json: json).decode(Params.self)
            XCTFail("decoded \(json)", file: file, line: line)
            return nil
        } catch let SkillError.invalidInput(message) {
            return message
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    func testWrongTypeNamesFieldExpectedAndFound() {
        XCTAssertEqual(message(#"{"title":"x","from":5}"#), #"field "from": expected a string, found a number"#)
        XCTAssertEqual(message(#"{"title":"x","flag":"yes"}"#), #"field "flag": expected a boolean, found a string"#)
        XCTAssertEqual(message(#"{"title":"x","count":"3"}"#), #"field "count": expected an integer, found a string"#)
        XCTAssertEqual(message(#"{"title":"x","range":[]}"#), #"field "range": expected an object, found an array"#)
        XCTAssertEqual(message(#"{"title":true}"#), #"field "title": expected a string, found a boolean"#)
    }

    func testMissingRequiredField() {
        XCTAssertEqual(message(#"{}"#), #"missing required field "title""#)
        XCTAssertEqual(message(#"{"title":"x","range":{"from":"a"}}"#), #"missing required field "range.to""#)
    }

    func testNullForRequiredField() {
        XCTAssertEqual(message(#"{"title":null}"#), #"field "title": expected a string, found null"#)
    }

    func testNestedArrayPath() {
        XCTAssertEqual(message(#"{"title":"x","items":[{"name":"a"},{"name":3}]}"#),
                       #"field "items[1].name": expected a string, found a number"#)
    }

    func testFractionForInteger() {
        XCTAssertEqual(message(#"{"title":"x","count":1.5}"#), #"field "count": expected an integer, found 1.5"#)
    }

    func testEnumValueNotAllowed() {
        XCTAssertEqual(message(#"{"title":"x","kind":"c"}"#), #"field "kind": "c" is not one of the allowed values"#)
    }

    func testDatesDecodeFromRFC3339() throws {
        let p = try SkillInput(intent: "t.t", json: #"{"title":"x","due":"2025-03-01T09:30:00+08:00"}"#).decode(Params.self)
        XCTAssertEqual(p.due, Date(timeIntervalSince1970: 1_740_792_600))
        XCTAssertEqual(message(#"{"title":"x","due":"tomorrow"}"#),
                       #"field "due": expected an RFC 3339 date-time such as 2025-03-01T09:30:00+08:00, found "tomorrow""#)
    }

    func testRootMustBeAnObject() {
        XCTAssertEqual(message("[1]"), "input: expected an object, found an array")
        XCTAssertEqual(message("{"), "input is not valid JSON: The given data was not valid JSON.")
    }

    func testCheckThrowsInvalidInputOnlyWhenFalse() throws {
        let input = SkillInput(intent: "t.t", json: "{}")
        var evaluated = false
        try input.check(true, { evaluated = true; return "never" }())
        XCTAssertFalse(evaluated, "the message is only built when the check fails")
        XCTAssertThrowsError(try input.check(false, "field \"from\" must not be after \"to\"")) { error in
            XCTAssertEqual(error as? SkillError, .invalidInput("field \"from\" must not be after \"to\""))
        }
    }

    func testSuccessfulDecode() throws {
        let p = try SkillInput(intent: "t.t", json: #"{"title":"Hi","count":3,"kind":"b","extra":1}"#).decode(Params.self)
        XCTAssertEqual(p.title, "Hi")
        XCTAssertEqual(p.count, 3)
        XCTAssertEqual(p.kind, .b)
    }

    func testContextConfigErrorsAreUnavailable() {
        let context = SkillContext(configJSON: Array(#"{"store":5}"#.utf8), dataDirectory: "/tmp")
        struct Config: Decodable { let store: String }
        XCTAssertThrowsError(try context.config(Config.self)) { error in
            XCTAssertEqual(error as? SkillError,
                           .unavailable(#"invalid configuration: field "store": expected a string, found a number"#))
        }
        struct Empty: Decodable { let store: String? }
        XCTAssertNil(try SkillContext(dataDirectory: "/tmp").config(Empty.self).store, "missing section decodes from {}")
    }

    func testSkillErrorKindsAndMessages() {
        XCTAssertEqual(SkillError.invalidInput("m").kind, "invalid_input")
        XCTAssertEqual(SkillError.unavailable("m").kind, "unavailable")
        XCTAssertEqual(SkillError.cancelled("m").kind, "cancelled")
        XCTAssertEqual(SkillError.failed("m").kind, "internal")
        XCTAssertEqual(SkillError.failed("boom").message, "boom")
        XCTAssertEqual(SkillError.unavailable("down").abiStatus, 2)
    }
}
