import XCTest
@testable import SkillHostMCP

/// The pieces of the Streamable HTTP transport that decide alone: the request head parser, the token
/// and Origin checks, and the session ids that let any instance serve any session.
final class HTTPTransportPartsTests: XCTestCase {
    func head(_ text: String, maxBody: Int = 100) throws(HTTPRequestError) -> (HTTPRequest, body: HTTPBodyFraming) {
        try HTTPRequestParser.parseHead(ArraySlice(Array(text.utf8)), maxBody: maxBody)
    }

    func status(_ text: String, maxBody: Int = 100) -> Int? {
        do { _ = try head(text, maxBody: maxBody); return nil } catch { return error.status }
    }

    func testParserReadsTheRequestLineHeadersAndBodyLength() throws {
        let (r, length) = try head("POST /mcp?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\nAccept: text/event-stream\r\nACCEPT:  application/json \r\n\r\n")
        XCTAssertEqual(r.method, "POST")
        XCTAssertEqual(r.path, "/mcp")
        XCTAssertEqual(length, .length(12))
        XCTAssertEqual(try head("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n").body, .chunked)
        XCTAssertEqual(r.header("accept"), "text/event-stream, application/json", "names lowercased, repeats joined, values trimmed")
        XCTAssertTrue(r.keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").0.keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.0\r\n\r\n").0.keepAlive)
        XCTAssertEqual(HTTPRequestParser.headEnd(Array("GET / HTTP/1.1\r\n\r\nBODY".utf8)), 18)
        XCTAssertNil(HTTPRequestParser.headEnd(Array("GET / HTTP/1.1\r\n".utf8)))
    }

    func testParserRefusals() {
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n"), 413)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"), 400)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n"), 400)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n"), 400)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"), 400, "smuggling shape")
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n"), 501)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"), 501)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"), 400)
        XCTAssertEqual(status("POST /mcp HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"), 400)
        XCTAssertEqual(status("GET /mcp HTTP/1.1\r\n\r\n"), 400, "HTTP/1.1 without Host")
        XCTAssertEqual(status("GET /mcp HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400)
        XCTAssertNil(status("GET /mcp HTTP/1.0\r\n\r\n"), "HTTP/1.0 needs no Host")
        XCTAssertEqual(status("GET /mcp HTTP/2.0\r\n\r\n"), 505)
        XCTAssertEqual(status("GET mcp HTTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(status("GET /mcp HTTP/1.1\r\nNo colon here\r\n\r\n"), 400)
        XCTAssertEqual(status("GET /mcp HTTP/1.1\r\nBad Name: x\r\n\r\n"), 400)
    }

    /// Feeds `wire` to a chunked body reader `step` bytes at a time, as a connection would.
    func decode(_ wire: String, step: Int, maxBody: Int = 100, maxTrailers: Int = 64) throws(HTTPRequestError) -> (body: String, end: Int)? {
        let bytes = Array(wire.utf8)
        var reader = HTTPBodyReader(.chunked, start: 0, maxBody: maxBody, maxTrailers: maxTrailers)
        var buffer: [UInt8] = []
        var i = 0
        while i < bytes.count {
            buffer += bytes[i..<min(bytes.count, i + step)]
            i += step
            if let (body, end) = try reader.read(buffer) { return (String(decoding: body, as: UTF8.self), end) }
        }
        return nil
    }

    func testChunkedBodiesDecodeWhateverTheWritesLookLike() throws {
        let wire = "5;ext=1\r\nhello\r\n1\r\n \r\nA \t;x\r\n0123456789\r\n0\r\nTrailer: yes\r\n\r\nNEXT"
        for step in [1, 2, 3, 7, 64, 1000] {
            let r = try XCTUnwrap(try decode(wire, step: step), "step \(step)")
            XCTAssertEqual(r.body, "hello 0123456789", "step \(step)")
            XCTAssertEqual(r.end, wire.utf8.count - 4, "the next request's bytes are left for it (step \(step))")
        }
        XCTAssertNil(try decode("5\r\nhel", step: 1), "not complete yet")
        XCTAssertEqual(try decode("0\r\n\r\n", step: 1)?.body, "")
    }

    func testChunkedBodyRefusals() {
        func status(_ wire: String, maxBody: Int = 100) -> Int? {
            do { _ = try decode(wire, step: 3, maxBody: maxBody); return nil } catch { return error.status }
        }
        XCTAssertEqual(status("g\r\n"), 400, "not hex")
        XCTAssertEqual(status(";x\r\n"), 400, "no size")
        XCTAssertEqual(status("5 x\r\n"), 400, "junk after the size")
        XCTAssertEqual(status("5\nhello\r\n"), 400, "bare LF")
        XCTAssertEqual(status("5\r\nhelloXY"), 400, "no CRLF after the data")
        XCTAssertEqual(status("1234567890abcdef\r\n"), 400, "16 hex digits")
        XCTAssertEqual(status("65\r\n"), 413, "101 bytes over 100")
        XCTAssertEqual(status("32\r\n" + String(repeating: "a", count: 50) + "\r\n33\r\n"), 413, "the sum over 100")
        XCTAssertEqual(status(String(repeating: "1\r\na\r\n", count: 20)), 413, "20 decoded bytes, 120 on the wire")
        XCTAssertEqual(status("1;" + String(repeating: "e", count: 5000)), 400, "an overlong size line, before its end comes")
        XCTAssertEqual(status("0\r\n" + String(repeating: "T: v\r\n", count: 20) + "\r\n", maxBody: 1000), 431, "trailers over 64 bytes")
    }

    /// A real server with short limits on a free port: a chunked body that stops coming is 408 once
    /// the body deadline passes (slowloris), and a whole one is handed to the handler decoded.
    func testAChunkedBodyThatStopsComingTimesOut() throws {
        var limits = HTTPServer.Limits()
        limits.bodyTimeout = 1
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits)
        Thread { server.serve { request, connection in
            connection.respond(200, body: request.body)
            return .responded
        } }.start()
        defer { shutdown(server.listener, Int32(SHUT_RDWR)) }
        func connect() -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(server.boundPort).bigEndian)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            return fd
        }
        func answer(_ fd: Int32, after text: String) -> String {
            _ = Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var out: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                out += buf[..<n]
            }
            close(fd)
            return String(decoding: out, as: UTF8.self)
        }
        let head = "POST / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
        let started = Date()
        let stalled = answer(connect(), after: head + "5\r\nhel")
        XCTAssertTrue(stalled.hasPrefix("HTTP/1.1 408 "), stalled)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        let whole = answer(connect(), after: head + "3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nT: 1\r\n\r\n")
        XCTAssertTrue(whole.hasPrefix("HTTP/1.1 200 ") && whole.hasSuffix("\r\n\r\nabcde"), whole)
    }

    func testHostsLoopbackWithTheBoundPortOrAllowed() {
        let access = HTTPAccess(token: nil, allowedOrigins: [], allowedHosts: ["Proxy.Example", "pinned.example:8443", "[::1]"])
        for ok in ["127.0.0.1:9000", "localhost:9000", "[::1]:9000", "proxy.example", "proxy.example:1", "PINNED.example:8443", "[::1]:5"] {
            XCTAssertTrue(access.hostAllowed(ok, boundPort: 9000, loopback: true), ok)
        }
        for bad in [nil, "", "127.0.0.1", "127.0.0.1:9001", "localhost:9000:1", "evil.example:9000", "pinned.example", "pinned.example:443",
                    "127.0.0.1:", "127.0.0.1:99999", "[::1", "a b:9000", "::1:9000"] {
            XCTAssertFalse(access.hostAllowed(bad, boundPort: 9000, loopback: true), bad ?? "nil")
        }
        XCTAssertFalse(access.hostAllowed(nil, boundPort: 80, loopback: false), "beyond loopback with --allow-host: checked")
        XCTAssertTrue(HTTPAccess(token: "t", allowedOrigins: []).hostAllowed("anything.example", boundPort: 80, loopback: false),
                      "beyond loopback without --allow-host: not checked (the token is)")
        XCTAssertTrue(HTTPAccess(token: nil, allowedOrigins: []).hostAllowed("127.0.0.1", boundPort: 80, loopback: true), "no port is port 80")
        XCTAssertNil(HTTPAccess.parseHost("bad host"))
        XCTAssertEqual(HTTPAccess.parseHost("[::1]:8080")?.name, "[::1]")
        XCTAssertEqual(HTTPAccess.parseHost("Example.COM:443")?.port, 443)
    }

    func testTokenIsComparedWhole() {
        let access = HTTPAccess(token: "abc123", allowedOrigins: [])
        XCTAssertTrue(access.authorized("Bearer abc123"))
        XCTAssertTrue(access.authorized("bearer abc123"))
        for wrong in [nil, "", "Bearer", "Bearer ", "Bearer abc12", "Bearer abc1234", "Bearer abc124", "Basic abc123"] {
            XCTAssertFalse(access.authorized(wrong), wrong ?? "nil")
        }
        XCTAssertTrue(HTTPAccess(token: nil, allowedOrigins: []).authorized(nil), "no token: every request")
    }

    func testOriginsLoopbackAndAllowedOnly() {
        let access = HTTPAccess(token: nil, allowedOrigins: ["https://App.Example.com/"])
        for ok in [nil, "http://localhost", "http://localhost:3000", "https://127.0.0.1:8443", "http://127.1.2.3", "http://[::1]:80",
                   "https://app.example.com"] {
            XCTAssertTrue(access.originAllowed(ok), ok ?? "nil")
        }
        for bad in ["null", "http://evil.com", "http://localhost.evil.com", "http://127.0.0.1.evil.com", "http://localhost:x",
                    "https://app.example.com:444", "file://", "http://[::2]"] {
            XCTAssertFalse(access.originAllowed(bad), bad)
        }
    }

    func testLoopbackHosts() {
        for h in ["127.0.0.1", "127.255.0.9", "localhost", "::1", "[::1]"] { XCTAssertTrue(HTTPAccess.isLoopback(h), h) }
        for h in ["0.0.0.0", "10.0.0.1", "128.0.0.1", "127.0.0", "127.0.0.256", "example.com", "::"] { XCTAssertFalse(HTTPAccess.isLoopback(h), h) }
    }

    func testSessionIdsCarryTheClientName() {
        for name in ["claude-ai", "Cursor", "客户端 ✓", "a", "ab", "abc"] {
            let id = MCPHTTPTransport.randomHex(16) + "." + MCPHTTPTransport.base64url(Array(name.utf8))
            XCTAssertTrue(id.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7e }, "visible ASCII, as the spec asks")
            XCTAssertEqual(MCPHTTPTransport.clientName(inSessionID: id), name)
        }
        XCTAssertNotEqual(MCPHTTPTransport.randomHex(16), MCPHTTPTransport.randomHex(16))
        for bad in ["", "abc", "no-such-session", String(repeating: "0", count: 32), String(repeating: "0", count: 32) + ".",
                    String(repeating: "g", count: 32) + ".YQ", String(repeating: "0", count: 31) + ".YQ", String(repeating: "0", count: 32) + ".Y"] {
            XCTAssertNil(MCPHTTPTransport.clientName(inSessionID: bad), bad)
        }
    }
}
