import XCTest
import SkillWire
@testable import SkillHostCore

/// The audit line's bytes, pinned for every kind of call: each line `Invoker.auditLine` writes (one
/// walk over the input that writes, redacts and shortens) must equal, byte for byte, both a literal
/// line and what the tree writer wrote before it (a redacted copy of the input, a shortened copy of
/// that, then `JSON.write`: kept below as `TreeAuditLine`), so the fast path cannot drift.
final class AuditLineTests: XCTestCase {
    /// 2026-11-30T00:53:20Z.
    let time = 1_796_000_000

    func binding(_ intent: String = "x.y", version: Int = 1, skill id: String = "a.skill") -> IntentBinding {
        let i = IntentSummary(name: intent, version: version, flags: [], surfaces: .all, priority: 0, confidence: 1)
        let identity = SkillIdentity(id: id, name: id, version: SemanticVersion("1.2.3")!, category: "c", vendor: "", description: "",
                                     toolchain: nil, abiMajor: 1, abiMinor: 1, threadSafe: true, hasHealth: false)
        let s = RegisteredSkill(summary: SkillSummary(identity: identity, intents: [i]), manifestText: [],
                                file: SkillFile(path: "/s/\(id).so", inode: 1, size: 1, mtimeNs: 1), isolation: .process)
        return IntentBinding(skill: s, intent: i)
    }

    func schema(_ text: String) throws -> JSONSchema { try JSONSchema(try JSON.parse(text)) }

    func success(_ skill: String = "a.skill", replayed: Bool = false) -> Result<InvokeSuccess, SkillError> {
        .success(InvokeSuccess(intent: "x.y", skillID: skill, skillVersion: "1.2.3", result: ["ok": true], message: nil,
                               durationMs: 1, replayed: replayed))
    }

    /// The line `Invoker.auditLine` writes, asserted equal to the tree writer's; returned for the literal check.
    func line(_ request: InvokeRequest, _ record: Invoker.CallRecord, _ outcome: Result<InvokeSuccess, SkillError>,
              duration: Int = 1234, schema: JSONSchema?, stack: Int = 1024, file: StaticString = #filePath, line: UInt = #line) -> String {
        let fast = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stack) { buffer in
            var l = AuditLine(in: buffer)
            Invoker.auditLine(&l, time: time, durationHundredthsMs: duration, request, record, outcome, inputSchema: schema)
            return l.finish { all -> [UInt8] in
                XCTAssertEqual(all.first, 0x0a, "the spare first byte is a newline", file: file, line: line)
                XCTAssertEqual(all.last, 0x0a, "the line ends in a newline", file: file, line: line)
                return Array(all.dropFirst().dropLast())
            }
        }
        let tree = TreeAuditLine.line(time: time, durationHundredthsMs: duration, request, record, outcome, inputSchema: schema)
        XCTAssertEqual(String(decoding: fast, as: UTF8.self), String(decoding: tree, as: UTF8.self), "fast path and tree writer differ", file: file, line: line)
        return String(decoding: fast, as: UTF8.self)
    }

    func testAnOkCallOfAPerson() throws {
        let b = binding()
        let input: JSON = ["text": "hello"]
        XCTAssertEqual(line(InvokeRequest(intent: "x.y", input: "{}", caller: .human), .init(binding: b, decision: .allowed, input: input),
                            success(), schema: try schema(#"{"type":"object","properties":{"text":{"type":"string"}}}"#)),
                       #"{"time":"2026-11-30T00:53:20Z","caller":"human","intent":"x.y","skill":"a.skill","version":"1.2.3","decision":"allowed","outcome":"ok","durationMs":12.34,"input":{"text":"hello"}}"#)
    }

    func testADeniedCallNamesItsRuleAndItsDetailsAreShortened() throws {
        var e = SkillError(.denied, "no")
        e.rule = "policy.rateLimits.automation.x.y"
        e.details = ["why": ["nested": [1, -2, 2.5, .null, false]], "long": .string(String(repeating: "d", count: 300))]
        let denied = PolicyDecision.denied(Denial(rule: "policy.rateLimits.automation.x.y", message: "no"))
        let text = line(InvokeRequest(intent: "x.y@2", input: "{}", caller: .automation),
                        .init(binding: binding(version: 2), decision: denied, input: ["a": 1]), .failure(e), duration: 1230, schema: try schema(#"{"type":"object"}"#))
        XCTAssertEqual(text, #"{"time":"2026-11-30T00:53:20Z","caller":"automation","intent":"x.y@2","skill":"a.skill","version":"1.2.3","decision":"denied","outcome":"denied","rule":"policy.rateLimits.automation.x.y","details":{"why":{"nested":[1,-2,2.5,null,false]},"long":""#
                       + String(repeating: "d", count: 200) + #"…, 300 bytes"},"durationMs":12.3,"input":{"a":1}}"#)
    }

    func testAReplayedCallWithItsIdempotencyKey() throws {
        var request = InvokeRequest(intent: "x.y", input: "{}", caller: .automation)
        request.idempotencyKey = "k-1"
        let text = line(request, .init(binding: binding(), decision: .confirmed, input: [:]), success(replayed: true), duration: 1200,
                        schema: try schema(#"{"type":"object"}"#))
        XCTAssertEqual(text, #"{"time":"2026-11-30T00:53:20Z","caller":"automation","intent":"x.y","skill":"a.skill","version":"1.2.3","decision":"confirmed","outcome":"ok","replayed":true,"idempotencyKey":"k-1","durationMs":12,"input":{}}"#)
    }

    func testAnAgentCallerInASessionAndAFallbackSkill() throws {
        var request = InvokeRequest(intent: "x.y", input: "{}", caller: .agent(host: "claude \"desktop\"\n"))
        request.session = "s-\u{1}é"
        let text = line(request, .init(binding: binding(), decision: .allowed, input: ["q": "a\"b\\c\td\u{7f}é"]), success("b.skill"), duration: 5,
                        schema: try schema(#"{"type":"object"}"#))
        XCTAssertEqual(text, #"{"time":"2026-11-30T00:53:20Z","caller":"agent","agentHost":"claude \"desktop\"\n","session":"s-\u0001é","intent":"x.y","skill":"b.skill","version":"1.2.3","decision":"allowed","outcome":"ok","durationMs":0.05,"input":{"q":"a\"b\\c\td"#
                       + "\u{7f}é\"}}")
    }

    /// No skill for the intent: no skill, version or input (no schema); decision "none".
    func testACallThatFoundNoSkill() throws {
        let text = line(InvokeRequest(intent: "nope.none", input: "{}", caller: .human), .init(binding: nil, decision: nil, input: ["a": 1]),
                        .failure(SkillError(.noSkill, "none")), duration: 0, schema: nil)
        XCTAssertEqual(text, #"{"time":"2026-11-30T00:53:20Z","caller":"human","intent":"nope.none","decision":"none","outcome":"no_skill","durationMs":0}"#)
    }

    /// Secrets at every depth (properties, writeOnly, allOf / anyOf / oneOf branches, additionalProperties,
    /// items of arrays of objects), strings over 256 bytes (ASCII and two-byte characters) and a line
    /// longer than the stack's kilobyte.
    func testSecretsAtAnyDepthAreRedactedAndLongStringsShortened() throws {
        let s = try schema(SecretRedactionTests.nested)  // the one schema both writers are tested on
        let longASCII = String(repeating: "a", count: 300), longWide = String(repeating: "é", count: 200)
        let input = try JSON.parse(#"""
            {"user":"ada","password":"hunter2","auth":{"token":"t0k","scheme":"basic"},
             "keys":[{"k":"s1","label":"one"},{"k":{"nested":"s2"},"label":"two"}],
             "headers":{"Authorization":"hdr","X":"y"},"plain":["\#(longASCII)","\#(longWide)","ok"],
             "deep":{"list":[["x1","x2"],[]]},"pin":"1234","otp":"999","extra":{"n":[1,2.5,-3,true,null],"s":"\#(longASCII)"}}
            """#)
        let text = line(InvokeRequest(intent: "x.y", input: "{}", caller: .human), .init(binding: binding(), decision: .allowed, input: input),
                        success(), schema: s, stack: 64)
        let cutASCII = String(repeating: "a", count: 200) + "…, 300 bytes", cutWide = String(repeating: "é", count: 200) + "…, 400 bytes"
        XCTAssertEqual(text, #"{"time":"2026-11-30T00:53:20Z","caller":"human","intent":"x.y","skill":"a.skill","version":"1.2.3","decision":"allowed","outcome":"ok","durationMs":12.34,"input":"#
                       + #"{"user":"ada","password":"[redacted]","auth":{"token":"[redacted]","scheme":"[redacted]"},"#
                       + #""keys":[{"k":"[redacted]","label":"one"},{"k":"[redacted]","label":"two"}],"#
                       + #""headers":{"Authorization":"[redacted]","X":"[redacted]"},"plain":[""# + cutASCII + #"",""# + cutWide + #"","ok"],"#
                       + #""deep":{"list":[["[redacted]","[redacted]"],[]]},"pin":"[redacted]","otp":"[redacted]","extra":{"n":[1,2.5,-3,true,null],"s":""# + cutASCII + #""}}}"#)
        for secret in ["hunter2", "t0k", "basic", "s1", "s2", "hdr", "x1", "1234", "999"] {
            XCTAssertFalse(text.contains("\"\(secret)\""), secret)
        }
        // The same input under a schema that marks nothing: written as it is, long strings shortened.
        let plain = line(InvokeRequest(intent: "x.y", input: "{}", caller: .human), .init(binding: binding(), decision: .allowed, input: input),
                         success(), schema: try schema(#"{"type":"object","properties":{"user":{"type":"string"}}}"#), stack: 16)
        XCTAssertTrue(plain.contains(#""password":"hunter2""#), plain)
        XCTAssertTrue(plain.contains(cutWide), plain)
        // A schema that is itself secret redacts the whole input.
        XCTAssertTrue(line(InvokeRequest(intent: "x.y", input: "{}", caller: .human), .init(binding: binding(), decision: .allowed, input: input),
                           success(), schema: try schema(#"{"type":"object","secret":true}"#)).hasSuffix(#","input":"[redacted]"}"#))
    }

    /// The time digit by digit is `TimeText.rfc3339`'s text, across leap days, centuries and the epoch.
    func testTheTimeIsTheRFC3339TextOfTheSecond() {
        for t in [0, 59, 951_782_400, 951_868_799, 1_709_164_800, 1_796_000_000, 4_107_542_399, 253_402_300_799] {
            let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { buffer in
                var l = AuditLine(in: buffer)
                l.utcTime(t)
                return l.finish { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) }
            }
            XCTAssertEqual(written, "\"" + TimeText.rfc3339(t) + "\"", "\(t)")
        }
    }
}

/// The audit line as the invoker wrote it before the one-walk writer: `Line` for the members, a
/// redacted copy of the input (`redacted`), a shortened copy of that (`shortened`), `JSON.write`.
/// The reference the fast path is held to; nothing outside these tests uses it.
enum TreeAuditLine {
    static func line(time: Int, durationHundredthsMs: Int, _ request: InvokeRequest, _ record: Invoker.CallRecord,
                     _ outcome: Result<InvokeSuccess, SkillError>, inputSchema: JSONSchema?) -> [UInt8] {
        var l = Line()
        l.raw("{")
        l.key("time"); l.quoted(TimeText.rfc3339(time))
        l.key("caller"); l.quoted(request.caller.kind)
        if case .agent(let host) = request.caller { l.key("agentHost"); l.quoted(host) }
        if let session = request.session { l.key("session"); l.quoted(session) }
        l.key("intent"); l.quoted(record.binding?.intent.address ?? request.intent)
        let success = try? outcome.get()
        if let b = record.binding {
            l.key("skill"); l.quoted(success?.skillID ?? b.skill.id)
            l.key("version"); l.quoted(success?.skillVersion ?? b.skill.versionText)
        }
        l.key("decision"); l.quoted(record.decision.map { "\($0.name)" } ?? "none")
        switch outcome {
        case .success(let s):
            l.key("outcome"); l.raw("\"ok\"")
            if s.replayed { l.key("replayed"); l.bool(true) }
        case .failure(let e):
            l.key("outcome"); l.quoted(e.kind.rawValue)
            if let rule = e.rule { l.key("rule"); l.quoted(rule) }
            if let d = e.details { l.key("details"); shortened(d).write(to: &l.bytes) }
        }
        if let key = request.idempotencyKey { l.key("idempotencyKey"); l.quoted(key) }
        l.key("durationMs"); l.bytes += Array(hundredthsText(durationHundredthsMs).utf8)
        if let input = record.input, let schema = inputSchema { l.key("input"); shortened(redacted(input, schema)).write(to: &l.bytes) }
        l.raw("}")
        return l.bytes
    }

    static func shortened(_ v: JSON) -> JSON {
        switch v {
        case .string(let s) where s.utf8.count > 256: return .string(String(s.prefix(200)) + "…, \(s.utf8.count) bytes")
        case .array(let a): return .array(a.map(shortened))
        case .object(let o): return .object(JSONObject(o.map { ($0.key, shortened($0.value)) }))
        default: return v
        }
    }

    static func redacted(_ value: JSON, _ s: JSONSchema) -> JSON {
        guard s.mayRedact else { return value }
        if s.isSecret { return .string("[redacted]") }
        var out = value
        switch value {
        case .object(let o):
            out = .object(JSONObject(o.map { m -> (key: String, value: JSON) in
                if let p = s.properties.first(where: { $0.0 == m.key })?.1 { return (m.key, redacted(m.value, p)) }
                if case .schema(let a) = s.additional { return (m.key, redacted(m.value, a)) }
                return (m.key, m.value)
            }))
        case .array(let a) where s.items != nil: out = .array(a.map { redacted($0, s.items!) })
        default: break
        }
        for branch in s.allOf + s.anyOf + s.oneOf { out = redacted(out, branch) }
        return out
    }
}

/// The reference text of an amount in hundredths, spelled out the long way.
func hundredthsText(_ n: Int) -> String {
    let whole = n / 100, fraction = n % 100
    if fraction == 0 { return "\(whole)" }
    if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
    return "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}

final class AuditLineNumberTests: XCTestCase {
    func testHundredthsAreJSONNumbersWithoutTrailingZeros() {
        for (n, text) in [(0, "0"), (5, "0.05"), (50, "0.5"), (1200, "12"), (1230, "12.3"), (1234, "12.34"), (100_001, "1000.01")] {
            XCTAssertEqual(String(decoding: AuditLine.text { $0.hundredths(n) }, as: UTF8.self), text)
            XCTAssertEqual(hundredthsText(n), text)
        }
    }
}
