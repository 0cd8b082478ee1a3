import XCTest
import SkillWire
@testable import SkillHostCore

final class JSONTests: XCTestCase {
    func testParsesEveryKindAndKeepsIntegerVersusReal() throws {
        let j = try JSON.parse(#" {"a":1,"b":1.5,"c":"x","d":true,"e":null,"f":[1,{"g":-2e3}]} "#)
        XCTAssertEqual(j["a"], .int(1))
        XCTAssertEqual(j["b"], .double(1.5))
        XCTAssertEqual(j["c"], .string("x"))
        XCTAssertEqual(j["d"], .bool(true))
        XCTAssertEqual(j["e"], .null)
        XCTAssertEqual(j["f"]?.arrayValue?[1]["g"], .double(-2000))
    }

    /// `depth` counts what the parser's `maxDepth` limits, so an object input (MCP, the engine) is held
    /// to the same limit as text: the deepest text the parser takes has a depth of exactly the limit.
    func testDepthMatchesTheParsersLimit() throws {
        XCTAssertEqual(JSON.int(1).depth, 0)
        XCTAssertEqual(try JSON.parse(#"{"a":[1,{"b":[]}],"c":2}"#).depth, 4)
        let limit = JSONLimits.maxDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        XCTAssertEqual(try JSON.parse(deepest).depth, limit)
        XCTAssertThrowsError(try JSON.parse("[" + deepest + "]"))
    }

    func testKeepsMemberOrderWhenSerializing() throws {
        let text = #"{"z":1,"a":[true,false,null],"m":{"y":"é\n\"q\""}}"#
        XCTAssertEqual(try JSON.parse(text).serialized, text.replacingOccurrences(of: "é", with: "é"))
    }

    func testDecodesEscapesAndSurrogatePairs() throws {
        XCTAssertEqual(try JSON.parse(#""\u00e9\ud83d\ude00\t\/""#), .string("é😀\t/"))
    }

    func testReportsTheByteOffsetOfAnError() {
        XCTAssertThrowsError(try JSON.parse(#"{"a":1,}"#)) { e in
            let err = e as! JSONParseError
            XCTAssertEqual(err.offset, 7)
            XCTAssertTrue(err.reason.contains("member name"), err.reason)
        }
        XCTAssertThrowsError(try JSON.parse("[1 2]")) { e in XCTAssertEqual((e as! JSONParseError).offset, 3) }
        XCTAssertThrowsError(try JSON.parse(#"{"a":1} x"#)) { e in XCTAssertTrue("\(e)".contains("after the value")) }
    }

    func testRefusesWhatRFC8259Refuses() {
        for bad in ["", "01", "1.", "-", "[1,]", "\"\u{1}\"", "tru", "{\"a\" 1}", "\"\\x\"", "\"\\ud800\"", "1e", "nul"] {
            XCTAssertThrowsError(try JSON.parse(bad), "accepted \(bad.debugDescription)")
        }
    }

    func testRefusesDeepNestingInsteadOfOverflowingTheStack() {
        let deep = String(repeating: "[", count: 100_000)
        XCTAssertThrowsError(try JSON.parse(deep)) { e in XCTAssertTrue("\(e)".contains("nesting")) }
    }

    func testRefusesInvalidUTF8InStrings() {
        XCTAssertThrowsError(try JSON.parse([0x22, 0xff, 0x22]))
    }
}
