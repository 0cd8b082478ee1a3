import Foundation
import XCTest
@testable import SkillKit

/// The quick paths of `SkillInput.decode` / `SkillContext.config` (`QuickDecoding`) and of
/// `SkillResult(_:)` (`QuickEncoding`) against Foundation's coders configured as the SDK configures
/// them: where the quick path answers, the answer is the same; where it is not sure, it answers nil
/// (and the SDK asks Foundation).
final class QuickCodingTests: XCTestCase {
    struct Inner: Codable, Equatable {
        var name: String
        var n: Int?
        var tags: [String]
    }

    struct Outer: Codable, Equatable {
        enum Kind: String, Codable { case a, b }
        var text: String
        var count: Int
        var ratio: Double
        var f: Float?
        var ok: Bool
        var when: Date?
        var inner: Inner
        var list: [Inner]
        var map: [String: Int]
        var nums: [Int: String]
        var opt: String?
        var kind: Kind
        var u8: UInt8
        var i64: Int64
    }

    static let sample = Outer(
        text: "hé/\"\\\n\t\u{1}\u{7f}😀 \u{2028}", count: -42, ratio: 0.1, f: 1.5, ok: true,
        when: Date(timeIntervalSince1970: 1_740_792_600), inner: Inner(name: "x", n: nil, tags: []),
        list: [Inner(name: "a", n: 1, tags: ["p", "q"]), Inner(name: "b", n: 2, tags: [])],
        map: ["b": 1, "a": 2, "A": 3, "_": 4, "a1": 5, "a10": 6, "a2": 7], nums: [1: "a", 10: "b", 2: "c"],
        opt: nil, kind: .b, u8: 255, i64: .min)

    private func foundationBytes<T: Encodable>(_ value: T, timeZone: TimeZone = SkillDates.utc) -> [UInt8]? {
        try? Array(SkillJSON.encoder(timeZone: timeZone).encode(value))
    }

    private func assertQuickEncodes<T: Encodable>(_ value: T, timeZone: TimeZone = SkillDates.utc,
                                                   file: StaticString = #filePath, line: UInt = #line) {
        guard let quick = QuickEncoding.encode(value, timeZone: timeZone) else {
            return XCTFail("the quick path gave up on \(value)", file: file, line: line)
        }
        XCTAssertEqual(String(decoding: quick, as: UTF8.self),
                       foundationBytes(value, timeZone: timeZone).map { String(decoding: $0, as: UTF8.self) },
                       file: file, line: line)
    }

    func testQuickEncodingWritesJSONEncodersBytes() throws {
        assertQuickEncodes(Self.sample)
        assertQuickEncodes(Self.sample, timeZone: TimeZone(identifier: "Asia/Shanghai")!)
        for v in [0.0, -0.0, 1.0, 100.0, 1e21, 1e-7, 123_456_789.123, 3.14, 1e300, 5e-324, 0.30000000000000004, 1e16, -1.5e-10] {
            assertQuickEncodes(["v": v])
        }
        for v: Float in [0.1, 1.5, 3, 1e10, 1e-10, 16_777_217] { assertQuickEncodes(["v": v]) }
        assertQuickEncodes([String: Int]())
        assertQuickEncodes([[Int]]())
        assertQuickEncodes([Int?.none, 1])
        // SkillResult takes the quick path and still writes what it always wrote.
        XCTAssertEqual(try SkillResult(Self.sample).json, foundationBytes(Self.sample))
    }

    func testQuickEncodingGivesUpWhereItIsNotSure() throws {
        XCTAssertNil(QuickEncoding.encode([Double.nan], timeZone: SkillDates.utc))
        XCTAssertNil(QuickEncoding.encode(["é": 1], timeZone: SkillDates.utc), "non-ASCII keys: Foundation's order")
        XCTAssertNil(QuickEncoding.encode("fragment", timeZone: SkillDates.utc))
        XCTAssertNil(QuickEncoding.encode([URL(string: "https://example.com/a")!], timeZone: SkillDates.utc))
        XCTAssertNil(QuickEncoding.encode([Data([1, 2])], timeZone: SkillDates.utc))
        // …and SkillResult then encodes with JSONEncoder, as before.
        XCTAssertEqual(try SkillResult(["é": 1]).jsonString, #"{"é":1}"#)
        XCTAssertEqual(try SkillResult([URL(string: "https://example.com/a")!]).jsonString, #"["https://example.com/a"]"#)
        XCTAssertThrowsError(try SkillResult([Double.nan]))
    }

    private func assertQuickDecodes<T: Decodable & Equatable>(_: T.Type, _ json: String,
                                                              file: StaticString = #filePath, line: UInt = #line) {
        guard let quick = try? QuickDecoding.decode(T.self, from: Array(json.utf8)) else {
            return XCTFail("the quick path gave up on \(json)", file: file, line: line)
        }
        XCTAssertEqual(quick, try SkillJSON.decoder.decode(T.self, from: Data(json.utf8)), file: file, line: line)
    }

    func testQuickDecodingGivesJSONDecodersValue() throws {
        let text = String(decoding: try XCTUnwrap(foundationBytes(Self.sample)), as: UTF8.self)
        assertQuickDecodes(Outer.self, text)
        XCTAssertEqual(try? QuickDecoding.decode(Outer.self, from: Array(text.utf8)), Self.sample)
        assertQuickDecodes(Inner.self, #"{"name":"x","tags":["a","b\u00e9\ud83d\ude00\n\/"]}"#)
        assertQuickDecodes(Inner.self, #"{"name":"x","tags":[],"n":null}"#)
        assertQuickDecodes(Inner.self, #"{"name":"x","tags":[], "extra": {"a":[1,2,{"b":null}]}}"#)
        assertQuickDecodes(Inner.self, " {\"name\" : \"x\" , \"tags\" : [ ] } ")
        assertQuickDecodes([Double].self, "[0.1, 1e300, -0, 5e-324, 1E+2]")
        assertQuickDecodes([Float].self, "[0.5, 3]")
        assertQuickDecodes([String: Int].self, #"{"a":1,"b":2}"#)
        assertQuickDecodes([Int: String].self, #"{"1":"a","2":"b"}"#)
        assertQuickDecodes([Int].self, "[-0]")
        assertQuickDecodes(String.self, #""top""#)
        struct When: Decodable, Equatable { let at: Date }
        assertQuickDecodes(When.self, #"{"at":"2025-03-01T09:30:00+08:00"}"#)
    }

    func testQuickDecodingGivesUpWhereItIsNotSure() throws {
        func gaveUp<T: Decodable>(_: T.Type, _ json: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertNil(try? QuickDecoding.decode(T.self, from: Array(json.utf8)), json, file: file, line: line)
        }
        // JSONDecoder accepts these; the quick path leaves them to it.
        gaveUp(Inner.self, #"{"name":"x","tags":[],"n":1.0}"#)
        gaveUp(Inner.self, #"{"name":"x","tags":[],"n":1e2}"#)
        gaveUp(Inner.self, #"{"name":"x","name":"y","tags":[]}"#)
        gaveUp([Int].self, "[1,2,]")
        gaveUp([Float].self, "[0.1]")
        // …and these it refuses, with its own messages.
        gaveUp(Inner.self, #"{"tags":[]}"#)
        gaveUp(Inner.self, #"{"name":"\ud800","tags":[]}"#)
        gaveUp([Double].self, "[1e400]")
        gaveUp([UInt8].self, "[256]")
        gaveUp([Int].self, "[01]")
        gaveUp([URL].self, #"["https://example.com"]"#)
        // A type that swallows an error (try?) still gets JSONDecoder's answer, not a quick guess.
        struct Lenient: Decodable, Equatable {
            let n: Int?
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                n = try? c.decode(Int.self, forKey: .n)
            }
            enum CodingKeys: CodingKey { case n }
        }
        gaveUp(Lenient.self, #"{"n":2.0}"#)
        XCTAssertEqual(try SkillInput(intent: "t.t", json: #"{"n":2.0}"#).decode(Lenient.self).n, 2)
        // …at any depth: the root value's decoder is the pass's state, nested decoders report to it.
        struct Holder: Decodable, Equatable { let items: [Lenient]; let one: Lenient? }
        gaveUp([Lenient].self, #"[{"n":1},{"n":2.0}]"#)
        gaveUp(Holder.self, #"{"items":[],"one":{"n":2.0}}"#)
        gaveUp([[String: Lenient]].self, #"[{"a":{"n":1}},{"b":{"n":1e0}}]"#)
        let viaSDK = try SkillInput(intent: "t.t", json: #"{"items":[{"n":1},{"n":2.0}],"one":null}"#).decode(Holder.self)
        XCTAssertEqual(viaSDK.items.map(\.n), [1, 2], "JSONDecoder's answer")
        XCTAssertNil(viaSDK.one)
        assertQuickDecodes(Holder.self, #"{"items":[{"n":1},{"n":-3}],"one":{"n":4}}"#)
    }

    /// A value that swallows an encoding error (try?) at any depth leaves the whole value to
    /// JSONEncoder: nested encoders report to the root one, the pass's state.
    func testQuickEncodingGivesUpWhenANestedValueSwallowsAnError() throws {
        struct Lenient: Encodable {
            let v: Double
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try? c.encode(v, forKey: .v)
            }
            enum CodingKeys: CodingKey { case v }
        }
        struct Holder: Encodable { let items: [Lenient]; let name: String }
        XCTAssertNil(QuickEncoding.encode(Holder(items: [Lenient(v: 1), Lenient(v: .nan)], name: "x"), timeZone: SkillDates.utc))
        XCTAssertNil(QuickEncoding.encode([["a": [Lenient(v: .infinity)]]], timeZone: SkillDates.utc))
        XCTAssertNil(QuickEncoding.encode(["k": [URL(string: "https://example.com/a")!]], timeZone: SkillDates.utc))
        assertQuickEncodes(Holder(items: [Lenient(v: 1), Lenient(v: 2.5)], name: "x"))
        XCTAssertEqual(try SkillResult(Holder(items: [Lenient(v: .nan)], name: "x")).jsonString,
                       foundationBytes(Holder(items: [Lenient(v: .nan)], name: "x")).map { String(decoding: $0, as: UTF8.self) })
    }
}
