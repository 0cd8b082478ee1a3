import Foundation
import XCTest
@testable import SkillKit

/// `JSONObjectCheck` (what `exportSkill` asks of schemas and example inputs) gives Foundation's
/// answer — "JSONSerialization parses it, and the value is an object" — on valid and broken texts,
/// except trailing commas, which Foundation lets through and the RFC (and the host) do not.
final class JSONObjectCheckTests: XCTestCase {
    static let samples: [String] = [
        #"{}"#, #"  { }  "#, "\n\t{\"a\":1}\r\n", #"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#,
        #"{"a":[1,2.5,-3,0,-0.0,1e10,1E-2,2.5e+3,true,false,null,"x",{},[]]}"#,
        #"{"s":"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00"}"#, #"{"k":"你好"}"#,
        // not an object, or not JSON
        #"[]"#, #"1"#, #""text""#, #"null"#, "", "   ", #"{"#, #"}"#, #"{"a"}"#, #"{"a":}"#,
        #"{,"a":1}"#, #"{"a":1 "b":2}"#, #"{a:1}"#, #"{'a':1}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#,
        #"{"a":1e}"#, #"{"a":+1}"#, #"{"a":-}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":"\x"}"#, #"{"a":"\u12"}"#,
        #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, "{\"a\":\"tab\there\"}", #"{} {}"#, #"{}x"#, #"{"a":[1,2}"#,
        #"{"a":NaN}"#, #"{"a":Infinity}"#,
    ]

    /// Foundation parses these; the RFC, the host's parser and this check do not.
    static let trailingCommas = [#"{"a":1,}"#, #"{"a":[1,2,]}"#, #"{"a":{"b":1,},"c":2}"#]

    func testAgreesWithJSONSerializationOnValidAndBrokenTexts() {
        for text in Self.samples {
            let foundation = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) is [String: Any]
            XCTAssertEqual(JSONObjectCheck.isObject(text), foundation, "for \(text.debugDescription)")
        }
        for text in Self.trailingCommas {
            XCTAssertFalse(JSONObjectCheck.isObject(text), "for \(text.debugDescription)")
        }
    }

    func testNestingDeeperThanTheLimitIsNotAnObject() {
        let ok = "{\"a\":" + String(repeating: "[", count: JSONObjectCheck.maxDepth - 1) + String(repeating: "]", count: JSONObjectCheck.maxDepth - 1) + "}"
        XCTAssertTrue(JSONObjectCheck.isObject(ok))
        let deep = "{\"a\":" + String(repeating: "[", count: JSONObjectCheck.maxDepth) + String(repeating: "]", count: JSONObjectCheck.maxDepth) + "}"
        XCTAssertFalse(JSONObjectCheck.isObject(deep))
    }

    func testTrimmedDropsOnlyJSONWhitespaceAtTheEnds() {
        XCTAssertEqual(JSONObjectCheck.trimmed(" \n\t{\"a\": \"b c\"}\r\n "), "{\"a\": \"b c\"}")
        XCTAssertEqual(JSONObjectCheck.trimmed("   "), "")
    }
}
