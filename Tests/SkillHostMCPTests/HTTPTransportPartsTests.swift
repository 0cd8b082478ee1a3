import XCTest
@testable import SkillHostMCP

/// The pieces of the Streamable HTTP transport that decide alone: the request head parser, the token
/// and Origin checks, and the session ids that let any instance serve any session.
final class HTTPTransportPartsTests: XCTestCase {
    func head(_ text: String, maxBody: Int = 100) throws(HTTPRequestError) -> (HTTPRequest, bodyLength: Int) {
        try HTTPRequestParser.parseHead(ArraySlice(Array(text.utf8)), maxBody: maxBody)
    }

    func status(_ text: String, maxBody: Int = 100) -> Int? {
        do { _ = try head(text, maxBody: maxBody); return nil } catch { return error.status }
    }

    func testParserReadsTheRequestLineHeadersAndBodyLength() throws {
        let (r, length) = try head("POST /mcp?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\nAccept: text/event-stream\r\nACCEPT:  application/json \r\n\r\n")
        XCTAssertEqual(r.method, "POST")
        XCTAssertEqual(r.path, "/mcp")
        XCTAssertEqual(length, 12)
        XCTAssertEqual(r.header("accept"), "text/event-stream, application/json", "names lowercased, repeats joined, values trimmed")
        XCTAssertTrue(r.keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").0.keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.0\r\n\r\n").0.keepAlive)
        XCTAssertEqual(HTTPRequestParser.headEnd(Array("GET / HTTP/1.1\r\n\r\nBODY".utf8)), 18)
        XCTAssertNil(HTTPRequestParser.headEnd(Array("GET / HTTP/1.1\r\n".utf8)))
    }

    func testParserRefusals() {
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nContent-Length: 101\r\n\r\n"), 413)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), 411)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"), 400)
        XCTAssertEqual(status("POST /mcp HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), 400)
        XCTAssertEqual(status("GET /mcp HTTP/2.0\r\n\r\n"), 505)
        XCTAssertEqual(status("GET mcp HTTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(status("GET /mcp HTTP/1.1\r\nNo colon here\r\n\r\n"), 400)
        XCTAssertEqual(status("GET /mcp HTTP/1.1\r\nBad Name: x\r\n\r\n"), 400)
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
