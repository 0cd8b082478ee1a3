import SkillWire
import XCTest

/// `UTF8Check.firstInvalidOffset` against the standard library's UTF-8 parser, which it replaced on
/// the hot path: the same answer for every input, valid or not.
final class UTF8CheckTests: XCTestCase {
    /// The reference: the offset where the standard library's scalar parser first fails.
    static func reference(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var it = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    func check(_ bytes: [UInt8], _ file: StaticString = #filePath, line: UInt = #line) {
        let got = bytes.withUnsafeBufferPointer { UTF8Check.firstInvalidOffset($0) }
        XCTAssertEqual(got, Self.reference(bytes), "\(bytes.map { String($0, radix: 16) })", file: file, line: line)
    }

    func testValidTextOfEveryLengthIsValid() {
        let text = Array("héllo, skillhost — 日本語 🙂 and more ASCII after it".utf8)
        for n in 0...text.count {
            // Cut only at scalar boundaries: a cut through a scalar is invalid (checked below).
            let prefix = Array(text.prefix(n))
            if String(validating: prefix, as: UTF8.self) != nil {
                XCTAssertNil(prefix.withUnsafeBufferPointer { UTF8Check.firstInvalidOffset($0) }, "\(n)")
            }
            check(prefix)
        }
        XCTAssertNil([UInt8]().withUnsafeBufferPointer { UTF8Check.firstInvalidOffset($0) })
    }

    func testEachKindOfIllFormedSequenceIsFoundWhereItStarts() {
        let cases: [[UInt8]] = [
            [0x80],                         // a lone continuation byte
            [0xC0, 0xAF], [0xC1, 0xBF],     // overlong two-byte forms
            [0xE0, 0x80, 0xAF],             // overlong three-byte form
            [0xED, 0xA0, 0x80],             // a surrogate
            [0xF0, 0x80, 0x80, 0xAF],       // overlong four-byte form
            [0xF4, 0x90, 0x80, 0x80],       // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80], [0xFF],
            [0xE2, 0x82],                   // cut short at the end
            [0xE2, 0x41, 0x41],             // a continuation byte missing
            [0xF0, 0x9F, 0x99],             // four-byte cut short
        ]
        for bad in cases {
            for pad in [0, 1, 7, 8, 9, 16] {
                let bytes = [UInt8](repeating: 0x61, count: pad) + bad + Array("tail".utf8)
                let got = bytes.withUnsafeBufferPointer { UTF8Check.firstInvalidOffset($0) }
                XCTAssertEqual(got, pad, "\(bad) after \(pad) ASCII bytes")
                check(bytes)
            }
        }
    }

    func testRandomBytesAgreeWithTheStandardLibrary() {
        var rng = SystemRandomNumberGenerator()
        // Mostly ASCII with lead and continuation bytes sprinkled in, so that both valid multi-byte
        // scalars and every kind of error come up often.
        let pool: [UInt8] = Array(0x20...0x7E) + [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF,
                                                    0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
        for _ in 0..<20_000 {
            let n = Int.random(in: 0...40, using: &rng)
            check((0..<n).map { _ in pool.randomElement(using: &rng)! })
        }
        for _ in 0..<5_000 {
            // Valid text with one byte replaced.
            var bytes = Array("plain ascii, é, 語, 🙂, and some more words".utf8)
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            check(bytes)
        }
    }
}
