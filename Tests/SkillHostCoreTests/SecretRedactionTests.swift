import XCTest
@testable import SkillHostCore

/// The one redaction rule (`SecretScope`) and its users: the audit line and the tree redaction the
/// `ask` traces use give the same result on the audit tests' cases; validation messages never quote
/// a secret; `SecretTexts` cuts known secrets out of free text; `TraceRedaction` leaves no secret in
/// any part of an agent response.
final class SecretRedactionTests: XCTestCase {
    func schema(_ text: String) throws -> JSONSchema { try JSONSchema(try JSON.parse(text)) }

    /// The audit tests' schema: secrets in properties, writeOnly, allOf / anyOf / oneOf branches,
    /// additionalProperties, items of arrays of objects and arrays of arrays.
    static let nested = #"""
        {"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string","secret":true},
         "auth":{"type":"object","properties":{"token":{"type":"string","writeOnly":true},"scheme":{"type":"string"}}},
         "keys":{"type":"array","items":{"type":"object","properties":{"k":{"secret":true},"label":{"type":"string"}}}},
         "headers":{"type":"object","additionalProperties":{"type":"string","writeOnly":true}},
         "plain":{"type":"array","items":{"type":"string"}},
         "deep":{"type":"object","properties":{"list":{"type":"array","items":{"type":"array","items":{"type":"string","secret":true}}}}}},
         "allOf":[{"properties":{"pin":{"type":"string","secret":true}}}],
         "anyOf":[{"properties":{"otp":{"type":"string","writeOnly":true}}},{"required":["user"]}],
         "oneOf":[{"properties":{"auth":{"properties":{"scheme":{"secret":true}}}}}]}
        """#
    static let input = #"""
        {"user":"ada","password":"hunter2","auth":{"token":"t0k","scheme":"basic"},
         "keys":[{"k":"s1","label":"one"},{"k":{"nested":"s2"},"label":"two"}],
         "headers":{"Authorization":"hdr","X":"y"},"plain":["p","q"],
         "deep":{"list":[["x1","x2"],[]]},"pin":"1234","otp":"999","extra":{"n":[1,2.5,-3,true,null],"s":"free"}}
        """#

    func audited(_ value: JSON, _ schema: JSONSchema?) -> String {
        String(decoding: AuditLine.text { $0.json(value, redacting: schema) }, as: UTF8.self)
    }

    func testTheAuditLineAndTheTreeRedactionAgreeAtEveryDepth() throws {
        let s = try schema(Self.nested), input = try JSON.parse(Self.input)
        var found: [String] = []
        let tree = SecretScope(s).redacting(input) { path, _ in found.append(path) }
        XCTAssertEqual(tree.serialized, audited(input, s))
        XCTAssertEqual(tree.serialized, #"{"user":"ada","password":"[redacted]","auth":{"token":"[redacted]","scheme":"[redacted]"},"#
                       + #""keys":[{"k":"[redacted]","label":"one"},{"k":"[redacted]","label":"two"}],"#
                       + #""headers":{"Authorization":"[redacted]","X":"[redacted]"},"plain":["p","q"],"#
                       + #""deep":{"list":[["[redacted]","[redacted]"],[]]},"pin":"[redacted]","otp":"[redacted]","extra":{"n":[1,2.5,-3,true,null],"s":"free"}}"#)
        XCTAssertEqual(found, ["password", "auth.token", "auth.scheme", "keys[0].k", "keys[1].k", "headers.Authorization", "headers.X",
                               "deep.list[0][0]", "deep.list[0][1]", "pin", "otp"])
        // Other schemas of the audit and policy tests, and none at all.
        for (schemaText, valueText) in [
            (#"{"type":"object","additionalProperties":{"anyOf":[{"type":"number"},{"type":"string","secret":true}]}}"#, #"{"p":"s3cret","q":[1]}"#),
            (#"{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}"#, #"{"a":["x","y"],"b":{"c":1}}"#),
            (#"{"type":"object","secret":true}"#, #"{"a":1}"#),
            (#"{"type":"object","properties":{"a":{"secret":true},"a":{"type":"string"}}}"#, #"{"a":"dup"}"#),
        ] {
            let s = try schema(schemaText), v = try JSON.parse(valueText)
            XCTAssertEqual(SecretScope(s).redacting(v).serialized, audited(v, s), schemaText)
        }
        XCTAssertEqual(SecretScope(nil).redacting(input), input)
    }

    func testAMemberIsSecretExactlyWhereItsOwnSchemaOrAnEnclosingOneIsMarked() throws {
        let s = try schema(#"{"type":"object","properties":{"a":{"secret":true},"b":{"writeOnly":true},"c":{"writeOnly":false},"d":{"properties":{"e":{"secret":true}}}}}"#)
        let scope = SecretScope(s)
        XCTAssertTrue(scope.member("a").isSecret)
        XCTAssertTrue(scope.member("b").isSecret)
        XCTAssertFalse(scope.member("c").isSecret, "writeOnly false marks nothing")
        XCTAssertFalse(scope.member("d").isSecret)
        XCTAssertTrue(scope.member("d").member("e").isSecret)
        XCTAssertFalse(scope.member("unknown").isSecret)
        XCTAssertTrue(s.mayRedact)
    }

    /// A value a schema marks secret is named by its type in a violation, wherever the mark is.
    func testValidationNeverQuotesASecret() throws {
        let s = try schema(#"""
            {"type":"object","properties":{"pin":{"type":"string","pattern":"^[0-9]+$","secret":true},"day":{"type":"string","format":"date"},
             "n":{"type":"integer","maximum":3},"codes":{"type":"array","items":{"type":"string","maxLength":2,"secret":true}},
             "alt":{"anyOf":[{"properties":{"t":{"secret":true}}}],"properties":{"t":{"type":"integer"}}}},
             "allOf":[{"properties":{"n":{"writeOnly":true}}}],
             "additionalProperties":{"type":"object","properties":{"k":{"enum":["a"],"secret":true}}}}
            """#)
        let input = try JSON.parse(#"{"pin":"hunter2","day":"2026-13-01","n":77,"codes":["ok","toolong"],"alt":{"t":"s3cret"},"more":{"k":"zzz"}}"#)
        let v = s.validate(input, limit: 20).map(\.description)
        XCTAssertEqual(v, [
            #"field "pin": expected a string matching ^[0-9]+$, found a secret string (not shown)"#,
            #"field "day": expected a date YYYY-MM-DD, found "2026-13-01""#,
            #"field "n": expected a number ≤ 3, found a secret number (not shown)"#,
            #"field "codes[1]": expected at most 2 characters, found 7"#,
            #"field "alt.t": expected an integer, found a secret string (not shown)"#,
            #"field "more.k": expected one of "a", found a secret string (not shown)"#,
        ])
        for secret in ["hunter2", "77", "toolong", "s3cret", "zzz"] {
            XCTAssertFalse(v.joined().contains(secret), "\(secret) is quoted: \(v)")
        }
    }

    func testKnownSecretsAreCutFromFreeTextLongestFirst() {
        let t = SecretTexts()
        t.learn(.string("act"))
        t.learn(["k": "hunter2", "list": ["hunter22", ""]])
        XCTAssertEqual(t.scrub("use hunter22 or hunter2, act now"), "use [redacted] or [redacted], [redacted] now")
        XCTAssertEqual(t.scrub("[redacted] stays whole"), "[redacted] stays whole")
        XCTAssertEqual(t.scrub(["hunter2": ["x hunter2 y", 2]] as JSON).serialized, #"{"[redacted]":["x [redacted] y",2]}"#)
        XCTAssertEqual(t.scrub(.executing(skill: "s", intent: "i", step: 1, total: 1, detail: "checking hunter2")).line, "executing i 1/1 (checking [redacted])")
    }

    /// A response with the secret everywhere a skill or a sentence can put it: nothing of it is left
    /// anywhere in the response's JSON (the trace), while what is not secret stays.
    func testAResponseKeepsNoSecretAnywhere() throws {
        let secret = "s3cr3t-XYZ"
        let entry = IntentCatalog.Entry(intent: "v.check", name: "v.check", skillID: "v", skillName: "V", description: "",
                                        keywords: [:], examples: [],
                                        inputSchema: try JSON.parse(#"{"type":"object","properties":{"token":{"type":"string","writeOnly":true},"day":{"type":"string"}}}"#),
                                        flags: [.readOnly], outputSchema: try JSON.parse(#"{"type":"object","properties":{"key":{"type":"string","secret":true}}}"#))
        let catalog = IntentCatalog(entries: [entry])
        // Typed in full-width forms: the recognizer read it normalized, so it is not in the sentence as such.
        let wide = String(String.UnicodeScalarView(secret.unicodeScalars.map { Unicode.Scalar($0.value + 0xFEE0)! }))
        let request = AgentRequest(text: "check \(wide) now", source: .terminal, caller: .human, timeZone: "UTC", now: 0)
        let input: JSONObject = JSONObject([(key: "token", value: .string(secret)), (key: "day", value: "2026-12-01")])
        let recognized = RecognizedIntent(intent: "v.check", skillID: "v", confidence: 1, clause: "check \(secret)", matched: [],
                                          parameters: input, missing: [], assumptions: ["token: \"\(secret)\" (agent.defaults)"])
        let step = PlanStep(id: 1, intent: "v.check", skillID: "v", input: input, dependsOn: [], feeds: [])
        var error = SkillError(.internal, "rejected \(secret)", hint: "try another than \(secret)")
        error.details = ["got": .string(secret)]
        let records = [
            StepRecord(step: step, input: input, status: .ok, result: ["key": "other-key", "echo": .string("token \(secret)"), "found": "fed-value-9"], message: "ok \(secret)",
                       skillID: "v", startMs: 0, endMs: 1, progress: [["message": .string("checking \(secret)")]], fallback: []),
            StepRecord(step: step, input: input, status: .error, error: error, skillID: "v", startMs: 0, endMs: 1, progress: [], fallback: []),
            // A value fed from the first step's result ("found": "fed-value-9") into a secret field.
            StepRecord(step: step, input: JSONObject([(key: "token", value: "fed-value-9")]), status: .ok, result: [:], skillID: "v",
                       startMs: 1, endMs: 2, progress: [], fallback: []),
        ]
        let channel = PhaseChannel()
        let redaction = TraceRedaction(catalog: catalog, texts: channel.secrets)
        let response = AgentResponse(request: request, recognition: Recognition(intents: [recognized], text: "check \"\(secret)\" for \(secret)"),
                                     plan: AgentPlan(steps: [step]), steps: records, answer: "token \(secret) is valid", status: "partial",
                                     phases: [PhaseEvent(phase: .failed(reason: "rejected \(secret)"), atMs: 1)],
                                     startedAt: "", durationMs: 1, traceID: nil, tracePath: nil)
        let redacted = redaction.redact(response)
        let text = redacted.json.serialized
        XCTAssertFalse(text.contains(secret), text)
        XCTAssertFalse(text.contains("other-key"), "an output field the output schema marks secret: \(text)")
        XCTAssertFalse(text.contains("fed-value-9"), "a value fed into a secret field is cut from the result it came from: \(text)")
        XCTAssertFalse(text.contains(wide), text)
        XCTAssertEqual(redacted.request.text, "[redacted]", "the secret is in the sentence only in another form: the whole sentence goes")
        XCTAssertEqual(redacted.steps[0].input["day"], "2026-12-01")
        XCTAssertEqual(redacted.steps[0].input["token"], "[redacted]")
        XCTAssertEqual(redacted.answer, "token [redacted] is valid")
        // Without the secret in another form, only the secret's text is cut from the sentence.
        XCTAssertEqual(redaction.scrubbedRequest("check \(secret) now"), "check [redacted] now")
    }
}
