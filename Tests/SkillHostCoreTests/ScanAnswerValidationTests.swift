import SkillWire
import XCTest
@testable import SkillHostCore

/// The scan process sends a JSON-text field (a schema, keywords, examples, feeds) as the value itself
/// when its text is one JSON object or array, and as text otherwise. The host must read both forms
/// to the same manifest, refuse the same things with the same words, and still check everything a
/// (possibly lying) scan process sends.
final class ScanAnswerValidationTests: XCTestCase {
    /// One answer line around `intent` (the members of one skh_intent as the scan process writes them).
    func line(_ intent: String) -> String {
        #"{"file":"/x/a.so","status":"ok","skill":{"abiMajor":1,"abiMinor":3,"structSize":136,"flags":1,"id":"com.example.cal","name":"Cal","version":"1.2.3","category":"productivity","vendor":"Ex","description":"d","toolchain":null,"hasInit":false,"hasInvoke":true,"hasHealth":false,"hasRelease":false,"abiMinorRequired":0,"permissions":null,"intentCount":1,"intents":["# + intent + "]}}"
    }

    /// The answer line `text` read as the host reads the scan process's lines (from its bytes).
    func validate(_ text: String) -> Result<SkillManifest, Refusal> {
        guard let answer = ScanAnswer(Array(text.utf8)) else { return .failure(ManifestValidator.unreadable("/x/a.so")) }
        return ManifestValidator.validate(report: answer, file: "/x/a.so", hostToolchain: "swift-6.3")
    }

    /// `fields` (member name → JSON text) written both ways: as strings holding the text, and as the values.
    func intent(_ fields: [(String, String)], raw: Bool) -> String {
        var out = #"{"structSize":88,"flags":5,"name":"cal.events.list","description":"x""#
        for (k, text) in fields {
            out += ",\"\(k)\":" + (raw ? text : JSON.quote(text))
        }
        return out + #","surfaces":0,"priority":0,"confidence":0,"version":1}"#
    }

    func message(_ r: Result<SkillManifest, Refusal>) -> String? {
        if case .failure(let f) = r { return f.message }
        return nil
    }

    func testEveryFieldReadsTheSameAsTextAndAsAValue() throws {
        let fields = [
            ("inputSchema", #"{"type":"object","properties":{"text":{"type":"string","description":"a \"q\" \\ é \u00e9 \ud83d\ude00"},"n":{"type":"number","maximum":1e2,"minimum":-0,"default":1.50}},"required":["text"]}"#),
            ("outputSchema", #"{"type":"object","properties":{"n":{"type":"integer"}}}"#),
            ("keywords", #"{"en":["meeting","a \"quoted\" word"],"zh":["会议"]}"#),
            ("examples", #"[{"lang":"en","text":"today","input":{"text":"hi"}},{"lang":"zh","text":"今天\n"}]"#),
            ("feeds", #"[{"intent":"cal.events.summary","fields":{"from":{"path":"items[*].start","pick":"earliestDay"}}}]"#),
        ]
        let asText = try validate(line(intent(fields, raw: false))).get()
        let asValues = try validate(line(intent(fields, raw: true))).get()
        XCTAssertEqual(asText, asValues)
        var a = Line(), b = Line()
        asText.writeJSON(to: &a)
        asValues.writeJSON(to: &b)
        XCTAssertEqual(String(decoding: a.bytes, as: UTF8.self), String(decoding: b.bytes, as: UTF8.self))
        XCTAssertFalse(asValues.intents[0].feeds.isEmpty)
        XCTAssertEqual(asValues.intents[0].examples.count, 2)
    }

    /// A value the scan process sends in place of text is validated exactly as the text would be: each
    /// of these is refused with the same message in both forms.
    func testAForgedValueIsRefusedWithTheWordsItsTextGets() {
        let cases: [[(String, String)]] = [
            [("inputSchema", #"{"type":"objekt"}"#)],
            [("inputSchema", ##"{"type":"object","$ref":"#/x"}"##)],
            [("inputSchema", #"{"type":"string"}"#)],
            [("inputSchema", #"[{"type":"object"}]"#)],
            [("inputSchema", #"{"type":"object"}"#), ("outputSchema", #"{"properties":[]}"#)],
            [("inputSchema", #"{"type":"object"}"#), ("keywords", #"["en"]"#)],
            [("inputSchema", #"{"type":"object"}"#), ("keywords", #"{"en":[1]}"#)],
            [("inputSchema", #"{"type":"object","properties":{"n":{"type":"integer"}}}"#),
             ("examples", #"[{"lang":"en","text":"x","input":{"n":"one"}}]"#)],
            [("inputSchema", #"{"type":"object"}"#), ("examples", #"{"text":"x"}"#)],
            [("inputSchema", #"{"type":"object"}"#), ("feeds", #"[{"intent":"cal.events.list","fields":{"a":{"path":"x","pick":"earliestDay"}}}]"#)],
            [("inputSchema", #"{"type":"object"}"#), ("feeds", #"[{"intent":"x.y"}]"#)],
        ]
        for fields in cases {
            let text = message(validate(line(intent(fields, raw: false))))
            let value = message(validate(line(intent(fields, raw: true))))
            XCTAssertNotNil(text, "\(fields) must be refused")
            XCTAssertEqual(text, value, "\(fields)")
        }
    }

    /// A scan reads each distinct JSON text once (`DeclaredTexts`): a text read again — in the same
    /// file, another file, or in another field — gives the same manifest and the same refusal, word for
    /// word, as reading every text afresh.
    func testATextReadAgainFromTheScansTextsReadsAsIfReadAfresh() throws {
        func validate(_ text: String, _ texts: DeclaredTexts?) -> Result<SkillManifest, Refusal> {
            ManifestValidator.validate(report: ScanAnswer(Array(text.utf8))!, file: "/x/a.so", hostToolchain: "swift-6.3", texts: texts)
        }
        let schema = #"{"type":"object","properties":{"n":{"type":"integer"}}}"#
        let good: [(String, String)] = [("inputSchema", schema), ("outputSchema", schema),
                                        ("examples", #"[{"lang":"en","text":"x","input":{"n":1}}]"#)]
        let refused: [[(String, String)]] = [
            [("inputSchema", #"{"type":"objekt"}"#)],
            [("inputSchema", #"{"type":"string"}"#)],
            [("inputSchema", schema), ("outputSchema", #"{"properties":[]}"#)],
            [("inputSchema", schema), ("examples", #"[{"lang":"en","text":"x","input":{"n":"one"}}]"#)],
            [("inputSchema", schema), ("keywords", #"{"en":[1]}"#)],
        ]
        let texts = DeclaredTexts()
        for raw in [true, false] {
            let fresh = try validate(line(intent(good, raw: raw)), nil).get()
            for _ in 0..<2 { XCTAssertEqual(try validate(line(intent(good, raw: raw)), texts).get(), fresh) }
            for fields in refused {
                let expected = message(validate(line(intent(fields, raw: raw)), nil))
                XCTAssertNotNil(expected, "\(fields) must be refused")
                for _ in 0..<2 { XCTAssertEqual(message(validate(line(intent(fields, raw: raw)), texts)), expected, "\(fields)") }
            }
        }
    }

    /// Only strings (text), objects and arrays (values) are JSON-text fields; any other value, and the
    /// scan process's marker for bytes that are not UTF-8, is refused as it always was; a null input
    /// schema and text that is not JSON are named as they always were.
    func testAScalarInPlaceOfJSONTextIsRefused() {
        for v in ["5", "true", #"{"invalidUTF8":true}"#] {
            let m = message(validate(line(intent([("inputSchema", v)], raw: true))))
            XCTAssertEqual(m, #"bad manifest in "/x/a.so" (skill "com.example.cal"): intent "cal.events.list": field "input_schema": expected JSON text"#, v)
        }
        XCTAssertEqual(message(validate(line(intent([("inputSchema", "null")], raw: true)))),
                       #"bad manifest in "/x/a.so" (skill "com.example.cal"): intent "cal.events.list": field "input_schema": expected a JSON Schema, found NULL"#)
        XCTAssertEqual(message(validate(line(intent([("inputSchema", #"{"type":"object""#)], raw: false)))),
                       #"bad manifest in "/x/a.so" (skill "com.example.cal"): intent "cal.events.list": field "input_schema" is not valid JSON: invalid JSON at byte 16: unterminated object, expected ',' or '}' in «{"type":"object"»"#)
    }

    /// The answer line may nest a value exactly as deep as the text alone may be parsed: a value one
    /// level deeper than `JSONLimits.maxDepth` allows makes the line unreadable, never a manifest.
    func testAValueNestedDeeperThanTheTextLimitIsNotRead() {
        for depth in [JSONLimits.maxDepth - 1, JSONLimits.maxDepth, JSONLimits.maxDepth + 1] {
            // An object root whose "x" nests `depth` levels in all (the root counts as one).
            let inner = String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1)
            let schema = #"{"type":"object","default":"# + inner + "}"
            let alone = (try? JSON.parse(schema)) != nil
            let r = validate(line(intent([("inputSchema", schema)], raw: true)))
            if alone {
                XCTAssertNoThrow(try r.get(), "depth \(depth): the text parses alone, so the value must be read")
            } else {
                XCTAssertEqual(message(r), #"the scan process answered something unreadable for "/x/a.so""#, "depth \(depth)")
            }
            XCTAssertEqual(alone, depth < JSONLimits.maxDepth, "depth \(depth)")
        }
    }

    /// The one-pass name checks agree with the rules they state (written here as splits), on seeded
    /// random text over the characters that matter.
    func testTheNameChecksAgreeWithTheirRules() {
        func lower(_ c: Character) -> Bool { c >= "a" && c <= "z" }
        func digit(_ c: Character) -> Bool { c >= "0" && c <= "9" }
        func reverseDNS(_ s: String) -> Bool {
            let parts = s.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count >= 2 && parts.allSatisfy { p in
                guard let f = p.first, lower(f) else { return false }
                return p.allSatisfy { lower($0) || digit($0) || $0 == "-" || $0 == "_" }
            }
        }
        func intentName(_ s: String) -> Bool {
            let parts = s.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count >= 2 && parts.allSatisfy { p in !p.isEmpty && p.allSatisfy { lower($0) || digit($0) || $0 == "_" } }
        }
        let alphabet = Array("ab9._-.Z é.")
        var seed: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for _ in 0..<20_000 {
            let s = String((0..<(next() % 9)).map { _ in alphabet[next() % alphabet.count] })
            XCTAssertEqual(ManifestValidator.isReverseDNS(s), reverseDNS(s), s)
            XCTAssertEqual(ManifestValidator.isIntentName(s), intentName(s), s)
        }
    }

    /// Compiling a schema gathers keywords in one pass (`JSONSchema.Keywords`): it takes exactly the
    /// names `JSONSchema.keywords` lists, and no annotation.
    func testTheOnePassKeywordReadingTakesExactlyTheKeywords() {
        for name in JSONSchema.keywords {
            var k = JSONSchema.Keywords()
            XCTAssertTrue(k.take(name, .null), name)
        }
        for name in JSONSchema.annotations.union(["$ref", "Type", "typ", ""]) {
            var k = JSONSchema.Keywords()
            XCTAssertFalse(k.take(name, .null), name)
        }
    }

    /// The static names the manifest writer appends are `names`, quoted, for every combination of bits.
    func testTheWrittenFlagAndSurfaceNamesAreTheNames() {
        for bits in UInt32(0)..<32 {
            XCTAssertEqual(IntentFlags.quotedNames.filter { bits & $0.bit != 0 }.map(\.name.description),
                           IntentFlags(rawValue: bits).names.map(JSON.quote))
        }
        for bits in UInt32(0)..<8 {
            XCTAssertEqual(Surfaces.quotedNames.filter { bits & $0.bit != 0 }.map(\.name.description),
                           Surfaces(rawValue: bits).names.map(JSON.quote))
        }
    }
}
