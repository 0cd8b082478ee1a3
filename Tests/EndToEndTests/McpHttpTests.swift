import Foundation
import XCTest

/// A running `skillhost mcp --http 127.0.0.1:0`, with the port its stderr line names.
final class McpHttpServerProcess: @unchecked Sendable {
    let process = Process()
    let errors = Pipe()
    private(set) var port = 0
    private let lock = NSCondition()
    private var stderrText = ""

    init(_ executable: String, _ args: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let handle = errors.fileHandleForReading
        Thread { [self] in
            while true {
                let d = handle.availableData
                if d.isEmpty { break }
                lock.lock(); stderrText += String(decoding: d, as: UTF8.self); lock.broadcast(); lock.unlock()
            }
        }.start()
        let deadline = Date().addingTimeInterval(30)
        lock.lock()
        defer { lock.unlock() }
        while port == 0 && Date() < deadline {
            if let r = stderrText.range(of: #"skillhost mcp: listening on http://127\.0\.0\.1:(\d+)/mcp\n"#, options: .regularExpression) {
                port = Int(stderrText[r].split(separator: ":").last!.dropLast(5)) ?? 0
                break
            }
            if !process.isRunning { break }
            lock.wait(until: Date().addingTimeInterval(0.1))
        }
        if port == 0 { throw HarnessError("skillhost mcp --http did not say where it listens: \(stderrText)") }
    }

    var stderr: String { lock.lock(); defer { lock.unlock() }; return stderrText }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Sends `raw` on a new connection and reads the whole answer (the server closes after it, since
    /// requests here say `Connection: close` or are refused).
    func exchange(_ raw: [UInt8]) throws -> HTTPAnswer {
        let fd = try send(raw)
        defer { close(fd) }
        return try HTTPAnswer(Self.readToEnd(fd))
    }

    /// Everything `fd` delivers until the server closes it (or the 20 s read timeout of `send`).
    static func readToEnd(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buf[..<n]
        }
        return out
    }

    /// What `fd` delivers until `marker` has arrived (or the server closes it, or the read times out).
    static func read(_ fd: Int32, until marker: String) -> String {
        var text = ""
        var buf = [UInt8](repeating: 0, count: 65536)
        while !text.contains(marker) {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            text += String(decoding: buf[..<n], as: UTF8.self)
        }
        return text
    }

    /// Sends `raw` on a new connection (reads time out after 20 s) and returns the socket, for the
    /// caller to read and close.
    func send(_ raw: [UInt8]) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else {
            close(fd)
            throw HarnessError("connect to port \(port) failed")
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = raw.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    func request(_ method: String, path: String = "/mcp", headers: [String: String] = [:], body: String = "") throws -> HTTPAnswer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        return try exchange(Array((head + "\r\n" + body).utf8))
    }
}

/// A response: status, headers (lowercase names) and body.
struct HTTPAnswer {
    var status = 0
    var headers: [String: String] = [:]
    var body = ""

    init(_ bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw HarnessError("no HTTP response: \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        status = Int(lines[0].split(separator: " ")[1]) ?? 0
        for l in lines.dropFirst() {
            if let c = l.firstIndex(of: ":") { headers[l[..<c].lowercased()] = l[l.index(after: c)...].trimmingCharacters(in: .whitespaces) }
        }
        body = String(text[split.upperBound...])
    }

    /// The body as a JSON-RPC error: (code, message).
    func rpcError(file: StaticString = #filePath, line: UInt = #line) throws -> (Int, String) {
        let o = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        guard let e = o?["error"] as? [String: Any], let code = e["code"] as? Int, let message = e["message"] as? String else {
            XCTFail("not a JSON-RPC error: \(body)", file: file, line: line)
            throw HarnessError("not a JSON-RPC error")
        }
        return (code, message)
    }
}

/// A test case that starts `skillhost mcp --http 127.0.0.1:0` servers (with the echo fixture) and
/// stops them after each test.
class McpHttpTestCase: EndToEndTestCase {
    var servers: [McpHttpServerProcess] = []

    override func tearDownWithError() throws {
        for s in servers { s.stop() }
        servers = []
        try super.tearDownWithError()
    }

    func start(_ extra: [String] = []) throws -> McpHttpServerProcess {
        try addSkill("echo_c.so")
        let s = try McpHttpServerProcess(E2E.skillhostPath, ["mcp", "--http", "127.0.0.1:0", "--skills-dir", skills] + extra, environment: environment)
        servers.append(s)
        return s
    }
}

/// The HTTP edges of `skillhost mcp --http`, on raw sockets (the official client's side is
/// Tests/MCP/test_mcp_http.py).
final class McpHttpTests: McpHttpTestCase {
    let json = ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"]
    let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-test","version":"1"}}}"#

    func testListeningLineWarningAndAToolCallAsServerSentEvents() throws {
        let s = try start()
        XCTAssertTrue(s.stderr.contains("skillhost mcp: warning: no token"), s.stderr)
        let first = try s.request("POST", headers: json, body: initialize)
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.headers["content-type"], "application/json")
        let sid = try XCTUnwrap(first.headers["mcp-session-id"])
        XCTAssertTrue(sid.allSatisfy { $0.isASCII && $0.asciiValue! >= 0x21 && $0.asciiValue! <= 0x7e }, "visible ASCII only")
        let call = try s.request("POST", headers: json.merging(["Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"]) { $1 },
                                 body: #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fixture-echo","arguments":{"text":"hi"}}}"#)
        XCTAssertEqual(call.status, 200)
        XCTAssertEqual(call.headers["content-type"], "text/event-stream")
        XCTAssertTrue(call.body.contains(#"data: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"text\":\"hi\"}"}]"#), call.body)
        let note = try s.request("POST", headers: json.merging(["Mcp-Session-Id": sid]) { $1 }, body: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        XCTAssertEqual(note.status, 202)
        XCTAssertEqual(note.body, "")
    }

    /// SIGTERM and SIGINT stop the server at once whichever of its threads they land on (a signal that
    /// reached a thread other than the one a Dispatch signal source watched used to be lost).
    func testSIGTERMAndSIGINTStopTheServerEveryTime() throws {
        for round in 0..<6 {
            let s = try start()
            XCTAssertEqual(try s.request("GET", path: "/other").status, 404)
            kill(s.process.processIdentifier, round % 2 == 0 ? SIGTERM : SIGINT)
            let deadline = Date().addingTimeInterval(10)
            while s.process.isRunning && Date() < deadline { usleep(20_000) }
            XCTAssertFalse(s.process.isRunning, "round \(round): still running 10 s after the signal")
            if s.process.isRunning { kill(s.process.processIdentifier, SIGKILL) }
        }
    }

    func testBadMethodIs405WithAllow() throws {
        let s = try start()
        let r = try s.request("PUT", headers: json, body: "{}")
        XCTAssertEqual(r.status, 405)
        XCTAssertEqual(r.headers["allow"], "GET, POST, DELETE")
        XCTAssertTrue(try r.rpcError().1.contains("PUT"))
        XCTAssertEqual(try s.request("GET", path: "/other").status, 404)
    }

    func testOversizeBodyIs413BeforeTheBodyIsRead() throws {
        let s = try start()
        let head = "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: \(5 << 20)\r\n\r\n"
        let r = try s.exchange(Array(head.utf8))
        XCTAssertEqual(r.status, 413)
        XCTAssertTrue(r.body.contains("at most 4194304"), r.body)
        let huge = "GET /mcp HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n"
        XCTAssertEqual(try s.exchange(Array(huge.utf8)).status, 431)
    }

    func testMissingContentTypeIs415AndAcceptWithoutEventStreamIs406() throws {
        let s = try start()
        let r = try s.request("POST", headers: ["Accept": "application/json, text/event-stream"], body: initialize)
        XCTAssertEqual(r.status, 415)
        XCTAssertTrue(try r.rpcError().1.contains("Content-Type must be application/json"))
        let a = try s.request("POST", headers: ["Content-Type": "application/json", "Accept": "application/json"], body: initialize)
        XCTAssertEqual(a.status, 406)
    }

    func testMalformedJSONIsAParseErrorAnd400() throws {
        let s = try start()
        let r = try s.request("POST", headers: json, body: #"{"jsonrpc":"2.0","id":1,"method":"#)
        XCTAssertEqual(r.status, 400)
        let (code, message) = try r.rpcError()
        XCTAssertEqual(code, -32700)
        XCTAssertTrue(message.hasPrefix("Parse error"), message)
    }

    func testSessionIdsMissingUnknownAndDeleted() throws {
        let s = try start()
        let list = #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#
        XCTAssertEqual(try s.request("POST", headers: json, body: list).status, 400, "a request other than initialize needs the session id")
        let unknown = try s.request("DELETE", headers: ["Mcp-Session-Id": "no-such-session"])
        XCTAssertEqual(unknown.status, 404)
        XCTAssertTrue(try unknown.rpcError().1.contains("no-such-session"))
        XCTAssertEqual(try s.request("POST", headers: json.merging(["Mcp-Session-Id": "garbage"]) { $1 }, body: list).status, 404)
        let sid = try XCTUnwrap(try s.request("POST", headers: json, body: initialize).headers["mcp-session-id"])
        XCTAssertEqual(try s.request("POST", headers: json.merging(["Mcp-Session-Id": sid]) { $1 }, body: list).status, 200)
        XCTAssertEqual(try s.request("DELETE", headers: ["Mcp-Session-Id": sid]).status, 200)
        XCTAssertEqual(try s.request("POST", headers: json.merging(["Mcp-Session-Id": sid]) { $1 }, body: list).status, 404, "an ended session is gone")
        XCTAssertEqual(try s.request("POST", headers: json.merging(["Mcp-Session-Id": sid, "MCP-Protocol-Version": "1999-01-01"]) { $1 }, body: list).status, 400)
    }

    /// Another instance's session (same id format) is served here: no session affinity needed.
    func testASessionIdFromAnotherInstanceIsServedAsThatClient() throws {
        let a = try start(), b = try start()
        let sid = try XCTUnwrap(try a.request("POST", headers: json, body: initialize).headers["mcp-session-id"])
        let r = try b.request("POST", headers: json.merging(["Mcp-Session-Id": sid]) { $1 },
                              body: #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fixture-echo","arguments":{"text":"b"}}}"#)
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(r.body.contains(#""structuredContent":{"text":"b"}"#), r.body)
        let audit = try String(contentsOfFile: home + "/.local/state/skillhost/audit.jsonl", encoding: .utf8)
        XCTAssertTrue(audit.contains(#""agentHost":"raw-test""#), audit)
    }

    /// A call that waits (a slow skill in its worker) has its event stream's head sent as soon as the
    /// server waits for it, long before the result; a call answered at once (a trusted skill, run on
    /// the connection's thread) is one write: head, event and end arrive together.
    func testAWaitingCallsStreamHeadComesAtOnceAndAQuickCallComesWhole() throws {
        try addSkill("slow.so")
        try writeConfig(#"{"trusted": ["test.fixture.echo"]}"#)
        let s = try start()
        let sid = try XCTUnwrap(try s.request("POST", headers: json, body: initialize).headers["mcp-session-id"])
        func post(_ body: String) throws -> Int32 {
            var head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nConnection: close\r\nMcp-Session-Id: \(sid)\r\n"
            for (k, v) in json { head += "\(k): \(v)\r\n" }
            return try s.send(Array((head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8))
        }
        func firstRead(_ fd: Int32) -> String {
            var buf = [UInt8](repeating: 0, count: 65536)
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return n > 0 ? String(decoding: buf[..<n], as: UTF8.self) : ""
        }
        let slow = try post(#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"fixture-slow","arguments":{"ms":1500}}}"#)
        defer { close(slow) }
        let sent = Date()
        let head = firstRead(slow)
        XCTAssertLessThan(Date().timeIntervalSince(sent), 1.0, "the head comes before the 1.5 s result: \(head)")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n") && head.contains("text/event-stream"), head)
        XCTAssertFalse(head.contains("sleptMs"), "the result is not there yet: \(head)")
        let rest = McpHttpServerProcess.read(slow, until: "0\r\n\r\n")
        XCTAssertTrue(rest.contains(#""sleptMs":1500"#), rest)
        let quick = try post(#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"fixture-echo","arguments":{"text":"whole"}}}"#)
        defer { close(quick) }
        let whole = firstRead(quick)
        XCTAssertTrue(whole.hasPrefix("HTTP/1.1 200 OK\r\n") && whole.contains(#""structuredContent":{"text":"whole"}"#) && whole.hasSuffix("0\r\n\r\n"),
                      "head, event and end in one read: \(whole)")
    }

    func testTokenFileReadableByOthersIsRefusedWithChmod600() throws {
        try addSkill("echo_c.so")
        let token = work + "/token"
        try Data("t0ken\n".utf8).write(to: URL(fileURLWithPath: token))
        chmod(token, 0o644)
        let r = skillhost(["mcp", "--http", "0", "--token-file", token])
        XCTAssertEqual(r.exitCode, 2)
        XCTAssertTrue(r.stderr.contains("chmod 600 \(token)"), r.stderr)
        chmod(token, 0o600)
        let s = try McpHttpServerProcess(E2E.skillhostPath, ["mcp", "--http", "127.0.0.1:0", "--token-file", token, "--skills-dir", skills], environment: environment)
        servers.append(s)
        XCTAssertFalse(s.stderr.contains("no token"), s.stderr)
        let denied = try s.request("POST", headers: json, body: initialize)
        XCTAssertEqual(denied.status, 401)
        XCTAssertEqual(denied.headers["www-authenticate"], #"Bearer realm="skillhost""#)
        XCTAssertEqual(try s.request("POST", headers: json.merging(["Authorization": "Bearer t0ken"]) { $1 }, body: initialize).status, 200)
        let open = skillhost(["mcp", "--http", "0.0.0.0:0"])
        XCTAssertEqual(open.exitCode, 2)
        XCTAssertTrue(open.stderr.contains("needs a token"), open.stderr)
    }
}
