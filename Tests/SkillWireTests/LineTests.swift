import Foundation
import XCTest
@testable import SkillWire

/// `Line` writes keys and strings in one append when it can: the bytes must be the same JSON text
/// whichever way they were written.
final class LineTests: XCTestCase {
    func testKeysGetACommaExceptAfterTheOpeningBrace() {
        var l = Line()
        l.raw("{")
        l.key("a"); l.number(1)
        l.key("longer_key_than_eight"); l.quoted("x")
        l.key("nested"); l.raw("{")
        l.key("b"); l.bool(true)
        l.raw("}}")
        XCTAssertEqual(String(decoding: l.bytes, as: UTF8.self), #"{"a":1,"longer_key_than_eight":"x","nested":{"b":true}}"#)
    }

    func testQuotedTextIsFoundationsStringWhateverItsLengthAndContent() throws {
        let samples = ["", "plain", "with \"quotes\" and \\ backslash", "tab\tnew\nline\u{1}", "é 日本 😀",
                       String(repeating: "a", count: 255), String(repeating: "b", count: 256), String(repeating: "c", count: 257),
                       String(repeating: "d", count: 300) + "\"", String(repeating: "é", count: 200)]
        for s in samples {
            var l = Line()
            l.quoted(s)
            let decoded = try JSONSerialization.jsonObject(with: Data(l.bytes), options: [.fragmentsAllowed]) as? String
            XCTAssertEqual(decoded, s, "\(s.prefix(20))… (\(s.utf8.count) bytes)")
            XCTAssertFalse(l.bytes.contains(where: { $0 < 0x20 }), "a raw control byte in \(s.prefix(20))")
        }
    }

    func testStringsAreAJSONArrayOfQuotedStringsAndNilIsNull() throws {
        for items in [[], ["one"], ["a", "", "tab\t \"q\" é", String(repeating: "z", count: 300)]] {
            var l = Line()
            l.strings(items)
            let decoded = try JSONSerialization.jsonObject(with: Data(l.bytes)) as? [String]
            XCTAssertEqual(decoded, items)
        }
        var l = Line()
        l.raw("[")
        l.quoted(orNull: nil)
        l.raw(",")
        l.quoted(orNull: "x\"")
        l.raw("]")
        XCTAssertEqual(String(decoding: l.bytes, as: UTF8.self), #"[null,"x\""]"#)
    }
}
