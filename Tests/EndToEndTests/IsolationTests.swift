import Foundation
import XCTest

/// The fault suite, through the real `skillhost` binary: every skill runs in a worker process, and each
/// way a skill can fail becomes the right error kind and exit code within the deadline + 1 s, while the
/// other skills in the folder keep answering, the failed skill answers its next call (a new worker), and
/// no process is left behind once the command has exited.
final class IsolationTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try addSkill("echo_c.so")
    }

    override func tearDownWithError() throws {
        if !work.isEmpty { assertNoWorkersLeft() }
        try super.tearDownWithError()
    }

    /// Calls `intent` of fixture `file` (skill `id`), expects error `kind` / `exit` within the deadline
    /// + 1 s, then checks that the host goes on (echo answers), that the skill's next call works
    /// (`INTENT.ok`), and that no worker is left. Returns the error object.
    @discardableResult
    func assertFault(_ file: String, id: String, intent: String, kind: String, exit: Int32, timeoutMs: Int = 3000,
                     messageContains: [String], line: UInt = #line) throws -> [String: Any] {
        try addSkill(file)
        let r = invoke(intent, "{}", ["--timeout", String(timeoutMs)], timeout: Double(timeoutMs) / 1000 + 15)
        XCTAssertLessThan(r.elapsed, Double(timeoutMs) / 1000 + 1, "must answer within the deadline + 1 s: \(r.summary)", line: line)
        let e = try assertInvokeError(r, kind: kind, exitCode: exit, messageContains: messageContains, line: line)
        XCTAssertEqual(e["skill"] as? String, id, r.summary, line: line)
        XCTAssertEqual(r.stdout.filter { $0 == "\n" }.count, 1, "stdout is one JSON line: \(r.summary)", line: line)
        assertNoWorkersLeft(line: line)
        try assertEchoStillServes(line: line)
        let again = invoke(intent + ".ok", "{}")
        XCTAssertEqual(try assertInvokeOK(again, skill: id, line: line) as? [String: Bool], ["ok": true], again.summary, line: line)
        assertNoWorkersLeft(line: line)
        return e
    }

    // MARK: - Crashes

    func testSegfaultInInvokeIsCrashedNamingTheSignalAndTheSkillsLastStderrLine() throws {
        let e = try assertFault("segv_invoke.so", id: "test.fixture.segv", intent: "fixture.segv", kind: "crashed", exit: 14,
                                messageContains: ["SIGSEGV", "fixture.segv", "segv fixture: about to write through a NULL pointer"])
        XCTAssertTrue((e["hint"] as? String ?? "").contains("new worker"), "\(e)")
    }

    func testAbortIsCrashedNamingSIGABRT() throws {
        try assertFault("abort_invoke.so", id: "test.fixture.abort", intent: "fixture.abort", kind: "crashed", exit: 14,
                        messageContains: ["SIGABRT", "abort fixture: giving up with abort()"])
    }

    func testExitInTheMiddleOfACallIsCrashed() throws {
        try assertFault("exit_midcall.so", id: "test.fixture.exit", intent: "fixture.exit", kind: "crashed", exit: 14,
                        messageContains: ["exited with status 0", "in the middle of a call of fixture.exit"])
    }

    func testAllocatingUntilItDiesIsCrashedNamingTheMemoryLimit() throws {
        try writeConfig(#"{"workers": {"memoryLimitMB": 256}}"#)
        try assertFault("alloc_forever.so", id: "test.fixture.alloc", intent: "fixture.alloc", kind: "crashed", exit: 14,
                        messageContains: ["ran out of memory", "256 MB", "workers.memoryLimitMB"])
    }

    func testGarbageOnTheProtocolChannelIsInternal() throws {
        try assertFault("protocol_garbage.so", id: "test.fixture.garbage", intent: "fixture.garbage", kind: "internal", exit: 19,
                        messageContains: ["broke the host protocol", "4294967295"])
    }

    func testClosingTheChannelIsCrashedNamingTheDescriptor() throws {
        let e = try assertFault("close_channel.so", id: "test.fixture.closechannel", intent: "fixture.closechannel", kind: "crashed", exit: 14,
                                messageContains: ["lost its channel to the host during fixture.closechannel", "closed or replaced file descriptor 3"])
        XCTAssertTrue((e["hint"] as? String ?? "").contains("must not close file descriptors 3 and 4"), "\(e)")
    }

    /// /dev/null on fd 4 reads as an end-of-file: the worker must not take it for its host going away
    /// (and kill itself, blamed on "another process"), but name what the skill did.
    func testReplacingTheChannelIsCrashedNamingTheDescriptor() throws {
        try assertFault("close_channel.so", id: "test.fixture.closechannel", intent: "fixture.replacechannel", kind: "crashed", exit: 14,
                        messageContains: ["lost its channel to the host during fixture.replacechannel", "closed or replaced file descriptor 4"])
    }

    // MARK: - Hangs

    func testEndlessLoopIsTimeoutAndTheWorkerIsKilled() throws {
        try assertFault("loop_forever.so", id: "test.fixture.loop", intent: "fixture.loop", kind: "timeout", exit: 13, timeoutMs: 500,
                        messageContains: ["500 ms", "fixture.loop"])
    }

    func testSleepingPastTheDeadlineIsTimeout() throws {
        let e = try assertFault("sleep_past.so", id: "test.fixture.sleep", intent: "fixture.sleep", kind: "timeout", exit: 13, timeoutMs: 500,
                                messageContains: ["500 ms"])
        XCTAssertTrue((e["hint"] as? String ?? "").contains("SIGTERM"), "\(e)")
    }

    func testCPULimitEndsAnEndlessLoopBeforeALongDeadline() throws {
        try writeConfig(#"{"workers": {"cpuSecondsPerCall": 1}}"#)
        try assertFault("loop_forever.so", id: "test.fixture.loop", intent: "fixture.loop", kind: "crashed", exit: 14, timeoutMs: 8000,
                        messageContains: ["SIGXCPU", "1 CPU second ", "workers.cpuSecondsPerCall"])
    }

    // MARK: - Output and descriptors

    func testTenMebibytesOnStdoutStayOffTheHostsStdoutAndStderr() throws {
        try addSkill("stdout_flood.so")
        let r = invoke("fixture.flood", "{}", ["--timeout", "5000"])
        XCTAssertLessThan(r.elapsed, 6, r.summary)
        let result = try assertInvokeOK(r, skill: "test.fixture.flood")
        XCTAssertEqual((result as? [String: Any])?["bytes"] as? Int, 10 * 1024 * 1024)
        XCTAssertEqual(r.stdout.filter { $0 == "\n" }.count, 1, "stdout is one JSON line")
        XCTAssertFalse(r.stderr.contains("xxxxxxxx"), "at the default log level skill output is not shown: \(r.stderr.prefix(300))")
    }

    func testSkillOutputOnTheLogIsBoundedPerCall() throws {
        try addSkill("stdout_flood.so")
        extraEnvironment["SKILLHOST_LOG"] = "info"
        let r = invoke("fixture.flood", "{}", ["--timeout", "5000"])
        try assertInvokeOK(r, skill: "test.fixture.flood")
        XCTAssertTrue(r.stderr.contains("[test.fixture.flood] info: output: xxxxxxxx"), String(r.stderr.prefix(300)))
        XCTAssertTrue(r.stderr.contains("more output during this call; not shown"), String(r.stderr.suffix(300)))
        XCTAssertLessThan(r.stderr.utf8.count, 200_000, "at most 64 KiB of output per call reaches the log")
    }

    func testClosingStdoutAndStderrStillAnswers() throws {
        try addSkill("close_stdio.so")
        let r = invoke("fixture.closestdio")
        XCTAssertEqual(try assertInvokeOK(r, skill: "test.fixture.closestdio") as? [String: Bool], ["closed": true])
        try assertEchoStillServes()
    }

    func testAChildForkedBySkillCodeDoesNotOutliveTheHost() throws {
        try writeConfig(#"{"grants": {"test.fixture.fork": {"programs": true}}}"#)  // fork needs "programs"
        try addSkill("fork_child.so")
        let r = invoke("fixture.fork")
        let child = try XCTUnwrap((try assertInvokeOK(r, skill: "test.fixture.fork") as? [String: Any])?["child"] as? Int, r.summary)
        XCTAssertGreaterThan(child, 0)
        assertNoWorkersLeft()
        XCTAssertFalse(workerProcesses().contains { $0.pid == Int32(child) }, "the forked child (pid \(child)) must be gone")
    }

    // MARK: - Trusted skills, limits config

    func testEverySkillRunsInAWorkerUnlessTheConfigTrustsIt() throws {
        try addSkill("stdout_noise.so")
        let untrusted = try listAll().skills
        XCTAssertEqual(untrusted.compactMap { $0["isolation"] as? String }, ["process", "process"])
        let quiet = invoke("fixture.noise")
        try assertInvokeOK(quiet, skill: "test.fixture.stdoutnoise")
        XCTAssertFalse(quiet.stderr.contains("stdout noise from invoke"), "in a worker, output is the skill's log: \(quiet.summary)")

        try writeConfig(#"{"trusted": ["test.fixture.stdoutnoise"]}"#)
        let list = try listAll()
        XCTAssertEqual(list.skills.first("id", "test.fixture.stdoutnoise")?["isolation"] as? String, "in-process")
        XCTAssertEqual(list.skills.first("id", "test.fixture.echo")?["isolation"] as? String, "process")
        let text = skillhost("list")
        XCTAssertTrue(text.stdout.contains("in-process"), text.summary)
        // In-process, the host points the skill's fd 1 at its own stderr: the noise shows at once.
        let loud = invoke("fixture.noise")
        try assertInvokeOK(loud, skill: "test.fixture.stdoutnoise")
        XCTAssertTrue(loud.stderr.contains("stdout noise from invoke of fixture.noise"), loud.summary)
        XCTAssertEqual(loud.stdout.filter { $0 == "\n" }.count, 1, loud.summary)
    }

    func testTrustedMustBeAnArrayOfSkillIds() throws {
        try writeConfig(#"{"trusted": "test.fixture.echo"}"#)
        try assertInvokeError(invoke("fixture.echo", #"{"text":"x"}"#), kind: "invalid_input", exitCode: 10, messageContains: ["\"trusted\"", "array"])
    }

    func testWorkerLimitsMustBeNonNegativeIntegers() throws {
        try writeConfig(#"{"workers": {"memoryLimitMB": -1}}"#)
        try assertInvokeError(invoke("fixture.echo", #"{"text":"x"}"#), kind: "invalid_input", exitCode: 10, messageContains: ["workers.memoryLimitMB"])
    }

    // MARK: - The host goes away

    func testHostKilledWithSIGKILLDuringALongCallLeavesNoWorkerBehind() throws {
        try addSkill("sleep_past.so")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: E2E.skillhostPath)
        p.arguments = ["invoke", "fixture.sleep", "--timeout", "60000", "--json", "--skills-dir", skills]
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Wait for the worker to be serving the call (not the scan process, which names the folder too).
        func serving() -> [(pid: Int32, cmdline: String)] { workerProcesses().filter { $0.cmdline.contains(" serve ") } }
        let start = Date()
        while serving().isEmpty && Date().timeIntervalSince(start) < 10 { usleep(20_000) }
        let workers = serving()
        XCTAssertEqual(workers.count, 1, "one worker serves the call: \(workers)")
        usleep(100_000)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        // The worker sees its channel end and goes at once, although its skill is asleep in invoke().
        assertNoWorkersLeft(timeout: 2)
    }

    func testHealthProbesEachSkillThroughItsWorker() throws {
        try addSkill("segv_invoke.so")
        try addSkill("libUnitsSkill.so")
        let r = skillhost("health", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let entries = try r.listed("skills")
        XCTAssertEqual(entries.first("id", "dev.skillhost.units")?["message"] as? String, "19 units", r.summary)
        XCTAssertEqual(entries.first("id", "test.fixture.segv")?["health"] as? String, "ok", "it loads fine; only its invoke crashes")
    }
}
