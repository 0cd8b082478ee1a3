import Foundation
import XCTest
@testable import SkillWire

/// `JSONText` escapes strings eight bytes at a step and writes integers without a String: the text
/// must be what the one-byte-at-a-time rule gives, and read back as the same value by Foundation.
final class JSONTextTests: XCTestCase {
    private static func needsEscape(_ b: UInt8) -> Bool { b == 0x22 || b == 0x5c || b < 0x20 }

    /// The rule byte by byte, as it was written before the word test.
    private static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for c in bytes {
            switch c {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5c: out += Array(#"\\"#.utf8)
            case 0x0a: out += Array(#"\n"#.utf8)
            case 0x0d: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case ..<0x20: out += Array(String(format: "\\u%04x", c).utf8)
            default: out.append(c)
            }
        }
        return out
    }

    func testTheWordTestFindsTheFirstByteThatNeedsAnEscape() {
        for byte in 0...255 {
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[position] = UInt8(byte)
                check(bytes)
                for second in [0x00, 0x22, 0x5c, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xc3, 0xff] where position < 7 {
                    bytes[7] = UInt8(second)
                    check(bytes)
                }
            }
        }
        func check(_ bytes: [UInt8]) {
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
            let marks = JSONText.escapeBytes(word)
            let first = bytes.firstIndex(where: Self.needsEscape)
            XCTAssertEqual(marks == 0, first == nil, "\(bytes)")
            if let first { XCTAssertEqual(marks.trailingZeroBitCount >> 3, first, "\(bytes)") }
        }
    }

    func testEveryByteValueAtEveryPositionIsEscapedAsTheByteByByteRuleSays() throws {
        var checked = 0
        for byte in 0...255 {
            for before in 0..<18 {
                for after in [0, 1, 7, 8, 9, 16] {
                    let bytes = Array(repeating: UInt8(ascii: "a"), count: before) + [UInt8(byte)] + Array("é".utf8) + Array(repeating: UInt8(ascii: "b"), count: after)
                    var out: [UInt8] = []
                    bytes.withUnsafeBufferPointer { JSONText.append($0, to: &out) }
                    XCTAssertEqual(out, Self.reference(bytes), "byte \(byte) after \(before), \(after) after")
                    XCTAssertEqual(bytes.withUnsafeBufferPointer { JSONText.isPlain($0) }, !bytes.contains(where: Self.needsEscape))
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 256 * 18 * 6)
        // Text Foundation reads back: every escape round-trips.
        let text = "tab\there \"quoted\" back\\slash\u{0}\u{1f} é 日本 😀 " + String(repeating: "x", count: 40) + "\n"
        var out: [UInt8] = [0x22]
        var t = text
        t.withUTF8 { JSONText.append($0, to: &out) }
        out.append(0x22)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(out), options: [.fragmentsAllowed]) as? String, text)
    }

    func testIntegersAreTheirDecimalDigits() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        var p: Int64 = 1
        for _ in 0..<18 { p *= 10; values += [p, p - 1, -p, -(p - 1)] }
        for v in values {
            var out: [UInt8] = [0x5b]
            JSONText.appendInteger(v, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "[\(v)", "\(v)")
        }
    }

    /// Text of every length around the size where `append` stops reserving room for the longest escape
    /// of every byte (and goes run by run), escapes anywhere in it, appended to buffers that are empty,
    /// full to their capacity, or shared with another array: the bytes the rule gives, and the buffer
    /// it was appended to unchanged before them (and the other array untouched).
    func testTextOfAnyLengthAppendsAsTheRuleSaysWhateverTheBufferHolds() {
        var random = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 63, 200, 255, 256, 257, 300, 1000, 5000] {
            for escapes in [0, 1, 5, length / 3] {
                var bytes = (0..<length).map { _ in UInt8.random(in: 0x20...0x7e, using: &random) }
                for _ in 0..<min(escapes, length) { bytes[Int.random(in: 0..<length, using: &random)] = [0x00, 0x0a, 0x22, 0x5c, 0x1f][Int.random(in: 0..<5, using: &random)] }
                let expected = Self.reference(bytes)
                var full: [UInt8] = Array("prefix".utf8)
                while full.count < full.capacity { full.append(UInt8(ascii: "p")) }  // no spare room at all
                XCTAssertEqual(full.count, full.capacity)
                let prefix = full
                var shared = full
                let other = shared  // `shared`'s storage is not uniquely referenced
                for var out in [[UInt8](), full] {
                    let before = out
                    bytes.withUnsafeBufferPointer { JSONText.append($0, to: &out) }
                    XCTAssertEqual(Array(out.prefix(before.count)), before)
                    XCTAssertEqual(Array(out.dropFirst(before.count)), expected, "length \(length), \(escapes) escapes")
                }
                bytes.withUnsafeBufferPointer { JSONText.append($0, to: &shared) }
                XCTAssertEqual(other, prefix)
                XCTAssertEqual(Array(shared.dropFirst(prefix.count)), expected)
            }
        }
    }

    /// A line built from many short pieces (keys, numbers, words, short strings) grows past its
    /// capacity again and again and is still, byte for byte, the text written piece by piece, which
    /// Foundation reads back.
    func testALineOfManyShortPiecesGrowsAndStaysValid() throws {
        var line = Line()
        var expected = "{"
        line.raw("{")
        for k in 0..<500 {
            var key = "k\(k)"
            if k > 0 { line.raw(","); expected += "," }
            key.withUTF8 { line.quoted($0) }
            line.raw(":")
            expected += "\"\(key)\":"
            switch k % 4 {
            case 0: line.number(k * -7919); expected += "\(k * -7919)"
            case 1: line.quoted("v\"\(k)\n"); expected += #""v\"\#(k)\n""#
            case 2: line.bool(k % 3 == 0); expected += k % 3 == 0 ? "true" : "false"
            default: line.raw("null"); expected += "null"
            }
        }
        line.raw("}")
        expected += "}"
        XCTAssertEqual(String(decoding: line.bytes, as: UTF8.self), expected)
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.bytes)) as? [String: Any])
        XCTAssertEqual(parsed.count, 500)
        XCTAssertEqual(parsed["k1"] as? String, "v\"1\n")
    }
}
