import XCTest
@testable import SkillHostCore

/// Policy decisions per surface: manifest surfaces narrowed (never widened) by the config, destructive
/// intents (confirm / --yes / agents refused unless allowed), token-bucket rate limits, config errors
/// naming the key, and redaction of secret input fields.
final class PolicyTests: XCTestCase {
    var stateDir = ""

    override func setUpWithError() throws {
        stateDir = NSTemporaryDirectory() + "/skillhost-policy-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: stateDir) }

    func binding(_ intent: String = "x.y", skill id: String = "a.skill", flags: IntentFlags = [], surfaces: Surfaces = .all) -> IntentBinding {
        let i = IntentSummary(name: intent, flags: flags, surfaces: surfaces, priority: 0, confidence: 1)
        let identity = SkillIdentity(id: id, name: id, version: SemanticVersion("1.0.0")!, category: "c", vendor: "", description: "",
                                     toolchain: nil, abiMajor: 1, abiMinor: 1, threadSafe: true, hasHealth: false)
        let s = RegisteredSkill(summary: SkillSummary(identity: identity, intents: [i]), manifestText: [],
                                file: SkillFile(path: "/s/\(id).so", inode: 1, size: 1, mtimeNs: 1), isolation: .process)
        return IntentBinding(skill: s, intent: i)
    }

    func policy(_ json: String) throws -> Policy {
        Policy(config: try PolicyConfig(try JSON.parse(json), file: "test.json"), stateDir: stateDir)
    }

    func rule(_ d: PolicyDecision) -> String? {
        if case .denied(let x) = d { return x.rule }
        return nil
    }

    // MARK: - Surfaces

    func testManifestSurfacesDecideWithoutConfig() throws {
        let p = try policy("{}")
        let humanOnly = binding(surfaces: .human)
        XCTAssertEqual(p.decide(humanOnly, caller: .human, confirmed: false), .allowed)
        XCTAssertEqual(rule(p.decide(humanOnly, caller: .automation, confirmed: false)), "manifest.surfaces")
        XCTAssertEqual(rule(p.decide(humanOnly, caller: .agent(host: "t"), confirmed: false)), "manifest.surfaces")
        XCTAssertFalse(p.agentMayCall(humanOnly))
    }

    func testConfigNarrowsPerSkillAndPerIntentAndNamesTheRule() throws {
        let p = try policy(#"{"skills":{"a.skill":{"agent":false,"intents":{"x.z":{"surfaces":["human"]}}}}}"#)
        XCTAssertEqual(rule(p.decide(binding(), caller: .agent(host: "t"), confirmed: false)), "policy.skills.a.skill.agent")
        XCTAssertEqual(p.decide(binding(), caller: .automation, confirmed: false), .allowed)
        XCTAssertEqual(rule(p.decide(binding("x.z"), caller: .automation, confirmed: false)), "policy.skills.a.skill.intents.x.z.surfaces")
        XCTAssertEqual(p.decide(binding("x.z"), caller: .human, confirmed: false), .allowed)
        XCTAssertEqual(p.decide(binding(skill: "other.skill"), caller: .agent(host: "t"), confirmed: false), .allowed, "other skills untouched")
    }

    func testConfigNeverWidensTheManifest() throws {
        let p = try policy(#"{"skills":{"a.skill":{"agent":true,"intents":{"x.y":{"surfaces":["human","automation","agent"]}}}}}"#)
        let b = binding(surfaces: .human)
        XCTAssertEqual(p.surfaces(for: b), .human)
        XCTAssertEqual(rule(p.decide(b, caller: .agent(host: "t"), confirmed: false)), "manifest.surfaces")
    }

    // MARK: - Destructive intents

    func testDestructiveAsksAPersonNeedsYesFromAutomationAndIsRefusedToAgents() throws {
        let p = try policy("{}")
        let b = binding(flags: .destructive)
        guard case .denied(let human) = p.decide(b, caller: .human, confirmed: false) else { return XCTFail("must ask the person") }
        XCTAssertTrue(human.needsConfirmation)
        XCTAssertEqual(human.rule, "destructive.confirm")
        XCTAssertEqual(p.decide(b, caller: .human, confirmed: true), .confirmed)
        XCTAssertEqual(rule(p.decide(b, caller: .automation, confirmed: false)), "destructive.yes")
        XCTAssertEqual(p.decide(b, caller: .automation, confirmed: true), .confirmed)
        XCTAssertEqual(rule(p.decide(b, caller: .agent(host: "t"), confirmed: true)), "policy.agent.allowDestructive")
        XCTAssertFalse(p.agentMayCall(b))
    }

    func testAgentsMayCallDestructiveIntentsTheConfigAllowsBySkillOrIntent() throws {
        for allowed in ["a.skill", "x.y"] {
            let p = try policy(#"{"agent":{"allowDestructive":["\#(allowed)"]}}"#)
            XCTAssertEqual(p.decide(binding(flags: .destructive), caller: .agent(host: "t"), confirmed: false), .allowed)
            XCTAssertTrue(p.agentMayCall(binding(flags: .destructive)))
        }
    }

    // MARK: - Rate limits

    func testTokenBucketDeniesWithRuleAndRetryAfterThenRefills() throws {
        let p = try policy(#"{"rateLimits":{"agent":{"*":{"capacity":2,"refillPerSecond":10}}}}"#)
        let agent = Caller.agent(host: "t")
        XCTAssertEqual(p.decide(binding(), caller: agent, confirmed: false), .allowed)
        XCTAssertEqual(p.decide(binding(), caller: agent, confirmed: false), .allowed)
        guard case .denied(let d) = p.decide(binding(), caller: agent, confirmed: false) else { return XCTFail("third call must be denied") }
        XCTAssertEqual(d.rule, "policy.rateLimits.agent.*")
        XCTAssertGreaterThan(d.retryAfterSeconds ?? 0, 0)
        XCTAssertLessThanOrEqual(d.retryAfterSeconds ?? 1, 0.11)
        XCTAssertEqual(p.decide(binding(), caller: .automation, confirmed: false), .allowed, "other caller kinds have no limit")
        XCTAssertEqual(p.decide(binding("x.other"), caller: agent, confirmed: false), .allowed, "each intent has its own bucket")
        usleep(150_000)
        XCTAssertEqual(p.decide(binding(), caller: agent, confirmed: false), .allowed, "refilled")
    }

    func testBucketsPersistAcrossPolicyInstances() throws {
        let json = #"{"rateLimits":{"automation":{"x.y":{"capacity":1,"refillPerSecond":0.01}}}}"#
        XCTAssertEqual(try policy(json).decide(binding(), caller: .automation, confirmed: false), .allowed)
        XCTAssertEqual(rule(try policy(json).decide(binding(), caller: .automation, confirmed: false)), "policy.rateLimits.automation.x.y")
    }

    // MARK: - Config errors name the key

    func testConfigErrorsNameTheKey() {
        let cases = [
            (#"{"skills":{"a.b":{"agnet":false}}}"#, "policy.skills.a.b.agnet"),
            (#"{"skills":{"a.b":{"agent":"no"}}}"#, "policy.skills.a.b.agent"),
            (#"{"skills":{"a.b":{"intents":{"x.y":{"surfaces":["robot"]}}}}}"#, "policy.skills.a.b.intents.x.y.surfaces"),
            (#"{"agent":{"allowDestructive":"a.b"}}"#, "policy.agent.allowDestructive"),
            (#"{"rateLimits":{"agent":{"*":{"capacity":0,"refillPerSecond":1}}}}"#, "policy.rateLimits.agent.*"),
            (#"{"rateLimits":{"robots":{}}}"#, "policy.rateLimits.robots"),
            (#"{"audit":{"maxBytes":5}}"#, "policy.audit.maxBytes"),
            (#"{"limits":{}}"#, "policy.limits"),
        ]
        for (json, key) in cases {
            XCTAssertThrowsError(try policy(json), json) { e in
                XCTAssertTrue((e as? SkillError)?.message.contains("\"\(key)\"") == true, "\(json): \(e)")
            }
        }
    }

    // MARK: - Redaction

    /// `value` as the audit line writes an input under `schema` (`AuditLine.json`).
    func audited(_ value: JSON, _ schema: JSONSchema? = nil) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var l = AuditLine(in: buffer)
            l.json(value, redacting: schema)
            return l.finish { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) }
        }
    }

    func testSecretAndWriteOnlyFieldsAreRedactedAtAnyDepth() throws {
        let schema = try JSONSchema(try JSON.parse(#"""
            {"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string","secret":true},
             "auth":{"type":"object","properties":{"token":{"type":"string","writeOnly":true}}},
             "keys":{"type":"array","items":{"type":"object","properties":{"k":{"secret":true}}}}}}
            """#))
        let input = try JSON.parse(#"{"user":"ada","password":"hunter2","auth":{"token":"t0k"},"keys":[{"k":"s1"},{"k":"s2"}]}"#)
        XCTAssertEqual(audited(input, schema),
                       #"{"user":"ada","password":"[redacted]","auth":{"token":"[redacted]"},"keys":[{"k":"[redacted]"},{"k":"[redacted]"}]}"#)
    }

    /// The audit line's input: a schema with no secret anywhere writes the value as it is; one with a
    /// secret deep in a branch still redacts it; long strings are shortened, short ones kept.
    func testRedactionAndShorteningOnlyTouchWhatTheyMust() throws {
        let plain = try JSONSchema(try JSON.parse(#"{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}"#))
        let value = try JSON.parse(#"{"a":["x","y"],"b":{"c":1}}"#)
        XCTAssertFalse(plain.mayRedact)
        XCTAssertEqual(audited(value, plain), value.serialized)
        let branchy = try JSONSchema(try JSON.parse(#"{"type":"object","additionalProperties":{"anyOf":[{"type":"number"},{"type":"string","secret":true}]}}"#))
        XCTAssertEqual(audited(try JSON.parse(#"{"p":"s3cret"}"#), branchy), #"{"p":"[redacted]"}"#)
        XCTAssertEqual(audited(value), value.serialized)
        let long = String(repeating: "é", count: 200)
        let shortened = try JSON.parse(audited(.object(JSONObject([("k", .array([.string(long), .string("ok")]))]))))
        XCTAssertEqual(shortened["k"]?.arrayValue?[1], .string("ok"))
        XCTAssertEqual(shortened["k"]?.arrayValue?[0].stringValue?.hasSuffix("…, 400 bytes"), true)
    }
}
