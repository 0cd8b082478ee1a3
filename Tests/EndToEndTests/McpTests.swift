import Foundation
import XCTest

/// A running `skillhost mcp` with its stdin and a line reader on its stdout.
final class McpServerProcess: @unchecked Sendable {
    let process = Process()
    let input = Pipe(), output = Pipe(), errors = Pipe()
    private let lock = NSCondition()
    private var lines: [String] = []
    private var ended = false

    init(_ executable: String, _ args: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let handle = output.fileHandleForReading
        Thread { [self] in
            var pending: [UInt8] = []
            while true {
                let d = handle.availableData
                if d.isEmpty { break }
                // Look for newlines in the new bytes only: a line of megabytes arrives in many chunks.
                for byte in d {
                    if byte != 0x0a { pending.append(byte); continue }
                    let line = String(decoding: pending, as: UTF8.self)
                    pending.removeAll(keepingCapacity: true)
                    lock.lock(); lines.append(line); lock.broadcast(); lock.unlock()
                }
            }
            lock.lock(); ended = true; lock.broadcast(); lock.unlock()
        }.start()
        Thread { [errors] in _ = errors.fileHandleForReading.readDataToEndOfFile() }.start()
    }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    func send(_ object: [String: Any]) throws {
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: object) + Data("\n".utf8))
    }

    /// Every line received so far, parsed (a line that is not a JSON object fails the test).
    func messages(file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        lock.lock(); defer { lock.unlock() }
        return lines.compactMap { l in
            guard let o = (try? JSONSerialization.jsonObject(with: Data(l.utf8))) as? [String: Any] else {
                XCTFail("stdout carried a line that is not a JSON-RPC message: \(l)", file: file, line: line)
                return nil
            }
            return o
        }
    }

    /// Waits for the first message matching `match`.
    func wait(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
              _ match: ([String: Any]) -> Bool) throws -> [String: Any] {
        let end = Date().addingTimeInterval(timeout)
        while true {
            if let m = messages(file: file, line: line).first(where: match) { return m }
            lock.lock()
            let done = ended
            if !done { _ = lock.wait(until: min(end, Date().addingTimeInterval(0.05))) }
            lock.unlock()
            if done || Date() > end {
                XCTFail("no matching message within \(timeout) s; got \(messages())", file: file, line: line)
                throw HarnessError("timeout")
            }
        }
    }

    func response(_ id: Any, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try wait(timeout: timeout, file: file, line: line) { m in
            m["method"] == nil && (m["id"] as? NSObject)?.isEqual(id) == true
        }
    }

    func close() { try? input.fileHandleForWriting.close() }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// Starts `skillhost mcp` on the test's skill folder, with helpers for its answers.
class McpTestCase: EndToEndTestCase {
    var server: McpServerProcess!

    override func setUpWithError() throws {
        try super.setUpWithError()
        for f in ["echo_c.so", "slow.so", "progress.so", "stdout_noise.so", "destructive.so"] { try addSkill(f) }
    }

    override func tearDownWithError() throws {
        server?.close()
        if let p = server?.process { p.waitUntilExit() }
        server = nil
        try super.tearDownWithError()
    }

    func start(initialize: Bool = true, environment extra: [String: String] = [:]) throws {
        var env = environment
        for (k, v) in extra { env[k] = v }
        server = try McpServerProcess(E2E.skillhostPath, ["mcp", "--skills-dir", skills], environment: env)
        if initialize {
            try server.send(["jsonrpc": "2.0", "id": 0, "method": "initialize",
                             "params": ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "raw-test", "version": "1"]]])
            _ = try server.response(0)
            try server.send(["jsonrpc": "2.0", "method": "notifications/initialized"])
        }
    }

    func error(_ m: [String: Any]) -> (code: Int, message: String)? {
        guard let e = m["error"] as? [String: Any] else { return nil }
        return ((e["code"] as? Int) ?? 0, (e["message"] as? String) ?? "")
    }

    private var nextID = 1000

    /// tools/call NAME ARGS, waiting for its result.
    func call(_ name: String, _ arguments: [String: Any] = [:], timeout: TimeInterval = 10) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        try server.send(["jsonrpc": "2.0", "id": id, "method": "tools/call", "params": ["name": name, "arguments": arguments]])
        return try XCTUnwrap(try server.response(id, timeout: timeout)["result"] as? [String: Any])
    }

    /// Starts a 20 s call of `tool` (the slow fixture), cancels it with `notifications/cancelled`, and
    /// asserts that the audit log records it `cancelled` within 5 s, long before the 20 s.
    func startAndCancelASlowCall(_ tool: String) throws {
        try server.send(["jsonrpc": "2.0", "id": "slow", "method": "tools/call", "params": ["name": tool, "arguments": ["ms": 20000]]])
        usleep(200_000)
        try server.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": "slow", "reason": "test"]])
        let audit = home + "/.local/state/skillhost/audit.jsonl"
        let end = Date().addingTimeInterval(5)
        var text = ""
        while Date() < end {
            text = (try? String(contentsOfFile: audit, encoding: .utf8)) ?? ""
            if text.contains("\"outcome\":\"cancelled\"") { break }
            usleep(20_000)
        }
        XCTAssertTrue(text.contains("\"outcome\":\"cancelled\""), "the call ends as cancelled, long before its 20 s: \(text)")
    }

    /// The tools on offer now: name → tool.
    func tools() throws -> [String: [String: Any]] {
        nextID += 1
        let id = nextID
        try server.send(["jsonrpc": "2.0", "id": id, "method": "tools/list"])
        let list = try XCTUnwrap((try server.response(id)["result"] as? [String: Any])?["tools"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    }
}

/// `skillhost mcp` spoken to in raw JSON-RPC lines: lifecycle and negotiation, malformed lines,
/// unknown methods, batches, a huge message, pagination, concurrency (ping during a slow call), a
/// skill writing to stdout during a call (the stream stays protocol only), exit at end of input.
/// (The official Python client's tests are Tests/MCP/test_mcp_client.py, run by `make test`.)
final class McpTests: McpTestCase {
    // MARK: - Lifecycle

    func testInitializeNegotiatesTheVersionAndAnnouncesToolsAndLogging() throws {
        try start(initialize: false)
        try server.send(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["protocolVersion": "2024-11-05", "capabilities": [:]]])
        let r = try XCTUnwrap(try server.response(1)["result"] as? [String: Any])
        XCTAssertEqual(r["protocolVersion"] as? String, "2024-11-05", "a version the server speaks is echoed")
        XCTAssertEqual((r["capabilities"] as? [String: Any])?["tools"] as? [String: Bool], ["listChanged": true])
        XCTAssertNotNil((r["capabilities"] as? [String: Any])?["logging"])
        XCTAssertEqual((r["serverInfo"] as? [String: Any])?["name"] as? String, "skillhost")
        try server.send(["jsonrpc": "2.0", "id": 2, "method": "initialize", "params": ["protocolVersion": "1999-01-01", "capabilities": [:]]])
        XCTAssertEqual((try server.response(2)["result"] as? [String: Any])?["protocolVersion"] as? String, "2025-11-25", "else the latest")
        try server.send(["jsonrpc": "2.0", "id": 3, "method": "initialize", "params": [:]])
        XCTAssertEqual(error(try server.response(3))?.code, -32602)
        try server.send(["jsonrpc": "2.0", "id": 4, "method": "ping"])
        XCTAssertEqual(try server.response(4)["result"] as? [String: String], [:])
        try server.send(["jsonrpc": "2.0", "id": 5, "method": "server/discover", "params": [:]])
        let d = try XCTUnwrap(try server.response(5)["result"] as? [String: Any])
        XCTAssertEqual(d["supportedVersions"] as? [String], ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        XCTAssertEqual(d["resultType"] as? String, "complete")
    }

    func testExitsWhenStdinEnds() throws {
        try start()
        server.close()
        let end = Date().addingTimeInterval(5)
        while server.process.isRunning && Date() < end { usleep(10_000) }
        XCTAssertFalse(server.process.isRunning, "skillhost mcp must exit at end of input")
        XCTAssertEqual(server.process.terminationStatus, 0)
    }

    // MARK: - Malformed input

    func testMalformedLinesGetJSONRPCErrorsAndTheServerGoesOn() throws {
        try start()
        server.send("{not json")
        XCTAssertEqual(error(try server.wait { self.error($0)?.code == -32700 })?.code, -32700)
        server.send(#"[{"jsonrpc":"2.0","id":7,"method":"ping"}]"#)
        let batch = try server.wait { self.error($0)?.message.contains("batch") == true }
        XCTAssertEqual(error(batch)?.code, -32600)
        server.send(#"{"id":8,"method":"ping"}"#)
        XCTAssertEqual(error(try server.response(8))?.code, -32600, "no jsonrpc member")
        server.send(#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{}}"#)
        XCTAssertEqual(error(try server.response(9))?.code, -32601)
        server.send(#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"no.such.tool","arguments":{}}}"#)
        XCTAssertEqual(error(try server.response(10))?.code, -32602)
        server.send(#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"fixture.echo","arguments":[1]}}"#)
        XCTAssertEqual(error(try server.response(11))?.code, -32602)
        server.send(#"{"jsonrpc":"2.0","method":"notifications/unknown"}"#)
        server.send(#"{"jsonrpc":"2.0","id":12,"method":"ping"}"#)
        XCTAssertNotNil(try server.response(12)["result"], "still serving after every bad line")
        XCTAssertNil(server.messages().first { ($0["id"] as? Int) == 7 }, "no member of a batch is run")
    }

    func testAHugeMessageIsServed() throws {
        try start()
        let text = String(repeating: "0123456789abcdef", count: 4 << 16)  // 4 MiB
        try server.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "fixture.echo", "arguments": ["text": text]]])
        let r = try XCTUnwrap(try server.response(1, timeout: 30)["result"] as? [String: Any])
        XCTAssertEqual((r["structuredContent"] as? [String: String])?["text"]?.count, text.count)
    }

    // MARK: - Tools

    func testToolsListIsSortedPaginatedAndLeavesOutDestructiveIntents() throws {
        try start(environment: ["SKILLHOST_MCP_PAGE_SIZE": "2"])
        var names: [String] = []
        var cursor: String?
        for i in 1...10 {
            var params: [String: Any] = [:]
            if let cursor { params["cursor"] = cursor }
            try server.send(["jsonrpc": "2.0", "id": 100 + i, "method": "tools/list", "params": params])
            let r = try XCTUnwrap(try server.response(100 + i)["result"] as? [String: Any])
            let tools = try XCTUnwrap(r["tools"] as? [[String: Any]])
            XCTAssertLessThanOrEqual(tools.count, 2)
            names += tools.compactMap { $0["name"] as? String }
            cursor = r["nextCursor"] as? String
            if cursor == nil { break }
        }
        XCTAssertEqual(names, ["fixture-echo", "fixture-echo-strict", "fixture-noise", "fixture-progress", "fixture-slow", "skillhost_ask"],
                       "one tool per intent agents may call, and the agent engine as skillhost_ask")
        try server.send(["jsonrpc": "2.0", "id": 200, "method": "tools/list", "params": ["cursor": "bogus"]])
        XCTAssertEqual(error(try server.response(200))?.code, -32602)
    }

    func testPingIsAnsweredWhileASlowCallRuns() throws {
        try start()
        try server.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "fixture.slow", "arguments": ["ms": 1500]]])
        usleep(100_000)
        let sent = Date()
        try server.send(["jsonrpc": "2.0", "id": 2, "method": "ping"])
        _ = try server.response(2)
        XCTAssertLessThan(Date().timeIntervalSince(sent), 0.5, "a slow call must not hold up other requests")
        XCTAssertNil(server.messages().first { ($0["id"] as? Int) == 1 }, "the slow call is still running")
        let r = try XCTUnwrap(try server.response(1)["result"] as? [String: Any])
        XCTAssertEqual((r["structuredContent"] as? [String: Int])?["sleptMs"], 1500)
    }

    /// 64 calls of a slow skill in flight hold no threads (each is a task waiting for its worker), so a
    /// call to another skill is answered at once, long before any slow one.
    func testAQuickCallAnswersWhileSixtyFourSlowCallsAreInFlight() throws {
        try addSkill("delay_queue.so")
        try start()
        for i in 0..<64 {
            try server.send(["jsonrpc": "2.0", "id": 5000 + i, "method": "tools/call",
                             "params": ["name": "fixture.delay", "arguments": ["ms": 4000]]])
        }
        usleep(300_000)
        try server.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "fixture.echo", "arguments": ["text": "quick"]]])
        let quick = try XCTUnwrap(try server.response(1, timeout: 3.5)["result"] as? [String: Any])
        XCTAssertEqual((quick["structuredContent"] as? [String: Any])?["text"] as? String, "quick", "\(quick)")
        let slowDone = server.messages().filter { (($0["id"] as? Int) ?? 0) >= 5000 }
        XCTAssertEqual(slowDone.count, 0, "the quick call was answered before any of the 4 s calls: \(slowDone.prefix(2))")
        for i in 0..<64 {
            let r = try XCTUnwrap(try server.response(5000 + i, timeout: 20)["result"] as? [String: Any])
            XCTAssertEqual((r["structuredContent"] as? [String: Int])?["sleptMs"], 4000, "\(r)")
        }
    }

    func testCancelledCallStopsAndGetsNoResponse() throws {
        try start()
        try startAndCancelASlowCall("fixture.slow")
        try server.send(["jsonrpc": "2.0", "id": 2, "method": "ping"])
        _ = try server.response(2)
        XCTAssertNil(server.messages().first { ($0["id"] as? String) == "slow" }, "no response for a cancelled request")
    }

    func testProgressNotificationsCarryTheToken() throws {
        try start()
        try server.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call",
                         "params": ["name": "fixture.progress", "arguments": [:], "_meta": ["progressToken": 42]]])
        _ = try server.response(1)
        let progress = server.messages().filter { $0["method"] as? String == "notifications/progress" }.compactMap { $0["params"] as? [String: Any] }
        XCTAssertEqual(progress.map { $0["progressToken"] as? Int }, [42, 42, 42])
        XCTAssertEqual(progress.map { $0["progress"] as? Int }, [1, 2, 3])
        XCTAssertEqual(progress.first?["total"] as? Int, 3)
    }

    func testSkillStdoutNeverReachesTheProtocolStream() throws {
        try start()
        for i in 1...5 {
            try server.send(["jsonrpc": "2.0", "id": i, "method": "tools/call", "params": ["name": "fixture.noise", "arguments": [:]]])
        }
        for i in 1...5 { XCTAssertEqual((try server.response(i)["result"] as? [String: Any])?["isError"] as? Bool, false) }
        let all = server.messages()
        XCTAssertTrue(all.allSatisfy { $0["jsonrpc"] as? String == "2.0" }, "only JSON-RPC on stdout: \(all)")
    }

    func testLoggingSetLevelFiltersMessages() throws {
        try start()
        try server.send(["jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": ["level": "shouting"]])
        XCTAssertEqual(error(try server.response(1))?.code, -32602)
        // At "error", a denied call's warning is filtered out; at "warning", it is sent.
        try server.send(["jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": ["level": "error"]])
        _ = try server.response(2)
        try server.send(["jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": ["name": "fixture.wipe", "arguments": ["target": "x"]]])
        XCTAssertEqual((try server.response(3)["result"] as? [String: Any])?["isError"] as? Bool, true)
        try server.send(["jsonrpc": "2.0", "id": 4, "method": "ping"])
        _ = try server.response(4)
        try server.send(["jsonrpc": "2.0", "id": 5, "method": "logging/setLevel", "params": ["level": "warning"]])
        _ = try server.response(5)
        try server.send(["jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": ["name": "fixture.wipe", "arguments": ["target": "x"]]])
        let r = try XCTUnwrap(try server.response(6)["result"] as? [String: Any])
        XCTAssertEqual(r["isError"] as? Bool, true)
        let log = try server.wait { $0["method"] as? String == "notifications/message" }
        XCTAssertEqual((log["params"] as? [String: Any])?["level"] as? String, "warning")
        let logs = server.messages().filter { $0["method"] as? String == "notifications/message" }
        XCTAssertEqual(logs.count, 1, "the warning of the call made at level \"error\" is not sent: \(logs)")
    }
}
