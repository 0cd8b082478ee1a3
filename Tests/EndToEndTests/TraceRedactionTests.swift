import Foundation
import XCTest

/// A secret a person types into `skillhost ask` (bound to a field its skill's schema marks
/// `"writeOnly": true`) never reaches a trace, `ask --json`, `traces`, `replay` or MCP's
/// `skillhost_ask` in clear text, while the fields that are not secret are still recorded; a replay
/// does not re-send it (nor "[redacted]" in its place). The skill (agent_vault.c) echoes the token in
/// its progress, result and message on purpose.
final class TraceRedactionTests: EndToEndTestCase {
    static let secret = "s3cr3t-Tok3n-XYZ"
    static let sentence = "check the token \"\(secret)\" in the vault for tomorrow"

    var stateFolder: String { home + "/.local/state" }

    func ask(_ extra: [String]) -> CommandResult {
        skillhost(["ask", Self.sentence, "--now", "2026-11-30T08:00:00+08:00", "--time-zone", "Asia/Shanghai"] + extra, timeout: 60)
    }

    func assertNoSecret(_ r: CommandResult, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(r.stdout.contains(Self.secret) || r.stderr.contains(Self.secret), "\(what) shows the secret: \(r.summary)", file: file, line: line)
    }

    func testASecretTypedIntoAskIsRedactedInTheTraceAndEveryOutputAndReplayDoesNotResendIt() throws {
        try addSkill("agent_vault.so")
        let r = ask(["--json"])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        assertNoSecret(r, "ask --json")
        let o = try r.jsonObject()
        XCTAssertEqual(o["status"] as? String, "answered", r.stdout)
        let intent = try XCTUnwrap((o["intents"] as? [[String: Any]])?.first)
        XCTAssertEqual(intent["intent"] as? String, "fixture.vault.check")
        let parameters = intent["parameters"] as? [String: Any]
        XCTAssertEqual(parameters?["token"] as? String, "[redacted]")
        XCTAssertEqual(parameters?["day"] as? String, "2026-12-01", "a field that is not secret is recorded as it was")
        let step = try XCTUnwrap((o["steps"] as? [[String: Any]])?.first)
        XCTAssertEqual(step["status"] as? String, "ok", "the skill got the real token (its pattern accepted it)")
        XCTAssertEqual((step["input"] as? [String: Any])?["token"] as? String, "[redacted]")
        XCTAssertEqual((step["input"] as? [String: Any])?["day"] as? String, "2026-12-01")
        let output = step["output"] as? [String: Any]
        XCTAssertEqual(output?["token"] as? String, "[redacted]", "the skill echoed the token in its result: cut as a known secret")
        XCTAssertEqual(output?["valid"] as? Bool, true)
        XCTAssertEqual(output?["day"] as? String, "2026-12-01")
        XCTAssertEqual(((step["progress"] as? [[String: Any]])?.first)?["message"] as? String, "checking [redacted]")
        XCTAssertEqual(o["answer"] as? String, "token [redacted] is valid")
        XCTAssertEqual((o["request"] as? [String: Any])?["text"] as? String, "check the token \"[redacted]\" in the vault for tomorrow")

        // Nowhere on disk: the trace, the audit log, anything else in the state folder.
        let trace = try XCTUnwrap(o["trace"] as? String)
        XCTAssertTrue(trace.hasPrefix(stateFolder + "/skillhost/traces/"), trace)
        XCTAssertTrue(FileManager.default.fileExists(atPath: trace))
        XCTAssertEqual(files(under: stateFolder, containing: Self.secret), [], "files holding the secret")
        XCTAssertFalse(files(under: stateFolder + "/skillhost/traces", containing: "2026-12-01").isEmpty, "the trace keeps what is not secret")

        // The plain answer and the trace listings.
        let plain = ask([])
        XCTAssertEqual(plain.exitCode, 0, plain.summary)
        assertNoSecret(plain, "ask")
        XCTAssertTrue(plain.stdout.contains("token [redacted] is valid"), plain.stdout)
        let list = skillhost(["traces"])
        XCTAssertEqual(list.exitCode, 0, list.summary)
        assertNoSecret(list, "traces")
        let rows = try skillhost(["traces", "--json"]).listed("traces")
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows.first?["text"] as? String, "check the token \"[redacted]\" in the vault for tomorrow")
        XCTAssertEqual(files(under: stateFolder, containing: Self.secret), [])

        // Replay: the step needs the token, which the trace does not keep — planned and compared
        // (redacted to redacted), not run; never the marker sent in its place. Same as recorded.
        let audit = stateFolder + "/skillhost/audit.jsonl"
        let callsBefore = try String(contentsOfFile: audit, encoding: .utf8).components(separatedBy: "fixture.vault.check").count
        let replay = skillhost(["replay", trace, "--check"], timeout: 60)
        XCTAssertEqual(replay.exitCode, 0, replay.summary)
        assertNoSecret(replay, "replay")
        XCTAssertTrue(replay.stdout.contains("same as recorded"), replay.stdout)
        XCTAssertTrue(replay.stdout.contains("\"token\"") && replay.stdout.contains("skillhost ask"), "the answer says why the step did not run: \(replay.stdout)")
        for extra in [["--json"], ["--json", "--include-writes"]] {
            let j = skillhost(["replay", trace] + extra, timeout: 60)
            XCTAssertEqual(j.exitCode, 0, j.summary)
            assertNoSecret(j, "replay \(extra)")
            let jo = try j.jsonObject()
            XCTAssertEqual(jo["same"] as? Bool, true, j.stdout)
            let replayed = try XCTUnwrap(((jo["replayed"] as? [String: Any])?["steps"] as? [[String: Any]])?.first)
            XCTAssertEqual(replayed["status"] as? String, "skipped")
            XCTAssertEqual(replayed["skipped"] as? String,
                           "not re-run in a replay: its input needs a secret (\"token\") and traces keep none; run the request again with `skillhost ask` to call it")
        }
        let callsAfter = try String(contentsOfFile: audit, encoding: .utf8).components(separatedBy: "fixture.vault.check").count
        XCTAssertEqual(callsAfter, callsBefore, "no replay called the skill")
        XCTAssertEqual(files(under: stateFolder, containing: Self.secret), [])

        // A trace that holds the secret in clear text (written before traces were redacted): `traces`
        // and `replay` redact it as they read it, under the schemas served now.
        let clear = try String(contentsOfFile: trace, encoding: .utf8).replacingOccurrences(of: "[redacted]", with: Self.secret)
        let old = stateFolder + "/skillhost/traces/20261101T000000Z-000001.json"
        try Data(clear.utf8).write(to: URL(fileURLWithPath: old))
        for r in [skillhost(["traces"]), skillhost(["traces", "--json"]), skillhost(["replay", old], timeout: 60), skillhost(["replay", old, "--json"], timeout: 60)] {
            XCTAssertEqual(r.exitCode, 0, r.summary)
            assertNoSecret(r, "reading a trace written in clear")
        }
        let oldReplay = try skillhost(["replay", old, "--json"], timeout: 60).jsonObject()
        XCTAssertEqual(oldReplay["same"] as? Bool, true, "\(oldReplay)")
    }

    /// Validation never quotes a secret back: not in `invoke`'s error, not in an `ask` step's error.
    func testAnInvalidSecretIsNotQuotedInTheErrorMessage() throws {
        try addSkill("agent_vault.so")
        let bad = "bad token!"
        let r = invoke("fixture.vault.check", #"{"token":"bad token!","day":"2026-13-01"}"#)
        XCTAssertEqual(r.exitCode, 10, r.summary)
        let e = try XCTUnwrap(try r.jsonObject()["error"] as? [String: Any])
        XCTAssertEqual(e["kind"] as? String, "invalid_input")
        let message = e["message"] as? String ?? ""
        XCTAssertFalse(message.contains(bad), message)
        XCTAssertTrue(message.contains("field \"token\": expected a string matching ^[A-Za-z0-9-]+$, found a secret string (not shown)"), message)
        XCTAssertTrue(message.contains("\"2026-13-01\""), "a field that is not secret is still quoted: \(message)")
        XCTAssertEqual(files(under: stateFolder, containing: bad), [])
    }
}

/// The agent engine as MCP's `skillhost_ask` tool: neither its result nor its progress notifications
/// carry a secret the agent handed over in the sentence.
final class McpAskRedactionTests: McpTestCase {
    func testSkillhostAskNeverReturnsTheSecret() throws {
        try addSkill("agent_vault.so")
        try start()
        let secret = TraceRedactionTests.secret
        try server.send(["jsonrpc": "2.0", "id": 7, "method": "tools/call",
                         "params": ["name": "skillhost_ask", "arguments": ["text": TraceRedactionTests.sentence],
                                    "_meta": ["progressToken": "ask-1"]]])
        let result = try XCTUnwrap(try server.response(7, timeout: 60)["result"] as? [String: Any])
        let structured = try XCTUnwrap(result["structuredContent"] as? [String: Any])
        XCTAssertEqual(structured["status"] as? String, "answered", "\(structured)")
        let step = (structured["steps"] as? [[String: Any]])?.first
        XCTAssertEqual((step?["output"] as? [String: Any])?["token"] as? String, "[redacted]")
        let parameters = ((structured["intents"] as? [[String: Any]])?.first)?["parameters"] as? [String: Any]
        XCTAssertEqual(parameters?["token"] as? String, "[redacted]")
        let messages = server.messages()
        XCTAssertTrue(messages.contains { $0["method"] as? String == "notifications/progress" }, "progress was sent")
        let everything = try messages.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        XCTAssertFalse(everything.contains { $0.contains(secret) }, "a message carries the secret: \(everything)")
        XCTAssertEqual(files(under: home + "/.local/state", containing: secret), [])
    }
}

/// Every file under `folder` whose bytes contain `needle`.
private func files(under folder: String, containing needle: String) -> [String] {
    let e = FileManager.default.enumerator(atPath: folder)
    var hits: [String] = []
    while let name = e?.nextObject() as? String {
        if let data = FileManager.default.contents(atPath: folder + "/" + name), data.range(of: Data(needle.utf8)) != nil { hits.append(name) }
    }
    return hits
}
