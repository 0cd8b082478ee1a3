import XCTest
@testable import SkillWire

/// Frame members are read by `WireKey` (one pass, an array read per lookup): every key must be found
/// by its name wherever it stands, and nothing else may be taken for one.
final class WireKeyTests: XCTestCase {
    private func members(_ text: String) -> [WireKey: String]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b -> [WireKey: String]? in
            guard let f = FrameMembers(b) else { return nil }
            var out: [WireKey: String] = [:]
            for k in WireKey.allCases { if let r = f[k] { out[k] = String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) } }
            return out
        }
    }

    func testEveryKeyIsReadBackByItsNameAndTheNamesAreDistinct() {
        XCTAssertEqual(Set(WireKey.allCases.map { $0.name.description }).count, WireKey.allCases.count)
        for k in WireKey.allCases {
            var l = Line()
            l.raw("{")
            l.key(.op); l.quoted("x")
            l.key(k); l.number(7)
            l.raw("}")
            let read = l.bytes.withUnsafeBufferPointer { b in FrameMembers(b).flatMap { $0.int(k) } }
            XCTAssertEqual(read, k == .op ? nil : 7, "\(k.name)")
        }
    }

    func testUnknownNamesPrefixesAndCaseAreNotKeysAndEscapedNamesAre() {
        XCTAssertEqual(members(#"{"idx":1,"i":2,"ID":3,"statu":4,"statuses":5,"\u0069d":6}"#), [.id: "6"])
        XCTAssertEqual(members(#"{"resultTex":1,"resultText":"t","deadlineMsX":3}"#), [.resultText: "\"t\""])
    }

    /// Names are compared a word at a time (`JSONScan.sameBytes`): a name that differs from a key in
    /// any one byte (its first, its last, one in the middle; an ASCII letter or a byte of a multi-byte
    /// character) is not that key, whatever the name's length.
    func testANameThatDiffersFromAKeyInAnyOneByteIsNotThatKey() {
        for k in WireKey.allCases {
            let name = Array(k.name.description.utf8)
            for at in name.indices {
                for replacement: [UInt8] in [[name[at] ^ 0x20], [name[at] &+ 1], [0xc3, 0xa9]] {
                    var near = name
                    near.replaceSubrange(at...at, with: replacement)
                    let text = #"{"op":"x",""# + String(decoding: near, as: UTF8.self) + #"":1}"#
                    XCTAssertEqual(members(text), [.op: "\"x\""], "\(k.name) changed at \(at)")
                }
            }
        }
    }

    /// `JSONScan.equals` over every length around the 2-, 4-, 8- and 16-byte words it compares: equal
    /// bytes match wherever they stand in the buffer, and a change of any one byte (last byte, a byte
    /// above 0x7f) or of the length does not.
    func testWordCompareOfEveryLengthFindsEveryDifferentByte() {
        for n in 0...40 {
            let word = (0..<n).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            for offset in [0, 1, 7] {
                var text = [UInt8](repeating: UInt8(ascii: "#"), count: offset) + word + [UInt8(ascii: "#")]
                let range = offset..<(offset + n)
                func equal() -> Bool {
                    text.withUnsafeBufferPointer { b in word.withUnsafeBufferPointer { w in
                        JSONScan.equals(b, range, w.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: n)
                    } }
                }
                XCTAssertTrue(equal(), "length \(n) at \(offset)")
                for at in range {
                    for changed: UInt8 in [text[at] ^ 1, 0xe9, 0x80] {
                        let kept = text[at]
                        text[at] = changed
                        XCTAssertFalse(equal(), "length \(n) at \(offset), byte \(at - offset) changed")
                        text[at] = kept
                    }
                }
                let longer = text.withUnsafeBufferPointer { b in word.withUnsafeBufferPointer { w in
                    JSONScan.equals(b, offset..<(offset + n + 1), w.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: n)
                } }
                XCTAssertFalse(longer, "length \(n) against \(n + 1) bytes")
            }
        }
    }

    func testTheFirstOfTwoMembersWithOneNameCountsAndValuesAreWhole() {
        XCTAssertEqual(members(#"{ "id" : 1 , "id":2, "result": {"id":3,"a":[1,{"b":2}]}, "message":null }"#),
                       [.id: "1", .result: #"{"id":3,"a":[1,{"b":2}]}"#, .message: "null"])
    }

    func testWhatIsNotOneObjectHasNoMembers() {
        for text in ["[]", "", "{", #"{"id":1"#, #"{"id":1}x"#, #"{"id":}"#, #"{"id":1,}"#, "null", #"{"id" 1}"#] {
            XCTAssertNil(members(text), text)
        }
        XCTAssertEqual(members(" {} "), [:])
    }
}
