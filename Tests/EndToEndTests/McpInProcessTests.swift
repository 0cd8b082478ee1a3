import Foundation
import XCTest

/// `skillhost mcp` with trusted (in-process) skills, where a `tools/call` runs on the thread that read
/// its line until it first waits (so a call that completes at once is answered with no thread
/// hand-off): slow calls still never hold up the reader, progress goes out before the response,
/// cancellation still ends a call, and a tool is found by its tool name or its intent's address.
final class McpInProcessTests: McpTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try addSkill("delay_queue.so")
        try addSkill("block_invoke.so")
        try writeConfig(#"{"trusted": ["test.fixture.echo", "test.fixture.slow", "test.fixture.progress", "test.fixture.delay", "test.fixture.destructive", "test.fixture.block"]}"#)
    }

    /// A trusted skill whose invoke() blocks for 3 s (Tests/Fixtures/block_invoke.c) holds the thread
    /// that read its call; another thread carries on reading after a moment, so `ping`, a call of
    /// another skill and a second blocking call are read and answered meanwhile, and both blocked
    /// calls complete.
    func testABlockingTrustedSkillDoesNotHoldUpTheStdioReader() throws {
        try start()
        let sent = Date()
        try server.send(["jsonrpc": "2.0", "id": "blocked-1", "method": "tools/call", "params": ["name": "fixture-block", "arguments": ["ms": 3000]]])
        usleep(150_000)
        try server.send(["jsonrpc": "2.0", "id": "blocked-2", "method": "tools/call", "params": ["name": "fixture-block", "arguments": ["ms": 3000]]])
        usleep(150_000)
        let asked = Date()
        try server.send(["jsonrpc": "2.0", "id": 2, "method": "ping"])
        XCTAssertNotNil(try server.response(2, timeout: 1)["result"], "ping is read while two calls block their threads")
        let quick = try call("fixture-echo", ["text": "meanwhile"], timeout: 1)
        XCTAssertEqual((quick["structuredContent"] as? [String: Any])?["text"] as? String, "meanwhile", "\(quick)")
        XCTAssertLessThan(Date().timeIntervalSince(asked), 1.0, "ping and a call of another skill answered within a second")
        XCTAssertNil(server.messages().first { ($0["id"] as? String)?.hasPrefix("blocked") == true }, "the blocked calls are still running")
        for id in ["blocked-1", "blocked-2"] {
            let r = try XCTUnwrap(try server.response(id, timeout: 10)["result"] as? [String: Any])
            XCTAssertEqual((r["structuredContent"] as? [String: Int])?["blockedMs"], 3000, "\(id): \(r)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(sent), 5.0, "the two blocked calls ran side by side, not one after the other")
        XCTAssertEqual(try call("fixture-echo", ["text": "after"])["isError"] as? Bool, false, "the reader that took over goes on")
    }

    func testAQuickCallAnswersWhileSixtyFourSlowInProcessCallsAreInFlight() throws {
        try start()
        for i in 0..<64 {
            try server.send(["jsonrpc": "2.0", "id": 5000 + i, "method": "tools/call",
                             "params": ["name": "fixture-delay", "arguments": ["ms": 3000]]])
        }
        usleep(200_000)
        let sent = Date()
        try server.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "fixture-echo", "arguments": ["text": "quick"]]])
        let quick = try XCTUnwrap(try server.response(1, timeout: 2.5)["result"] as? [String: Any])
        XCTAssertLessThan(Date().timeIntervalSince(sent), 2.5, "the quick call waits for no slow one")
        XCTAssertEqual((quick["structuredContent"] as? [String: Any])?["text"] as? String, "quick", "\(quick)")
        XCTAssertEqual(server.messages().filter { (($0["id"] as? Int) ?? 0) >= 5000 }.count, 0, "answered before any of the 3 s calls")
        for i in 0..<64 {
            let r = try XCTUnwrap(try server.response(5000 + i, timeout: 20)["result"] as? [String: Any])
            XCTAssertEqual((r["structuredContent"] as? [String: Int])?["sleptMs"], 3000, "\(r)")
        }
    }

    func testProgressGoesOutBeforeTheResponseOfACallAnsweredAtOnce() throws {
        try start()
        try server.send(["jsonrpc": "2.0", "id": 7, "method": "tools/call",
                         "params": ["name": "fixture-progress", "arguments": [:], "_meta": ["progressToken": "p"]]])
        _ = try server.response(7)
        let relevant = server.messages().filter { ($0["id"] as? Int) == 7 || $0["method"] as? String == "notifications/progress" }
        XCTAssertEqual(relevant.map { ($0["params"] as? [String: Any])?["progress"] as? Int }, [1, 2, 3, nil],
                       "three progress notifications, then the response: \(relevant)")
        XCTAssertEqual((relevant.last?["result"] as? [String: Any])?["isError"] as? Bool, false)
    }

    func testACancelledInProcessCallGetsNoResponseAndTheReaderGoesOn() throws {
        try start()
        try startAndCancelASlowCall("fixture-slow")
        let r = try call("fixture-echo", ["text": "after"])
        XCTAssertEqual((r["structuredContent"] as? [String: Any])?["text"] as? String, "after")
        XCTAssertNil(server.messages().first { ($0["id"] as? String) == "slow" }, "no response for a cancelled request")
    }

    /// A client that writes all its requests before it reads any answer (a script piping a file in)
    /// gets every answer: the reader, which answers in-process calls itself, never blocks on a full
    /// stdout, so it keeps reading requests (else both sides would wait on each other for ever).
    func testAClientThatReadsOnlyAfterWritingEverythingGetsEveryAnswer() throws {
        signal(SIGPIPE, SIG_IGN)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: E2E.skillhostPath)
        p.arguments = ["mcp", "--skills-dir", skills]
        p.environment = environment
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try p.run()
        let count = 1000
        let text = String(repeating: "x", count: 1000)
        var lines = #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"# + "\n"
        for i in 1...count {
            lines += #"{"jsonrpc":"2.0","id":\#(i),"method":"tools/call","params":{"name":"fixture-echo","arguments":{"text":"\#(text)"}}}"# + "\n"
        }
        let bytes = Data(lines.utf8)
        let written = DispatchSemaphore(value: 0)
        Thread {
            try? input.fileHandleForWriting.write(contentsOf: bytes)
            written.signal()
        }.start()
        let finished = written.wait(timeout: .now() + 60) == .success
        XCTAssertTrue(finished, "the server stopped reading requests while its answers went unread")
        if !finished { p.terminate() }
        var received = Data()
        var newlines = 0
        let end = Date().addingTimeInterval(60)
        while newlines < count + 1 && Date() < end {
            let d = output.fileHandleForReading.availableData
            if d.isEmpty { break }
            received += d
            newlines += d.withUnsafeBytes { $0.reduce(0) { $0 + ($1 == 0x0a ? 1 : 0) } }
        }
        try? input.fileHandleForWriting.close()
        p.waitUntilExit()
        let answers = String(decoding: received, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(answers.count, count + 1, "every request answered, one whole line each")
        XCTAssertEqual(answers.filter { $0.contains(#""structuredContent":{"text":"\#(text)"}"#) }.count, count)
    }

    /// The catalog resolves a name once per call, by tool name or intent address; an intent served but
    /// not offered (destructive) still reaches the core, which denies it; a name nobody serves is a
    /// protocol error.
    func testToolsAreFoundByToolNameOrIntentAddress() throws {
        try start()
        for name in ["fixture-echo", "fixture.echo"] {
            let r = try call(name, ["text": name])
            XCTAssertEqual((r["structuredContent"] as? [String: Any])?["text"] as? String, name, "\(name): \(r)")
        }
        for name in ["fixture-wipe", "fixture.wipe"] {
            let r = try call(name, ["target": "x"])
            XCTAssertEqual(r["isError"] as? Bool, true, "\(name): \(r)")
            let meta = (r["_meta"] as? [String: Any])?["dev.skillhost/error"] as? [String: Any]
            XCTAssertEqual(meta?["kind"] as? String, "denied", "\(name): the policy's answer, not a protocol error: \(r)")
        }
        for (id, name) in [(61, "fixture-nothing"), (62, "fixture.nothing"), (63, "fixture-echo--v2")] {
            try server.send(["jsonrpc": "2.0", "id": id, "method": "tools/call", "params": ["name": name, "arguments": [:]]])
            XCTAssertEqual(error(try server.response(id))?.code, -32602, name)
        }
    }

    /// A cancelled call of a trusted skill that never completes, whose deadline passes inside the
    /// grace period: the grace timer then finds the call already given up and must return at once —
    /// it waited forever for a completion before, on the one timer thread, so no later deadline fired.
    func testACancelledCallThatNeverCompletesLeavesTheTimersRunning() throws {
        try addSkill("never_completes.so")
        try writeConfig(#"{"invokeTimeoutMs": 300, "trusted": ["test.fixture.nevercompletes"]}"#)
        try start()
        try server.send(["jsonrpc": "2.0", "id": "never-1", "method": "tools/call", "params": ["name": "fixture-never", "arguments": [:]]])
        usleep(50_000)
        try server.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": "never-1", "reason": "test"]])
        usleep(800_000)  // the deadline (300 ms) and the grace period (500 ms) have both passed
        let asked = Date()
        let second = try call("fixture-never", [:], timeout: 5)
        XCTAssertEqual(second["isError"] as? Bool, true, "\(second)")
        XCTAssertTrue("\(second)".contains("timeout"), "the second call ends at its own deadline: \(second)")
        XCTAssertLessThan(Date().timeIntervalSince(asked), 2.0)
    }
}
