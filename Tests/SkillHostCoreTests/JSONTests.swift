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

/// `JSON.parse` reads strings eight bytes at a step and integers without a String: whatever falls
/// where, the value must be Foundation's (or refused where Foundation refuses).
final class JSONParseFastPathTests: XCTestCase {
    func testAStringWithAnyByteAtAnyPositionIsFoundationsString() {
        let specials: [[UInt8]] = [[0x22], [0x5c, 0x22], [0x5c, 0x6e], [0x5c, 0x78], Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
                                   Array(#"\ud83dxx"#.utf8), [0x01], [0x09], [0x1f], [0x7f], [0x20], [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80],
                                   [0x80], [0xc3, 0x41], [0xff], [0xed, 0xa0, 0x80]]
        var checked = 0
        for special in specials {
            for before in 0..<19 {
                for after in [0, 1, 7, 8, 9, 17] {
                    var text: [UInt8] = [0x22]
                    text += Array(repeating: UInt8(ascii: "a"), count: before) + special + Array(repeating: UInt8(ascii: "b"), count: after)
                    text.append(0x22)
                    let expected = (try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])) as? String
                    let parsed = try? JSON.parse(text)
                    XCTAssertEqual(parsed?.stringValue, expected, "\(special) after \(before), \(after) after")
                    XCTAssertEqual(parsed == nil, expected == nil, "\(special) after \(before), \(after) after")
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, specials.count * 19 * 6)
    }

    func testIntegersOfEveryLengthAreReadExactly() throws {
        var p: Int64 = 1
        var values: [Int64] = [0, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        for _ in 0..<18 { p *= 10; values += [p, p - 1, -p, -(p - 1), p / 3] }
        for v in values { XCTAssertEqual(try JSON.parse("\(v)"), .int(v), "\(v)") }
        XCTAssertEqual(try JSON.parse("-0"), .int(0))
        XCTAssertEqual(try JSON.parse("9223372036854775808"), .double(9223372036854775808))
        XCTAssertEqual(try JSON.parse("-9223372036854775809"), .double(-9223372036854775809))
        XCTAssertEqual(try JSON.parse("12345678901234567890123"), .double(12345678901234567890123))
        XCTAssertEqual(try JSON.parse("[1,-2,30e1,4.5]"), .array([.int(1), .int(-2), .double(300), .double(4.5)]))
    }
}
