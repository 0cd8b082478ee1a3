import Foundation
import XCTest

/// Issue 12, items 6–9: when the host cannot record what a guarantee needs (a full state folder, a
/// file where the folder should be, a damaged record), it refuses the call as `unavailable` naming the
/// folder and the reason, instead of running it unguarded; nothing is reset silently.
final class FailClosedStateTests: EndToEndTestCase {
    var stateDir: String { home + "/.local/state/skillhost" }

    /// Runs `skillhost` once per entry of `runs` with `$XDG_STATE_HOME` on a 64 KiB tmpfs filled to the
    /// last byte (a real ENOSPC), in a private mount namespace (`unshare -Urm`: works as root, as CI
    /// runs, and for a plain user where user namespaces are allowed). Returns each run's stdout line
    /// and exit code; skips (with the reason) where no namespace can be made.
    func withFullStateFolder(_ runs: [[String]]) throws -> [(stdout: String, exit: Int32)] {
        var script = """
            set -u
            mount -t tmpfs -o size=64k tmpfs "$XDG_STATE_HOME" || exit 97
            dd if=/dev/zero of="$XDG_STATE_HOME/filler" bs=4096 count=64 2>/dev/null
            [ "$(df --output=avail "$XDG_STATE_HOME" | tail -1 | tr -d ' ')" = 0 ] || exit 98

            """
        for args in runs {
            let quoted = ([E2E.skillhostPath] + args + ["--skills-dir", skills]).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            script += quoted.joined(separator: " ") + " 2>/dev/null; echo \"exit=$?\"\n"
        }
        let r = Run.program("/usr/bin/env", ["unshare", "-Urm", "sh", "-c", script], environment: environment, currentDirectory: work, timeout: 60)
        if r.exitCode == 97 || r.stderr.contains("unshare:") { throw XCTSkip("cannot mount a tmpfs in a private namespace here: \(r.stderr)") }
        XCTAssertNotEqual(r.exitCode, 98, "the tmpfs must be full: \(r.summary)")
        var out: [(String, Int32)] = []
        var last = ""
        for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("exit=") { out.append((last, Int32(line.dropFirst(5)) ?? -1)); last = "" } else if !line.isEmpty { last = String(line) }
        }
        XCTAssertEqual(out.count, runs.count, r.summary)
        return out
    }

    func assertRefusedUnavailable(_ run: (stdout: String, exit: Int32), naming: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(run.exit, 12, run.stdout, file: file, line: line)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout, file: file, line: line)
        let e = try XCTUnwrap(o["error"] as? [String: Any], run.stdout, file: file, line: line)
        XCTAssertEqual(e["kind"] as? String, "unavailable", run.stdout, file: file, line: line)
        let message = e["message"] as? String ?? ""
        for n in naming { XCTAssertTrue(message.contains(n), "the message should name \(n): \(message)", file: file, line: line) }
    }

    // MARK: - Item 6

    func testAFullStateFolderRefusesAnIdempotentRetryInsteadOfCreatingTwice() throws {
        try addBundledSkill("libReminderSkill.so")
        let call = ["invoke", "reminder.create", "--json", "--input", #"{"title":"buy milk"}"#, "--idempotency-key", "k-full"]
        let runs = try withFullStateFolder([call, call])
        for r in runs { try assertRefusedUnavailable(r, naming: ["idempotency", "k-full", "No space left on device", "state folder"]) }
        let list = invoke("reminder.list", "{}")
        let reminders = try ((assertInvokeOK(list, skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [Any]) ?? []
        XCTAssertEqual(reminders.count, 0, "no call ran unguarded: \(list.summary)")
    }

    func testAFullStateFolderRefusesRateLimitedCallsInsteadOfLettingAllThrough() throws {
        try addSkill("echo_c.so")
        try writeConfig(#"{"policy":{"rateLimits":{"automation":{"fixture.echo":{"capacity":2,"refillPerSecond":0.001}}}}}"#)
        let call = ["invoke", "fixture.echo", "--json", "--input", #"{"text":"hi"}"#]
        let runs = try withFullStateFolder(Array(repeating: call, count: 5))
        XCTAssertEqual(runs.filter { $0.exit == 0 }.count, 0, "no call may pass a limit that cannot be counted: \(runs)")
        for r in runs { try assertRefusedUnavailable(r, naming: ["policy.rateLimits.automation.fixture.echo", "ratelimits.json"]) }
    }

    func testAFullStateFolderRefusesCallsWhoseCrashesCouldNotCountTowardQuarantine() throws {
        try addSkill("segv_invoke.so")
        let call = ["invoke", "fixture.segv", "--json"]
        let runs = try withFullStateFolder(Array(repeating: call, count: 4))
        for r in runs { try assertRefusedUnavailable(r, naming: ["test.fixture.segv", "quarantine", "no space left", "state folder"]) }
    }

    func testAFileWhereTheStateFolderShouldBeRefusesCallsNamingIt() throws {
        try addSkill("segv_invoke.so")
        try FileManager.default.createDirectory(atPath: home + "/.local/state", withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: stateDir))
        for _ in 0..<4 {
            try assertInvokeError(invoke("fixture.segv"), kind: "unavailable", exitCode: 12, messageContains: [stateDir, "not a folder"])
        }
        try FileManager.default.removeItem(atPath: stateDir)
        try assertInvokeError(invoke("fixture.segv"), kind: "crashed", exitCode: 14)
    }

    // MARK: - Item 7

    func testATruncatedIdempotencyRecordIsInDoubtAndTheCallIsNotRepeated() throws {
        try addBundledSkill("libReminderSkill.so")
        let first = invoke("reminder.create", #"{"title":"pay rent"}"#, ["--idempotency-key", "rent"])
        XCTAssertEqual(first.exitCode, 0, first.summary)
        let records = try FileManager.default.contentsOfDirectory(atPath: stateDir + "/idempotency").filter { $0.hasSuffix(".json") }
        XCTAssertEqual(records.count, 1, "\(records)")
        let path = stateDir + "/idempotency/" + records[0]
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))  // a torn write

        try assertInvokeError(invoke("reminder.create", #"{"title":"pay rent"}"#, ["--idempotency-key", "rent"]),
                              kind: "unavailable", exitCode: 12, messageContains: ["idempotency key \"rent\"", "in doubt", path])
        let list = invoke("reminder.list", "{}")
        let reminders = try ((assertInvokeOK(list, skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [Any]) ?? []
        XCTAssertEqual(reminders.count, 1, "the write was not repeated: \(list.summary)")
    }

    // MARK: - Item 8

    func testADamagedHealthFileIsKeptAsideAndDoesNotLiftAQuarantine() throws {
        try addSkill("segv_invoke.so")
        try writeConfig(#"{"health":{"quarantineAfterCrashes":2}}"#)
        for _ in 0..<2 { try assertInvokeError(invoke("fixture.segv"), kind: "crashed", exitCode: 14) }
        try assertInvokeError(invoke("fixture.segv.ok"), kind: "unavailable", exitCode: 12, messageContains: ["quarantined"])

        let health = stateDir + "/health.json"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: health)))
        bytes[bytes.count / 2] ^= 0x5d  // one flipped byte: no longer JSON
        bytes.insert(0x7b, at: 1)
        try Data(bytes).write(to: URL(fileURLWithPath: health))

        let r = invoke("fixture.segv.ok")
        try assertInvokeError(r, kind: "unavailable", exitCode: 12, messageContains: ["quarantined", "health.json was damaged"])
        XCTAssertTrue(r.stderr.contains("health.json.corrupt-"), "said on stderr: \(r.summary)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: stateDir).filter { $0.hasPrefix("health.json.corrupt-") }
        XCTAssertEqual(kept.count, 1, "the damaged file is kept aside: \(kept)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stateDir + "/" + kept[0])), Data(bytes))

        let doctor = skillhost("doctor")
        XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
        XCTAssertTrue(doctor.stdout.contains(kept[0]) && doctor.stdout.contains("damaged"), doctor.summary)
        XCTAssertTrue(doctor.stdout.contains("test.fixture.segv is quarantined"), doctor.summary)

        XCTAssertEqual(skillhost("unblock", "test.fixture.segv").exitCode, 0)
        try assertInvokeOK(invoke("fixture.segv.ok"), skill: "test.fixture.segv")
    }

    /// A call whose audit line cannot be written is not made (the audit log is on by default).
    func testAnAuditLogThatCannotBeWrittenRefusesCalls() throws {
        try addSkill("echo_c.so")
        try FileManager.default.createDirectory(atPath: stateDir + "/audit.jsonl", withIntermediateDirectories: true)
        try assertInvokeError(invoke("fixture.echo", #"{"text":"x"}"#), kind: "unavailable", exitCode: 12,
                              messageContains: [stateDir + "/audit.jsonl", "audit log", "Is a directory"])
        // Once the log can be written, calls go through again; with the log turned off, none is refused.
        try FileManager.default.removeItem(atPath: stateDir + "/audit.jsonl")
        try assertInvokeOK(invoke("fixture.echo", #"{"text":"y"}"#), skill: "test.fixture.echo")
        try FileManager.default.removeItem(atPath: stateDir + "/audit.jsonl")
        try FileManager.default.createDirectory(atPath: stateDir + "/audit.jsonl", withIntermediateDirectories: true)
        try writeConfig(#"{"policy": {"audit": {"enabled": false}}}"#)
        try assertInvokeOK(invoke("fixture.echo", #"{"text":"z"}"#), skill: "test.fixture.echo")
    }

    func testAHealthFileThatCannotBeReadRefusesCalls() throws {
        try addSkill("echo_c.so")
        try FileManager.default.createDirectory(atPath: stateDir + "/health.json", withIntermediateDirectories: true)
        try assertInvokeError(invoke("fixture.echo", #"{"text":"x"}"#), kind: "unavailable", exitCode: 12,
                              messageContains: [stateDir + "/health.json", "Is a directory"])
    }

    // MARK: - Item 9

    func testATornAuditLineDoesNotSwallowTheNextOne() throws {
        try addSkill("echo_c.so")
        try assertInvokeOK(invoke("fixture.echo", #"{"text":"one"}"#), skill: "test.fixture.echo")
        let audit = stateDir + "/audit.jsonl"
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: audit))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"time":"2026-12-01T10:00:00Z","caller":"automation","intent":"fixture.ec"#.utf8))  // a short write
        try handle.close()
        try assertInvokeOK(invoke("fixture.echo", #"{"text":"two"}"#), skill: "test.fixture.echo")

        let lines = try String(contentsOfFile: audit, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, "the torn line stays on its own line: \(lines)")
        let parsed = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(parsed.count, 2, "both real lines parse; only the torn one does not: \(lines)")
        XCTAssertEqual(parsed.last?["outcome"] as? String, "ok")
        XCTAssertEqual((parsed.last?["input"] as? [String: Any])?["text"] as? String, "two")
    }
}
