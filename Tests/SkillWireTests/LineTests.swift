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

    func testAKeyWithItsNumberIsWhatKeyThenNumberWrite() {
        let values: [Int64] = [0, 7, -1, 42, Int64.max, Int64.min, 999_999_999_999_999_999]
        for k in WireKey.allCases {
            for v in values {
                var fused = Line.frame(.complete), apart = Line.frame(.complete)
                fused.key(k, number: v); apart.key(k); apart.number(v)
                fused.key(.id, number: UInt64(bitPattern: v)); apart.key(.id); apart.number(UInt64(bitPattern: v))
                fused.key(.step, number: Int32(truncatingIfNeeded: v)); apart.key(.step); apart.number(Int32(truncatingIfNeeded: v))
                XCTAssertEqual(String(decoding: fused.sealed(), as: UTF8.self), String(decoding: apart.sealed(), as: UTF8.self), "\(k.name) \(v)")
            }
        }
        var first = Line()
        first.raw("{")
        first.key(.status, number: UInt64.max)
        first.raw("}")
        XCTAssertEqual(String(decoding: first.bytes, as: UTF8.self), #"{"status":18446744073709551615}"#)
    }

    /// `key(_:quoted:)`, `key(_:rawJSON:)`, `key(_:literal:)` and `key(_:text:)` write in one append what
    /// the key then the value write apart: for values of every length around the 256-byte limit of
    /// the one append, plain or needing escapes, ASCII or not, first in the object or after a member.
    func testAKeyWithItsValueIsWhatKeyThenValueWrite() {
        let texts = ["", "x", "plain", "with \"quote\"", "tab\t", "é 日本 😀", String(repeating: "é", count: 128)]
            + [254, 255, 256, 257, 300].map { String(repeating: "a", count: $0) }
            + [255, 256, 257].map { String(repeating: "a", count: $0 - 1) + "\\" }
        for k in WireKey.allCases {
            for t in texts {
                for first in [true, false] {
                    var fused = Line(), apart = Line()
                    fused.raw("{"); apart.raw("{")
                    if !first { fused.key(.id, number: 1); apart.key(.id, number: 1) }
                    fused.key(k, quoted: t); apart.key(k); apart.quoted(t)
                    let raw = "[" + String(repeating: "1,", count: t.utf8.count / 2) + "0]"
                    fused.key(k, rawJSON: raw); apart.key(k); apart.rawJSON(Array(raw.utf8))
                    fused.key(k, rawJSON: Array(raw.utf8)); apart.key(k); apart.rawJSON(Array(raw.utf8))
                    fused.key(k, rawJSON: Array(t.utf8)); apart.key(k); apart.rawJSON(Array(t.utf8))  // lengths 254...257
                    fused.key(k, literal: "null"); apart.key(k); apart.raw("null")
                    t.withCString { c in fused.key(k, text: c); apart.key(k); apart.text(c) }
                    fused.key(k, text: nil); apart.key(k); apart.text(nil)
                    fused.raw("}"); apart.raw("}")
                    XCTAssertEqual(String(decoding: fused.bytes, as: UTF8.self), String(decoding: apart.bytes, as: UTF8.self),
                                   "\(k.name), \(t.prefix(12))… (\(t.utf8.count) bytes)")
                }
            }
        }
        var l = Line()
        l.raw("{"); l.key(.intent, quoted: "a\"b"); l.key(.input, rawJSON: "{}"); l.key(.result, literal: "null"); l.raw("}")
        XCTAssertEqual(String(decoding: l.bytes, as: UTF8.self), #"{"intent":"a\"b","input":{},"result":null}"#)
    }

    func testAFrameOpensWithItsLengthPlaceholderAndItsOp() {
        for op in WireOp.allCases {
            var f = Line.frame(op)
            f.key(.id, number: 3)
            f.seal()
            let body = Array(f.bytes[4...])
            XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"op":""# + op.rawValue + #"","id":3}"#)
            XCTAssertEqual(Array(f.bytes[0..<4]), [0, 0, 0, UInt8(body.count)])
        }
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
