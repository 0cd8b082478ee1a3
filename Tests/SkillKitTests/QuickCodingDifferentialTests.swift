import Foundation
import XCTest
@testable import SkillKit

/// Seeded random inputs for SkillKit's quick coders, each compared with Foundation's: where the quick
/// decoder answers, `JSONDecoder` must give the same value (never a value where Foundation throws);
/// where the quick encoder answers, `JSONEncoder` must write the same bytes. The generator mixes valid
/// members with what users and models actually send wrong: a missing or extra member, a string for a
/// number, `1.0` or `1e2` for an integer, a number out of range, null, escapes, non-ASCII text, lone
/// surrogate escapes, deep nesting, white space. The seed is fixed, so a failure reproduces.
final class QuickCodingDifferentialTests: XCTestCase {
    struct Item: Codable, Equatable {
        var id: Int
        var label: String?
        var weight: Double
        var small: UInt8?
        var flags: [Bool]
    }

    struct Request: Codable, Equatable {
        var title: String
        var count: Int
        var ratio: Double?
        var done: Bool
        var tags: [String]
        var items: [Item]
        var extra: [String: Int]?
        var nested: [[Int]]?
    }

    /// SplitMix64: small, seeded, the same sequence on every machine.
    struct SeededRandom: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func testTheQuickDecoderNeverDisagreesWithJSONDecoder() throws {
        var rng = SeededRandom(state: 0x5EED_0001)
        var quickAnswers = 0, foundationOnly = 0
        for round in 0..<600 {
            let text = Self.request(&rng)
            let quick = try? QuickDecoding.decode(Request.self, from: Array(text.utf8))
            let foundation = try? SkillJSON.decoder.decode(Request.self, from: Data(text.utf8))
            if let quick {
                quickAnswers += 1
                XCTAssertEqual(quick, foundation, "round \(round): the quick decoder answered where JSONDecoder \(foundation == nil ? "throws" : "gives another value"): \(text)")
            } else if foundation != nil {
                foundationOnly += 1
            }
            // The SDK's entry point gives Foundation's answer either way.
            let viaSDK = try? SkillInput(intent: "t.t", json: text).decode(Request.self)
            XCTAssertEqual(viaSDK, foundation, "round \(round): SkillInput.decode differs from JSONDecoder: \(text)")
        }
        // The generator must exercise every path, or the comparison proves nothing: the quick answer,
        // the quick path giving up, and the fallback then decoding what the quick path would not.
        XCTAssertGreaterThan(quickAnswers, 100, "too few inputs took the quick path")
        XCTAssertGreaterThan(600 - quickAnswers, 100, "too few inputs were left to Foundation")
        XCTAssertGreaterThan(foundationOnly, 20, "too few inputs that only Foundation decodes")
    }

    func testTheQuickEncoderWritesJSONEncodersBytes() throws {
        var rng = SeededRandom(state: 0x5EED_0002)
        var quickAnswers = 0
        for round in 0..<600 {
            let value = Self.value(&rng)
            let foundation = try? Array(SkillJSON.encoder(timeZone: SkillDates.utc).encode(value))
            guard let quick = QuickEncoding.encode(value, timeZone: SkillDates.utc) else { continue }
            quickAnswers += 1
            XCTAssertEqual(String(decoding: quick, as: UTF8.self), foundation.map { String(decoding: $0, as: UTF8.self) } ?? "<throws>",
                           "round \(round): \(value)")
        }
        XCTAssertGreaterThan(quickAnswers, 300, "too few values took the quick path")
    }

    // MARK: - Generators

    static func string(_ rng: inout SeededRandom) -> String {
        let pieces = ["a", "Z", " ", "é", "中文", "😀", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{7f}", "\u{2028}", "x y", "0"]
        return (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    /// A JSON string literal of `s`, sometimes with escapes JSONEncoder would not write.
    static func literal(_ s: String, _ rng: inout SeededRandom) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += Bool.random(using: &rng) ? "\\n" : "\\u000a"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            case _ where u.value > 0xFFFF && Bool.random(using: &rng):
                let v = u.value - 0x10000
                out += String(format: "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
            case "/" where Bool.random(using: &rng): out += "\\/"
            default: out.unicodeScalars.append(u)
            }
        }
        if Int.random(in: 0..<80, using: &rng) == 0 { out += "\\ud800" }  // a lone surrogate
        return out + "\""
    }

    static func integer(_ rng: inout SeededRandom) -> String {
        switch Int.random(in: 0..<60, using: &rng) {
        case 0: return "1.0"
        case 1: return "1e2"
        case 2: return "\"7\""
        case 3: return "null"
        case 4: return "99999999999999999999"
        case 5: return "-0"
        case 6: return "01"
        default: return String(Int.random(in: -1_000_000...1_000_000, using: &rng))
        }
    }

    static func double(_ rng: inout SeededRandom) -> String {
        switch Int.random(in: 0..<50, using: &rng) {
        case 0: return "1e400"
        case 1: return "-1.5E-3"
        case 2: return "\"0.5\""
        case 3: return "0.1"
        case 4: return "3"
        case 5: return ".5"
        default: return String(Double.random(in: -1e6...1e6, using: &rng))
        }
    }

    static func small(_ rng: inout SeededRandom) -> String {
        Int.random(in: 0..<8, using: &rng) == 0 ? ["256", "-1", "7.0"].randomElement(using: &rng)! : ["0", "255", "null", "12"].randomElement(using: &rng)!
    }

    static func object(_ members: [(String, String)], _ rng: inout SeededRandom) -> String {
        var m = members.filter { _ in Int.random(in: 0..<80, using: &rng) != 0 }  // sometimes one is missing
        if Int.random(in: 0..<6, using: &rng) == 0 { m.append(("unknown", "[1,{\"a\":null}]")) }
        if Int.random(in: 0..<30, using: &rng) == 0, let first = m.first { m.append(first) }  // a repeated key
        m.shuffle(using: &rng)
        let space = Int.random(in: 0..<4, using: &rng) == 0 ? " \n" : ""
        return "{" + space + m.map { "\"\($0.0)\"" + space + ":" + space + $0.1 }.joined(separator: "," + space) + space + "}"
    }

    static func item(_ rng: inout SeededRandom) -> String {
        var members = [("id", integer(&rng)), ("weight", double(&rng)),
                       ("flags", "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in Bool.random(using: &rng) ? "true" : "false" }.joined(separator: ",") + "]")]
        if Bool.random(using: &rng) { members.append(("label", Bool.random(using: &rng) ? literal(string(&rng), &rng) : "null")) }
        if Bool.random(using: &rng) { members.append(("small", small(&rng))) }
        return object(members, &rng)
    }

    static func request(_ rng: inout SeededRandom) -> String {
        var members = [("title", literal(string(&rng), &rng)), ("count", integer(&rng)),
                       ("done", Int.random(in: 0..<20, using: &rng) == 0 ? ["\"yes\"", "1"].randomElement(using: &rng)! : ["true", "false"].randomElement(using: &rng)!),
                       ("tags", "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in literal(string(&rng), &rng) }.joined(separator: ",") + "]"),
                       ("items", "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in item(&rng) }.joined(separator: ",") + "]")]
        if Bool.random(using: &rng) { members.append(("ratio", Bool.random(using: &rng) ? double(&rng) : "null")) }
        if Bool.random(using: &rng) {
            members.append(("extra", "{" + (0..<Int.random(in: 0...3, using: &rng)).map { i in "\"k\(i)\(string(&rng).filter(\.isASCII).filter { $0 != "\"" && $0 != "\\" && !$0.isNewline && $0.asciiValue! >= 0x20 })\":\(integer(&rng))" }.joined(separator: ",") + "}"))
        }
        if Bool.random(using: &rng) {
            let depth = Int.random(in: 1...3, using: &rng)
            members.append(("nested", depth == 3 ? "[[1,[2]]]" : "[[" + integer(&rng) + "],[]]"))
        }
        return object(members, &rng)
    }

    static func value(_ rng: inout SeededRandom) -> Request {
        func d() -> Double {
            [0.1, -0.0, 1e21, 1e-7, 123.456, 5e-324, Double.random(in: -1e9...1e9, using: &rng), 3, 1e16].randomElement(using: &rng)!
        }
        return Request(
            title: string(&rng), count: Int.random(in: Int.min...Int.max, using: &rng),
            ratio: Bool.random(using: &rng) ? d() : nil, done: Bool.random(using: &rng),
            tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in string(&rng) },
            items: (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                Item(id: Int.random(in: -99...99, using: &rng), label: Bool.random(using: &rng) ? string(&rng) : nil, weight: d(),
                     small: Bool.random(using: &rng) ? UInt8.random(in: 0...255, using: &rng) : nil,
                     flags: (0..<Int.random(in: 0...2, using: &rng)).map { _ in Bool.random(using: &rng) })
            },
            extra: Bool.random(using: &rng) ? Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...4, using: &rng)).map { ("k\($0)" + (Bool.random(using: &rng) ? "_" : "A"), $0) }) : nil,
            nested: Bool.random(using: &rng) ? [[1, 2], [], [Int.random(in: -5...5, using: &rng)]] : nil)
    }
}
