import SkillWire
import XCTest
@testable import SkillHostCore

final class ManifestTests: XCTestCase {
    func report(_ skill: String) -> JSON {
        try! JSON.parse(#"{"file":"/x/a.so","status":"ok","skill":"# + skill + "}")
    }

    let good = #"{"abiMajor":1,"abiMinor":0,"structSize":120,"flags":1,"id":"com.example.cal","name":"Cal","version":"1.2.3","category":"productivity","vendor":"Ex","description":"d","toolchain":null,"hasInvoke":true,"hasHealth":true,"intentCount":1,"intents":[{"structSize":80,"flags":5,"name":"cal.events.list","description":"x","inputSchema":"{\"type\":\"object\"}","outputSchema":null,"surfaces":0,"priority":0,"confidence":0,"keywords":"{\"en\":[\"meeting\"]}","examples":"[{\"lang\":\"en\",\"text\":\"today\",\"input\":{}}]"}]}"#

    func validate(_ s: String, toolchain: String = "swift-6.3") -> Result<SkillManifest, Refusal> {
        ManifestValidator.validate(report: report(s), file: "/x/a.so", hostToolchain: toolchain)
    }

    func refusal(_ s: String) -> Refusal? {
        if case .failure(let r) = validate(s) { return r }
        return nil
    }

    func testAcceptsAGoodManifestAndAppliesDefaults() throws {
        let m = try validate(good).get()
        XCTAssertEqual(m.id, "com.example.cal")
        XCTAssertEqual(m.version.description, "1.2.3")
        XCTAssertEqual(m.intents[0].flags, [.readOnly, .idempotent])
        XCTAssertEqual(m.intents[0].surfaces, .all, "0 surfaces means all")
        XCTAssertEqual(m.intents[0].confidence, 1, "0 confidence means not given")
        XCTAssertEqual(m.intents[0].keywords["en"], ["meeting"])
        XCTAssertTrue(m.threadSafe)
    }

    /// The scan cache's text is written straight from the values (`writeJSON`); it must be, byte for
    /// byte, the tree's `json.write` — with feeds, permissions, several keyword languages, examples
    /// with and without input, an output schema, and text that needs escaping.
    func testTheDirectlyWrittenManifestIsByteForByteTheTreesText() throws {
        let rich = good.replacingOccurrences(of: #""structSize":80,"#, with: #""structSize":88,"feeds":"[{\"intent\":\"cal.events.summary\",\"fields\":{\"from\":{\"path\":\"items[*].start\",\"pick\":\"earliestDay\"}}}]","#)
            .replacingOccurrences(of: #""outputSchema":null"#, with: #""outputSchema":"{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}""#)
            .replacingOccurrences(of: #""keywords":"{\"en\":[\"meeting\"]}""#, with: #""keywords":"{\"zh\":[\"会议\"],\"en\":[\"meeting\",\"a \\\"quoted\\\" word\"]}""#)
            .replacingOccurrences(of: #"\"input\":{}}]""#, with: #"\"input\":{}},{\"lang\":\"zh\",\"text\":\"今天\\n\"}]""#)
            .replacingOccurrences(of: #""description":"d""#, with: #""description":"tab\there \"q\"""#)
            .replacingOccurrences(of: #""abiMinor":0,"structSize":120"#, with: #""abiMinor":3,"structSize":136"#)
            .replacingOccurrences(of: #""intentCount":1"#, with: #""permissions":{"structSize":40,"flags":1,"network":["api.example.com:443"],"read":["{home}/Mail"],"write":[],"environment":[]},"intentCount":1"#)
        for text in [good, rich] {
            let m = try validate(text).get()
            var line = Line()
            m.writeJSON(to: &line)
            let direct = line.bytes
            var tree: [UInt8] = []
            m.json.write(to: &tree)
            XCTAssertEqual(String(decoding: direct, as: UTF8.self), String(decoding: tree, as: UTF8.self))
        }
        let m = try validate(rich).get()
        XCTAssertFalse(m.intents[0].feeds.isEmpty); XCTAssertFalse(m.identity.permissions.isEmpty)
        XCTAssertNotNil(m.intents[0].outputSchema); XCTAssertEqual(m.intents[0].keywords.count, 2); XCTAssertEqual(m.intents[0].examples.count, 2)
    }

    func testRoundTripsThroughTheCacheForm() throws {
        let m = try validate(good).get()
        XCTAssertEqual(SkillManifest(json: try JSON.parse(m.json.serialized)), m)
        XCTAssertEqual(try summaryThroughTheScanCache(m), m.summary)
    }

    func testRefusesAnotherABIMajorNamingBothVersions() {
        let r = refusal(#"{"abiMajor":2,"abiMinor":3,"structSize":8}"#)
        XCTAssertEqual(r?.reason, .abiMismatch)
        XCTAssertTrue(r!.message.contains("host serves ABI 1.0–1.3, skill was built for ABI 2.3"), r!.message)
        XCTAssertEqual(r?.reason.errorKind, .incompatible)
    }

    func testNegotiatesTheRequiredMinor() {
        let needsNext = good.replacingOccurrences(of: #""abiMinor":0"#, with: #""abiMinor":5,"abiMinorRequired":4"#)
        let r = refusal(needsNext)
        XCTAssertEqual(r?.reason, .abiMismatch)
        XCTAssertTrue(r!.message.contains("skill needs ABI 1.4 or newer (built for 1.5), this host serves ABI 1.0–1.3"), r!.message)
        let m = try? validate(good.replacingOccurrences(of: #""abiMinor":0"#, with: #""abiMinor":4,"abiMinorRequired":1"#)).get()
        XCTAssertEqual(m?.abiServed, "1.3", "served at the host's minor")
        XCTAssertEqual(m?.abiRequired, "1.1")
        let inverted = refusal(good.replacingOccurrences(of: #""abiMinor":0"#, with: #""abiMinor":0,"abiMinorRequired":1"#))
        XCTAssertTrue(inverted!.message.contains(#"field "abi_minor_required": expected at most abi_minor (0), found 1"#), inverted!.message)
    }

    func testIntentVersionsAllowOneNameTwice() throws {
        let two = good.replacingOccurrences(of: #""intents":[{"#, with: #""intents":[{"structSize":80,"name":"cal.events.list","version":2,"inputSchema":"{\"type\":\"object\"}"},{"#)
        let m = try validate(two).get()
        XCTAssertEqual(m.intents.map(\.address).sorted(), ["cal.events.list", "cal.events.list@2"])
        XCTAssertEqual(try summaryThroughTheScanCache(m), m.summary)
    }

    func testRefusesAToolchainMismatchNamingBoth() {
        let r = refusal(good.replacingOccurrences(of: #""toolchain":null"#, with: #""toolchain":"swift-6.1""#))
        XCTAssertEqual(r?.reason, .toolchainMismatch)
        XCTAssertTrue(r!.message.contains("host was built with swift-6.3, skill with swift-6.1"), r!.message)
    }

    func testBadFieldsAreNamed() {
        XCTAssertTrue(refusal(good.replacingOccurrences(of: #""id":"com.example.cal""#, with: #""id":"Calendar""#))!.message.contains(#"field "id""#))
        XCTAssertTrue(refusal(good.replacingOccurrences(of: #""version":"1.2.3""#, with: #""version":"1.2""#))!.message.contains(#"field "version": expected a semantic version"#))
        let dup = good.replacingOccurrences(of: #""intents":[{"#, with: #""intents":[{"structSize":80,"name":"cal.events.list","inputSchema":"{\"type\":\"object\"}"},{"#)
        XCTAssertTrue(refusal(dup)!.message.contains(#"intent "cal.events.list" version 1 is declared twice"#), refusal(dup)!.message)
        let badSchema = good.replacingOccurrences(of: #""inputSchema":"{\"type\":\"object\"}""#, with: #""inputSchema":"{\"type\":\"object\",}""#)
        XCTAssertTrue(refusal(badSchema)!.message.contains("is not valid JSON"), refusal(badSchema)!.message)
        let notObject = good.replacingOccurrences(of: #""inputSchema":"{\"type\":\"object\"}""#, with: #""inputSchema":"{\"type\":\"string\"}""#)
        XCTAssertTrue(refusal(notObject)!.message.contains("root to be"), refusal(notObject)!.message)
        let badExample = good.replacingOccurrences(of: #"\"input\":{}"#, with: #"\"input\":[]"#)
        XCTAssertTrue(refusal(badExample)?.message.contains("examples[0].input does not match") == true, "\(String(describing: refusal(badExample)))")
    }

    func testLoaderErrorsBecomeRefusalsWithTheirReason() {
        // What the scan process sends when its loader (SkillLoading) refuses a file.
        let r = ManifestValidator.validate(report: try! JSON.parse(#"{"file":"/x/a.so","status":"refused","reason":"missing_symbol","message":"no skillhost_entry","hint":"export it"}"#),
                                           file: "/x/a.so", hostToolchain: "swift-6.3")
        guard case .failure(let ref) = r else { return XCTFail() }
        XCTAssertEqual(ref.reason, .missingSymbol)
        XCTAssertEqual(ref.message, "no skillhost_entry")
        XCTAssertEqual(ref.hint, "export it")
    }

    /// The byte-by-byte reading of ASCII versions (`SemanticVersion.ascii`) answers exactly as the
    /// reading by Characters for every text: chosen edge cases, then 20 000 seeded version-like texts
    /// with random edits (digits, ".", "-", "+", letters, a space, CR LF).
    func testTheASCIIVersionReadingAgreesWithTheReadingByCharacters() {
        func same(_ t: String, file: StaticString = #filePath, line: UInt = #line) {
            let quick = SemanticVersion.ascii(t.utf8), slow = SemanticVersion(characters: t)
            XCTAssertEqual(quick, slow, "\"\(t)\"", file: file, line: line)
            XCTAssertEqual(quick?.build, slow?.build, "\"\(t)\"", file: file, line: line)
            XCTAssertEqual(quick?.description, slow?.description, "\"\(t)\"", file: file, line: line)
        }
        for t in ["1.2.3", "0.0.0", "1.2.3-beta.1+build.5", "1.0.0+", "1.0.0-", "1.0.0-+x", "01.0.0", "1.00.0", "1.0",
                  "1.0.0.0", "", "+", "-", "1..0", "1.0.0-a..b", "1.0.0-a-b.-c", "1.0.0+a+b", "1.0.0-x+y-z",
                  "99999999999999999999.0.0", "9223372036854775807.0.0", "1.0.0-\r\n", "1.0.0+\r\n", " 1.0.0", "1.0.0 "] { same(t) }
        var rng = SplitMix64(seed: 10)
        let numbers = ["0", "1", "7", "10", "01", "00", "99999999999999999999"]
        let idents = ["alpha", "1", "0", "01", "x-y", "-", "", "Z9"]
        let alphabet = Array("0123456789.-+aZ \r\n")
        var valid = 0
        for _ in 0..<20_000 {
            // A version-like text (three numbers, maybe a prerelease and build), then 0–2 random edits.
            var t = (0..<3).map { _ in numbers.randomElement(using: &rng)! }.joined(separator: ".")
            if Bool.random(using: &rng) { t += "-" + (0..<Int.random(in: 1...3, using: &rng)).map { _ in idents.randomElement(using: &rng)! }.joined(separator: ".") }
            if Bool.random(using: &rng) { t += "+" + idents.randomElement(using: &rng)! }
            var chars = Array(t)
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let at = Int.random(in: 0...chars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: chars.insert(alphabet.randomElement(using: &rng)!, at: at)
                case 1 where at < chars.count: chars.remove(at: at)
                default: if at < chars.count { chars[at] = alphabet.randomElement(using: &rng)! }
                }
            }
            t = String(chars)
            same(t)
            if SemanticVersion(characters: t) != nil { valid += 1 }
        }
        XCTAssertGreaterThan(valid, 2_000, "valid versions are among the generated texts")
        XCTAssertLessThan(valid, 18_000, "invalid ones too")
    }

    func testSemanticVersionParsingAndPrecedence() {
        XCTAssertNil(SemanticVersion("1.0"))
        XCTAssertNil(SemanticVersion("01.0.0"))
        XCTAssertNil(SemanticVersion("1.0.0-"))
        XCTAssertEqual(SemanticVersion("1.2.3-beta.1+build.5")?.description, "1.2.3-beta.1+build.5")
        let order = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0"]
        let parsed = order.map { SemanticVersion($0)! }
        XCTAssertEqual(parsed, parsed.sorted())
        for (a, b) in zip(parsed, parsed.dropFirst()) { XCTAssertLessThan(a, b) }
    }

    /// A scan report without an ABI version (another build's scan process) is refused, not a trap.
    func testAReportWithoutAnABIVersionIsRefused() {
        for skill in [#"{"id":"a.b"}"#, #"{"id":"a.b","abiMajor":-1,"abiMinor":2}"#, #"{"id":"a.b","abiMajor":1,"abiMinor":"2"}"#] {
            let r = ManifestValidator.validate(report: try! JSON.parse(#"{"file":"/x/a.so","status":"ok","skill":"# + skill + "}"),
                                               file: "/x/a.so", hostToolchain: "t")
            guard case .failure(let refusal) = r else { return XCTFail("accepted \(skill)") }
            XCTAssertEqual(refusal.reason, .badManifest)
            XCTAssertTrue(refusal.message.contains("no ABI version"), refusal.message)
        }
    }
}

/// skh_intent.feeds (ABI 1.3): the chain rules an intent declares, checked with errors that name the
/// file, the member, what was expected and found, and the fix.
final class ManifestFeedsTests: XCTestCase {
    /// ManifestTests' helpers (an XCTestCase is not made by hand on Linux).
    let good = #"{"abiMajor":1,"abiMinor":3,"structSize":136,"flags":1,"id":"com.example.cal","name":"Cal","version":"1.2.3","category":"productivity","vendor":"Ex","description":"d","toolchain":null,"hasInvoke":true,"hasHealth":true,"intentCount":1,"intents":[{"structSize":80,"flags":5,"name":"cal.events.list","description":"x","inputSchema":"{\"type\":\"object\"}","outputSchema":null,"surfaces":0,"priority":0,"confidence":0}]}"#

    func validate(_ s: String) -> Result<SkillManifest, Refusal> {
        ManifestValidator.validate(report: try! JSON.parse(#"{"file":"/x/a.so","status":"ok","skill":"# + s + "}"), file: "/x/a.so",
                                   hostToolchain: "swift-6.3")
    }

    func refusal(_ s: String) -> Refusal? {
        if case .failure(let r) = validate(s) { return r }
        return nil
    }

    func withFeeds(_ feeds: String) -> String {
        let quoted = "\"" + feeds.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        return good.replacingOccurrences(of: #""structSize":80,"#, with: #""structSize":88,"feeds":"# + quoted + ",")
    }

    func testAcceptsDeclaredFeedsAndKeepsThemThroughTheCache() throws {
        let m = try validate(withFeeds(#"[{"intent":"cal.events.summary","fields":{"from":{"path":"items[*].start","pick":"earliestDay"},"to":{"path":"items[*].start","pick":"latestDay"}}}]"#)).get()
        let feed = try XCTUnwrap(m.intents[0].feeds.first)
        XCTAssertEqual(feed.intent, "cal.events.summary")
        XCTAssertEqual(feed.fields.map(\.name), ["from", "to"])
        XCTAssertEqual(feed.fields.map(\.pick), [.earliestDay, .latestDay])
        XCTAssertEqual(SkillManifest(json: try JSON.parse(m.json.serialized)), m, "the scan cache keeps the feeds")
    }

    func testRefusesBadFeedsNamingTheFileTheMemberAndTheFix() {
        let cases: [(String, String)] = [
            (#"{"intent":"x"}"#, #"field "feeds": expected an array of {"intent", "fields"}, found an object"#),
            (#"[{"intent":"Not A Name","fields":{"a":{"path":"p","pick":"earliestDay"}}}]"#, #"field "feeds[0].intent": expected the name of the intent to feed"#),
            (#"[{"intent":"cal.x","fields":{}}]"#, #"field "feeds[0].fields": expected an object of input field"#),
            (#"[{"intent":"cal.x","fields":{"from":{"path":"a.b","pick":"soonest"}}}]"#, #"field "feeds[0].fields.from.pick": expected "earliestDay" or "latestDay", found "soonest""#),
            (#"[{"intent":"cal.x","fields":{"from":{"pick":"latestDay"}}}]"#, #"field "feeds[0].fields.from.path": expected a dotted path"#),
            (#"[{"intent":"cal.x","fields":{"from":{"path":"a","pick":"latestDay"}},"when":1}]"#, #"field "feeds[0]": unknown member "when" (expected intent, fields)"#),
            (#"[{"intent":"cal.events.list","fields":{"from":{"path":"a","pick":"latestDay"}}}]"#, #"field "feeds[0].intent": expected another intent, found this one"#),
        ]
        for (feeds, expected) in cases {
            guard let r = refusal(withFeeds(feeds)) else { XCTFail("accepted \(feeds)"); continue }
            XCTAssertEqual(r.reason, .badManifest)
            XCTAssertTrue(r.message.contains(#"bad manifest in "/x/a.so""#) && r.message.contains(#"intent "cal.events.list""#), r.message)
            XCTAssertTrue(r.message.contains(expected), "\(feeds): \(r.message)")
            XCTAssertTrue(r.hint?.contains("skh_intent.feeds is a JSON array like") == true, "the fix: \(r.hint ?? "none")")
        }
        XCTAssertTrue(refusal(withFeeds("[{"))!.message.contains(#"field "feeds" is not valid JSON"#))
    }
}

/// A seeded generator (SplitMix64), so a failure can be replayed.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
