import Foundation
import XCTest

/// How `skillhost mcp --http` reads requests, on raw sockets: chunked bodies (split across writes,
/// 1-byte chunks, extensions, trailers) and their refusals (oversize, malformed, other codings,
/// Content-Length beside Transfer-Encoding), the Host check against DNS rebinding (loopback names with
/// the bound port, `--allow-host`), and a connection whose reader is held by a blocking trusted skill.
/// (A real client sending chunked is in Tests/MCP/test_mcp_http.py.)
final class McpHttpRequestTests: McpHttpTestCase {
    let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"chunked-test","version":"1"}}}"#

    /// A POST head for /mcp with `headers` (Host, Content-Type and Accept unless given).
    func head(_ s: McpHttpServerProcess, _ headers: [(String, String)]) -> String {
        var text = "POST /mcp HTTP/1.1\r\n"
        var all = headers
        if !all.contains(where: { $0.0 == "Host" }) { all.insert(("Host", "127.0.0.1:\(s.port)"), at: 0) }
        all += [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream"), ("Connection", "close")]
        for (k, v) in all { text += "\(k): \(v)\r\n" }
        return text + "\r\n"
    }

    /// `body` as chunks of `size` bytes (the last one shorter), each size line with `extension`.
    func chunked(_ body: String, size: Int, extension ext: String = "", trailers: String = "") -> String {
        let bytes = Array(body.utf8)
        var out = ""
        var i = 0
        while i < bytes.count {
            let part = bytes[i..<min(bytes.count, i + size)]
            out += String(part.count, radix: 16) + ext + "\r\n" + String(decoding: part, as: UTF8.self) + "\r\n"
            i += size
        }
        return out + "0\r\n" + trailers + "\r\n"
    }

    /// Sends `pieces` one write each, `pause` µs apart, then reads the whole answer.
    func exchange(_ s: McpHttpServerProcess, _ pieces: [String], pause: useconds_t = 0) throws -> HTTPAnswer {
        let fd = try s.send(Array(pieces[0].utf8))
        defer { close(fd) }
        for p in pieces.dropFirst() {
            if pause > 0 { usleep(pause) }
            _ = Array(p.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        let out = McpHttpServerProcess.readToEnd(fd)
        return try HTTPAnswer(out)
    }

    func testChunkedBodiesSplitAcrossWritesOneByteChunksExtensionsAndTrailers() throws {
        let s = try start()
        let te = head(s, [("Transfer-Encoding", "chunked")])
        // Head, then the body in pieces that cut size lines, data and CRLFs apart.
        let body = chunked(initialize, size: 40)
        let pieces = [te] + stride(from: 0, to: body.utf8.count, by: 7).map { String(decoding: Array(body.utf8)[$0..<min(body.utf8.count, $0 + 7)], as: UTF8.self) }
        let split = try exchange(s, pieces, pause: 2_000)
        XCTAssertEqual(split.status, 200, split.body)
        let sid = try XCTUnwrap(split.headers["mcp-session-id"])
        XCTAssertTrue(split.body.contains(#""protocolVersion":"2025-11-25""#), split.body)
        // 1-byte chunks with extensions, and trailer fields, carrying a tools/call.
        let call = #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fixture-echo","arguments":{"text":"chunk by chunk"}}}"#
        let tiny = try exchange(s, [head(s, [("Transfer-Encoding", "chunked"), ("Mcp-Session-Id", sid)])
                                    + chunked(call, size: 1, extension: ";n=1;quoted=\"a b\"", trailers: "X-Checksum: 1\r\nX-Other: 2\r\n")])
        XCTAssertEqual(tiny.status, 200, tiny.body)
        XCTAssertTrue(tiny.body.contains(#""structuredContent":{"text":"chunk by chunk"}"#), tiny.body)
        // Upper-case hex, leading zeros and a coding list spelled differently are the same body.
        let odd = try exchange(s, [head(s, [("Transfer-Encoding", " Chunked ")]) + "0000" + String(initialize.utf8.count, radix: 16).uppercased() + "\r\n" + initialize + "\r\n0\r\n\r\n"])
        XCTAssertEqual(odd.status, 200, odd.body)
    }

    func testChunkedRefusalsSayWhatWasWrong() throws {
        let s = try start()
        let te = head(s, [("Transfer-Encoding", "chunked")])
        let cases: [(String, Int, String)] = [
            (te + "zz\r\nhello\r\n0\r\n\r\n", 400, "is not a hex size"),
            (te + "5\r\nhello world\r\n0\r\n\r\n", 400, "not followed by CRLF"),
            (te + "5\nhello\r\n0\r\n\r\n", 400, "bare LF"),
            (te + "5;" + String(repeating: "x", count: 5000) + "\r\nhello\r\n0\r\n\r\n", 400, "longer than 4096 bytes"),
            (te + "10000000000000000\r\n", 400, "too many digits"),
            (te + "500000\r\n", 413, "at most 4194304"),
            (head(s, [("Transfer-Encoding", "gzip, chunked")]) + "0\r\n\r\n", 501, "decodes chunked only"),
            (head(s, [("Transfer-Encoding", "chunked"), ("Content-Length", "5")]) + "5\r\nhello\r\n0\r\n\r\n", 400, "request-smuggling"),
            (head(s, [("Transfer-Encoding", "chunked, chunked")]) + "0\r\n\r\n", 400, "more than once"),
            ("POST /mcp HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "HTTP/1.0"),
        ]
        for (raw, status, says) in cases {
            let r = try exchange(s, [raw])
            XCTAssertEqual(r.status, status, "\(raw.prefix(120)): \(r.body)")
            XCTAssertTrue(r.body.contains(says), "\(raw.prefix(120)): \(r.body)")
        }
        // Within the limit decoded, but over it on the wire: 1-byte chunks take 6 bytes each, so the
        // 699 051st chunk crosses 4 MiB (exactly that many are sent: the server reads them all, and
        // closes with nothing unread, which would reset the connection before the answer is read).
        let fd = try s.send(Array(te.utf8))
        defer { close(fd) }
        let piece = Array(String(repeating: "1\r\na\r\n", count: 699_051).utf8)
        _ = piece.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let out = McpHttpServerProcess.readToEnd(fd)
        let wire = try HTTPAnswer(out)
        XCTAssertEqual(wire.status, 413, wire.body)
        XCTAssertTrue(wire.body.contains("on the wire"), wire.body)
        XCTAssertEqual(try s.request("POST", headers: ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"], body: initialize).status,
                       200, "the server goes on")
    }

    func testHostMustNameThisServerUnlessAllowed() throws {
        let s = try start(["--allow-host", "mcp.example.com", "--allow-host", "pinned.example:8443"])
        func status(_ host: String?) throws -> HTTPAnswer {
            var raw = "POST /mcp HTTP/1.1\r\n"
            if let host { raw += "Host: \(host)\r\n" }
            raw += "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: \(initialize.utf8.count)\r\n\r\n" + initialize
            return try s.exchange(Array(raw.utf8))
        }
        for ok in ["127.0.0.1:\(s.port)", "localhost:\(s.port)", "LOCALHOST:\(s.port)", "[::1]:\(s.port)", "127.0.0.2:\(s.port)",
                   "mcp.example.com", "mcp.example.com:443", "pinned.example:8443"] {
            XCTAssertEqual(try status(ok).status, 200, ok)
        }
        for bad in ["evil.example:\(s.port)", "attacker.example", "127.0.0.1:\(s.port == 1 ? 2 : 1)", "127.0.0.1", "localhost",
                    "pinned.example", "pinned.example:443", "localhost.evil.example:\(s.port)", "127.0.0.1:\(s.port)x", ""] {
            let r = try status(bad)
            XCTAssertEqual(r.status, 421, bad)
            XCTAssertTrue(try r.rpcError().1.contains("--allow-host"), "\(bad): \(r.body)")
        }
        let missing = try status(nil)
        XCTAssertEqual(missing.status, 400)
        XCTAssertTrue(missing.body.contains("needs a Host header"), missing.body)
        let twice = try s.exchange(Array("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nHost: evil.example\r\n\r\n".utf8))
        XCTAssertEqual(twice.status, 400, twice.body)
        let bad = skillhost(["mcp", "--http", "0", "--allow-host", "two words"])
        XCTAssertEqual(bad.exitCode, 2)
        XCTAssertTrue(bad.stderr.contains("--allow-host expects HOST or HOST:PORT"), bad.stderr)
        let stray = skillhost(["mcp", "--allow-host", "mcp.example.com"])
        XCTAssertEqual(stray.exitCode, 2)
        XCTAssertTrue(stray.stderr.contains("go with --http"), stray.stderr)
    }

    /// A trusted skill whose invoke() blocks for 3 s holds the connection's reader; another thread
    /// takes the connection over: the stream's head goes out at once, the result follows when the
    /// call completes, and the same keep-alive connection then serves the next request.
    func testABlockingTrustedSkillDoesNotHoldUpItsConnection() throws {
        try addSkill("block_invoke.so")
        try writeConfig(#"{"trusted": ["test.fixture.echo", "test.fixture.block"]}"#)
        let s = try start()
        let sid = try XCTUnwrap(try s.request("POST", headers: ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"],
                                              body: initialize).headers["mcp-session-id"])
        func post(_ body: String) -> [UInt8] {
            Array(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nMcp-Session-Id: \(sid)\r\nContent-Type: application/json\r\n"
                   + "Accept: application/json, text/event-stream\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        }
        let sent = Date()
        let fd = try s.send(post(#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"fixture-block","arguments":{"ms":3000}}}"#))
        defer { close(fd) }
        func readUntil(_ marker: String) -> String { McpHttpServerProcess.read(fd, until: marker) }
        let head = readUntil("\r\n\r\n")
        XCTAssertLessThan(Date().timeIntervalSince(sent), 1.0, "the head comes while the call still blocks: \(head)")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n") && head.contains("text/event-stream"), head)
        XCTAssertFalse(head.contains("blockedMs"), head)
        let rest = readUntil("0\r\n\r\n")
        XCTAssertTrue(rest.contains(#""blockedMs":3000"#), rest)
        XCTAssertGreaterThan(Date().timeIntervalSince(sent), 2.9)
        _ = post(#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"fixture-echo","arguments":{"text":"same connection"}}}"#)
            .withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let next = readUntil("0\r\n\r\n")
        XCTAssertTrue(next.contains(#""structuredContent":{"text":"same connection"}"#), "the kept-alive connection serves the next request: \(next)")
    }
}
