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
