import Foundation
import XCTest

/// Ctrl-C during `skillhost invoke` cancels the call: the skill is told (is_cancelled), gets a grace
/// period (500 ms) to complete with SKH_STATUS_CANCELLED, and otherwise its worker is stopped; the
/// command exits with the `cancelled` code (18) and leaves no process behind.
final class CancellationTests: EndToEndTestCase {
    /// Starts `skillhost invoke …`, sends SIGINT after `after` seconds, and returns exit code, stdout
    /// and the seconds from the interrupt to the exit.
    func interruptedInvoke(_ intent: String, _ input: String, after: TimeInterval = 0.4) throws
        -> (code: Int32, stdout: String, secondsAfterInterrupt: TimeInterval) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: E2E.skillhostPath)
        p.arguments = ["invoke", intent, "--input", input, "--json", "--timeout", "20000", "--skills-dir", skills]
        p.environment = environment
        p.currentDirectoryURL = URL(fileURLWithPath: work)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: after)
        let interrupted = Date()
        p.interrupt()
        let deadline = Date().addingTimeInterval(10)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL); XCTFail("skillhost did not exit after SIGINT") }
        p.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (p.terminationStatus, text, Date().timeIntervalSince(interrupted))
    }

    func error(_ stdout: String) throws -> [String: Any] {
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], stdout)
        XCTAssertEqual(o["ok"] as? Bool, false)
        return try XCTUnwrap(o["error"] as? [String: Any], stdout)
    }

    func testInterruptCancelsACooperativeSkillWhichStopsAtOnce() throws {
        try addSkill("slow.so")
        let r = try interruptedInvoke("fixture.slow", #"{"ms":10000}"#)
        XCTAssertEqual(r.code, 18, r.stdout)
        XCTAssertEqual(try error(r.stdout)["kind"] as? String, "cancelled")
        XCTAssertLessThan(r.secondsAfterInterrupt, 0.45, "the skill checks is_cancelled every 10 ms: no grace period needed")
        assertNoWorkersLeft()
    }

    func testInterruptStopsTheWorkerOfASkillThatIgnoresCancellation() throws {
        try addSkill("loop_forever.so")
        try addSkill("echo_c.so")
        let r = try interruptedInvoke("fixture.loop", "{}")
        XCTAssertEqual(r.code, 18, r.stdout)
        let e = try error(r.stdout)
        XCTAssertEqual(e["kind"] as? String, "cancelled")
        XCTAssertTrue((e["message"] as? String ?? "").contains("did not stop within 500 ms"), "\(e)")
        XCTAssertLessThan(r.secondsAfterInterrupt, 1.5)
        assertNoWorkersLeft()
        try assertEchoStillServes()
    }

    func testInterruptCancelsATrustedInProcessSkill() throws {
        try addSkill("slow.so")
        try writeConfig(#"{"trusted":["test.fixture.slow"]}"#)
        let r = try interruptedInvoke("fixture.slow", #"{"ms":10000}"#)
        XCTAssertEqual(r.code, 18, r.stdout)
        XCTAssertEqual(try error(r.stdout)["kind"] as? String, "cancelled")
        XCTAssertLessThan(r.secondsAfterInterrupt, 0.45)
    }

    /// A trusted skill that never completes: after the grace period the host stops waiting (and the
    /// call's later abandon, when the wait ends, finds it already given up: it must not wait for a
    /// completion that will never come — it spun forever on a thread before).
    func testInterruptOfATrustedSkillThatNeverCompletesEndsAfterTheGracePeriod() throws {
        try addSkill("never_completes.so")
        try writeConfig(#"{"trusted":["test.fixture.nevercompletes"]}"#)
        let r = try interruptedInvoke("fixture.never", "{}")
        XCTAssertEqual(r.code, 18, r.stdout)
        let e = try error(r.stdout)
        XCTAssertEqual(e["kind"] as? String, "cancelled")
        XCTAssertTrue((e["message"] as? String ?? "").contains("so the host stopped waiting for it"), "\(e)")
        XCTAssertLessThan(r.secondsAfterInterrupt, 1.5)
    }
}
