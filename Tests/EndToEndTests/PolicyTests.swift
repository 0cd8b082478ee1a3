import Foundation
import XCTest

/// Policy through the real CLI: destructive intents need --yes from automation, rate limits across
/// separate invocations, denials naming the rule (exit 15), and the audit log with redacted secrets.
final class PolicyEndToEndTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try addSkill("echo_c.so")
        try addSkill("destructive.so")
    }

    var auditPath: String { home + "/.local/state/skillhost/audit.jsonl" }

    func auditLines() throws -> [[String: Any]] {
        let text = (try? String(contentsOfFile: auditPath, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func testDestructiveIntentNeedsYesFromAutomation() throws {
        let input = #"{"target":"db","password":"hunter2","token":"t0k"}"#
        let e = try assertInvokeError(invoke("fixture.wipe", input), kind: "denied", exitCode: 15, messageContains: ["destructive", "--yes"])
        XCTAssertEqual(e["rule"] as? String, "destructive.yes")
        let ok = try assertInvokeOK(invoke("fixture.wipe", input, ["--yes"]), skill: "test.fixture.destructive")
        XCTAssertEqual((ok as? [String: Any])?["wiped"] as? Bool, true)

        let lines = try auditLines()
        XCTAssertEqual(lines.count, 2, "one audit line per call: \(lines)")
        XCTAssertEqual(lines[0]["decision"] as? String, "denied")
        XCTAssertEqual(lines[0]["rule"] as? String, "destructive.yes")
        XCTAssertEqual(lines[0]["outcome"] as? String, "denied")
        XCTAssertEqual(lines[1]["decision"] as? String, "confirmed")
        XCTAssertEqual(lines[1]["outcome"] as? String, "ok")
        for l in lines {
            XCTAssertEqual(l["caller"] as? String, "automation")
            XCTAssertEqual(l["intent"] as? String, "fixture.wipe")
            XCTAssertEqual(l["skill"] as? String, "test.fixture.destructive")
            XCTAssertEqual(l["version"] as? String, "1.0.0")
            XCTAssertNotNil(number(l["durationMs"]))
            XCTAssertNotNil(l["time"] as? String)
            XCTAssertEqual(l["input"] as? [String: String], ["target": "db", "password": "[redacted]", "token": "[redacted]"])
        }
        let raw = try String(contentsOfFile: auditPath, encoding: .utf8)
        XCTAssertFalse(raw.contains("hunter2") || raw.contains("t0k"), "secrets never reach the audit log: \(raw)")
    }

    /// Runs `skillhost ARGS` on a pseudo-terminal (a person at a terminal), answers `answer` to the
    /// confirmation prompt, and returns the exit code and everything the terminal showed.
    func onTerminal(_ args: [String], answer: String) throws -> (code: Int32, screen: String) {
        let script = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            out, asked = b"", False
            while True:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
                if not asked and b"[y/N]" in out:
                    os.write(fd, os.environ["ANSWER"].encode() + b"\\n")
                    asked = True
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(out.decode("utf-8", "replace"))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        extraEnvironment["ANSWER"] = answer
        let r = Run.program("/usr/bin/env", ["python3", "-c", script, E2E.skillhostPath] + args + ["--skills-dir", skills],
                            environment: environment, currentDirectory: work)
        return (r.exitCode, r.stdout + r.stderr)
    }

    func testAPersonAtATerminalIsAskedToConfirmOnTheTerminal() throws {
        let yes = try onTerminal(["invoke", "fixture.wipe", "--input", #"{"target":"db"}"#], answer: "y")
        XCTAssertTrue(yes.screen.contains("Run destructive intent fixture.wipe of skill test.fixture.destructive? [y/N]"), yes.screen)
        XCTAssertEqual(yes.code, 0, yes.screen)
        XCTAssertTrue(yes.screen.contains("wiped"), yes.screen)
        let no = try onTerminal(["invoke", "fixture.wipe", "--input", #"{"target":"db"}"#], answer: "n")
        XCTAssertEqual(no.code, 15, no.screen)
        XCTAssertTrue(no.screen.contains("destructive"), no.screen)
        let decisions = try auditLines().map { ($0["caller"] as? String ?? "", $0["decision"] as? String ?? "") }
        XCTAssertEqual(decisions.map(\.0), ["human", "human", "human"])
        XCTAssertEqual(decisions.map(\.1), ["denied", "confirmed", "denied"], "a refusal at the prompt is not asked again")
    }

    /// `ask` goes through the same policy: a destructive step the engine plans is run only after the
    /// person says yes at the terminal; from a script (no terminal) it is refused.
    func testAskConfirmsADestructiveStepOnTheTerminal() throws {
        let yes = try onTerminal(["ask", "wipe the cache"], answer: "y")
        XCTAssertTrue(yes.screen.contains("Run destructive intent fixture.wipe of skill test.fixture.destructive? [y/N]"), yes.screen)
        XCTAssertEqual(yes.code, 0, yes.screen)
        XCTAssertTrue(yes.screen.contains("wiped"), yes.screen)
        let no = try onTerminal(["ask", "wipe the cache"], answer: "n")
        XCTAssertEqual(no.code, 15, no.screen)
        let script = skillhost(["ask", "wipe the cache", "--json"])
        XCTAssertEqual(script.exitCode, 15, script.summary)
        let step = ((try script.jsonObject()["steps"] as? [[String: Any]])?.first)
        XCTAssertEqual((step?["input"] as? [String: Any])?["target"] as? String, "the cache", "the one free-text field gets the subject")
        XCTAssertEqual((step?["error"] as? [String: Any])?["kind"] as? String, "denied")
        let decisions = try auditLines().map { ($0["caller"] as? String ?? "", $0["decision"] as? String ?? "") }
        XCTAssertEqual(decisions.map(\.1), ["denied", "confirmed", "denied", "denied"])
    }

    func testRateLimitHoldsAcrossInvocationsAndNamesTheRule() throws {
        try writeConfig(#"{"policy":{"rateLimits":{"automation":{"fixture.echo":{"capacity":2,"refillPerSecond":0.05}}}}}"#)
        try assertInvokeOK(invoke("fixture.echo", #"{"text":"1"}"#), skill: "test.fixture.echo")
        try assertInvokeOK(invoke("fixture.echo", #"{"text":"2"}"#), skill: "test.fixture.echo")
        let e = try assertInvokeError(invoke("fixture.echo", #"{"text":"3"}"#), kind: "denied", exitCode: 15,
                                      messageContains: ["policy.rateLimits.automation.fixture.echo", "retry after"])
        XCTAssertEqual(e["rule"] as? String, "policy.rateLimits.automation.fixture.echo")
        XCTAssertGreaterThan(number(e["retryAfterSeconds"]) ?? 0, 1)
        let last = try XCTUnwrap(try auditLines().last)
        XCTAssertEqual(last["decision"] as? String, "denied")
        XCTAssertEqual(last["rule"] as? String, "policy.rateLimits.automation.fixture.echo")
    }

    func testConfigNarrowingDeniesNamingTheConfigKey() throws {
        try writeConfig(#"{"policy":{"skills":{"test.fixture.echo":{"automation":false}}}}"#)
        let e = try assertInvokeError(invoke("fixture.echo", #"{"text":"x"}"#), kind: "denied", exitCode: 15,
                                      messageContains: ["policy.skills.test.fixture.echo.automation"])
        XCTAssertEqual(e["rule"] as? String, "policy.skills.test.fixture.echo.automation")
    }

    func testBadPolicyConfigIsAnErrorNamingTheKey() throws {
        try writeConfig(#"{"policy":{"rateLimits":{"agent":{"*":{"capacity":"lots","refillPerSecond":1}}}}}"#)
        try assertInvokeError(invoke("fixture.echo", #"{"text":"x"}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["policy.rateLimits.agent.*"])
    }

    func testAuditLogRotatesAtItsSize() throws {
        try writeConfig(#"{"policy":{"audit":{"maxBytes":1024,"keep":2}}}"#)
        for i in 0..<12 { try assertInvokeOK(invoke("fixture.echo", #"{"text":"call \#(i) \#(String(repeating: "x", count: 100))"}"#), skill: "test.fixture.echo") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: auditPath + ".1"), "rotated")
        XCTAssertTrue(FileManager.default.fileExists(atPath: auditPath + ".2"), "rotated more than once: the files shift up to `keep`")
        XCTAssertFalse(FileManager.default.fileExists(atPath: auditPath + ".3"), "only `keep` rotated files")
        let size = (try FileManager.default.attributesOfItem(atPath: auditPath)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertLessThan(size, 1024 + 400)
    }
}
