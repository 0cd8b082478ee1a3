import XCTest
@testable import SkillHostCore
@testable import SkillHostMCP

/// The JSON-RPC framing rules of `skillhost mcp` and the shape of tool results, without a process.
final class JSONRPCTests: XCTestCase {
    func classify(_ text: String) -> JSONRPC.Incoming { JSONRPC.classify(Array(text.utf8)) }

    func code(_ i: JSONRPC.Incoming) -> Int? {
        if case .invalid(_, let c, _) = i { return c }
        return nil
    }

    func testMalformedMessagesGetTheRightErrorCodes() {
        XCTAssertEqual(code(classify("{nope")), -32700)
        XCTAssertEqual(code(classify(#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)), -32600, "batches are refused")
        XCTAssertEqual(code(classify("42")), -32600)
        XCTAssertEqual(code(classify(#"{"id":1,"method":"ping"}"#)), -32600, "jsonrpc missing")
        XCTAssertEqual(code(classify(#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#)), -32600, "id must be a string or an integer")
        XCTAssertEqual(code(classify(#"{"jsonrpc":"2.0","id":1,"method":7}"#)), -32600)
        XCTAssertEqual(code(classify(#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}"#)), -32602)
    }

    func testRequestsNotificationsAndResponsesAreTold() {
        guard case .request(let id, "tools/list", let params) = classify(#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"cursor":"2"}}"#) else {
            return XCTFail("a request")
        }
        XCTAssertEqual(id, .string("a"))
        XCTAssertEqual(params["cursor"], .string("2"))
        guard case .notification("notifications/initialized", _) = classify(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) else {
            return XCTFail("a notification")
        }
        guard case .ignored = classify(#"{"jsonrpc":"2.0","id":3,"result":{}}"#) else { return XCTFail("a response is ignored") }
    }

    func testToolResultsCarryStructuredContentOrAnActionableError() {
        let ok = MCPServer.toolResult(.success(InvokeSuccess(intent: "x.y", skillID: "a.b", skillVersion: "1.0.0", result: ["n": 1], message: nil, durationMs: 1)))
        XCTAssertEqual(ok["structuredContent"], ["n": 1])
        XCTAssertEqual(ok["isError"], .bool(false))
        XCTAssertEqual(ok["content"]?.arrayValue?.first?["text"], .string(#"{"n":1}"#))
        var e = SkillError(.denied, "x.y is rate-limited", hint: "wait")
        e.rule = "policy.rateLimits.agent.*"
        let bad = MCPServer.toolResult(.failure(e))
        XCTAssertEqual(bad["isError"], .bool(true))
        XCTAssertEqual(bad["content"]?.arrayValue?.first?["text"], .string("denied: x.y is rate-limited\nhint: wait"))
        XCTAssertEqual(bad["_meta"]?["dev.skillhost/error"]?["rule"], .string("policy.rateLimits.agent.*"))
    }

    /// The written response of a call is byte for byte the one the tree would give, for results of
    /// every kind (an object, not an object, strings that need escapes, non-ASCII text) and a failure.
    func testToolResultTextIsTheTreesText() throws {
        let results: [JSON] = [
            ["n": 1], .object(JSONObject()), ["s": .string("a \"quoted\" \\ line\nbreak\u{1}\ttab"), "u": "grüße 🎉", "a": [1, "x", .null, .bool(true)]],
            .array([1, 2]), .string("plain \"text\""), .int(-7), .double(2.5), .null, .bool(false),
        ]
        for r in results {
            let outcome = Result<InvokeSuccess, SkillError>.success(InvokeSuccess(intent: "x.y", skillID: "a.b", skillVersion: "1.0.0", result: r, message: "m", durationMs: 1))
            XCTAssertEqual(MCPServer.toolResultText(outcome), MCPServer.toolResult(outcome).bytes, "result \(r.serialized)")
            XCTAssertEqual(try JSON.parse(MCPServer.toolResultText(outcome)), MCPServer.toolResult(outcome))
        }
        let failed = Result<InvokeSuccess, SkillError>.failure(SkillError(.timeout, "slow \"skill\"", hint: "raise it"))
        XCTAssertEqual(MCPServer.toolResultText(failed), MCPServer.toolResult(failed).bytes)
        let message = RPCMessage.response(id: .string("r\"1"), resultText: MCPServer.toolResultText(failed))
        XCTAssertEqual(message.bytes, RPCMessage(JSONRPC.result(.string("r\"1"), MCPServer.toolResult(failed))).bytes)
    }
}
