import Foundation
import XCTest
@testable import SkillWire

/// `JSONScan.skipString` steps over eight plain ASCII bytes at a time (inline, where a plain string
/// ends at its first special byte; else `checkString`): every byte that needs a look (a quote, a
/// backslash, a control byte, a byte of a multi-byte character, invalid UTF-8) must be found wherever
/// it falls in a word, alone or as a key or value in a container, and the verdict must be Foundation's.
final class JSONScanStringTests: XCTestCase {
    /// What may stand at one position of a string's text, and whether Foundation accepts it there.
    private static let specials: [(name: String, bytes: [UInt8])] = [
        ("a quote (ends the string early)", [0x22]),
        ("an escaped quote", [0x5c, 0x22]),
        ("an escaped newline", [0x5c, 0x6e]),
        ("an unknown escape", [0x5c, 0x78]),
        ("a \\u escape", Array(#"\u00e9"#.utf8)),
        ("a surrogate pair", Array(#"\ud83d\ude00"#.utf8)),
        ("a lone high surrogate", Array(#"\ud83dxx"#.utf8)),
        ("a raw control byte", [0x01]),
        ("a raw tab", [0x09]),
        ("a raw 0x1f", [0x1f]),
        ("DEL (allowed)", [0x7f]),
        ("a space", [0x20]),
        ("é in UTF-8", [0xc3, 0xa9]),
        ("a 4-byte character", [0xf0, 0x9f, 0x98, 0x80]),
        ("a lone continuation byte", [0x80]),
        ("a cut 2-byte character", [0xc3, 0x41]),
        ("0xff", [0xff]),
    ]

    func testEverySpecialByteIsFoundAtEveryPositionOfAWord() throws {
        var checked = 0
        for (name, special) in Self.specials {
            for before in 0..<19 {
                for after in [0, 1, 7, 8, 9, 17] {
                    var text: [UInt8] = [0x22]
                    text += Array(repeating: UInt8(ascii: "a"), count: before) + special + Array(repeating: UInt8(ascii: "b"), count: after)
                    text.append(0x22)
                    let expected = (try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])) as? String
                    let valid = text.withUnsafeBufferPointer { JSONScan.isValid($0) }
                    XCTAssertEqual(valid, expected != nil, "\(name) after \(before) bytes, \(after) after: \(text)")
                    if let expected {
                        let scanned = text.withUnsafeBufferPointer { JSONScan.string($0, 0..<text.count) }
                        XCTAssertEqual(scanned, expected, "\(name) after \(before) bytes")
                    }
                    // The same string as a key and as values in containers (stepped over inline,
                    // `JSONScan.skipString`), with nothing or a few bytes after it in the buffer.
                    for wrapped in [[0x5b] + text + [0x5d], [0x7b] + text + Array(#":1}"#.utf8),
                                    Array(#"{"k":"#.utf8) + text + [0x7d], Array(#"{"k":["#.utf8) + text + Array(#","x"]}"#.utf8)] {
                        let ok = wrapped.withUnsafeBufferPointer { JSONScan.isValid($0) }
                        XCTAssertEqual(ok, expected != nil, "\(name) after \(before) bytes, \(after) after, in \(wrapped)")
                        if wrapped.first == 0x7b {
                            let members = wrapped.withUnsafeBufferPointer { JSONScan.members($0) }
                            XCTAssertEqual(members != nil, expected != nil, "\(name) after \(before) bytes, in \(wrapped)")
                        }
                    }
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, Self.specials.count * 19 * 6)
    }

    func testTheWordTestFindsTheFirstByteThatNeedsALook() {
        func needsLook(_ b: UInt8) -> Bool { b == 0x22 || b == 0x5c || b < 0x20 || b > 0x7f }
        // Every byte value at every position among plain bytes, then two such bytes in one word.
        for byte in 0...255 {
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[position] = UInt8(byte)
                check(bytes)
                for second in [0x00, 0x22, 0x5c, 0x1f, 0x20, 0x21, 0x80, 0xff] where position < 7 {
                    bytes[7] = UInt8(second)
                    check(bytes)
                }
            }
        }
        func check(_ bytes: [UInt8]) {
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
            let special = JSONScan.specialBytes(word)
            let first = bytes.firstIndex(where: needsLook)
            XCTAssertEqual(special == 0, first == nil, "\(bytes)")
            if let first { XCTAssertEqual(special.trailingZeroBitCount >> 3, first, "\(bytes)") }
        }
    }
}
