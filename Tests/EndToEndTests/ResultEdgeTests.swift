import Foundation
import XCTest

/// What a skill hands back is checked, never repaired: a result that is not UTF-8 is `internal` naming
/// the byte (in a worker and in-process), and the details object a skill passes with a failure reaches
/// `--json`, MCP and the audit log (issue 12, items 12 and 13).
final class ResultEdgeTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try addSkill("result_edges.so")
    }

    func testAResultThatIsNotUTF8IsInternalNamingTheByteInAWorkerAndInProcess() throws {
        for trusted in [false, true] {
            try writeConfig(trusted ? #"{"trusted":["test.fixture.results"]}"# : "{}")
            let e = try assertInvokeError(invoke("fixture.latin1", "{}"), kind: "internal", exitCode: 19,
                                          messageContains: ["is not valid UTF-8 (byte 12)"])
            XCTAssertEqual(e["skill"] as? String, "test.fixture.results", trusted ? "in-process" : "worker")
        }
    }

    func testFailureDetailsReachJSONAndTheAuditLog() throws {
        let e = try assertInvokeError(invoke("fixture.details", "{}"), kind: "internal", exitCode: 19, messageContains: ["disk quota exceeded"])
        let details = try XCTUnwrap(e["details"] as? [String: Any], "error.details: \(e)")
        XCTAssertEqual(details["quotaBytes"] as? Int, 1024)
        XCTAssertEqual(details["path"] as? String, "/var/fixture")
        let audit = (try? String(contentsOfFile: home + "/.local/state/skillhost/audit.jsonl", encoding: .utf8)) ?? ""
        let line = try XCTUnwrap(audit.split(separator: "\n").last { $0.contains("fixture.details") }, audit)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual((o["details"] as? [String: Any])?["quotaBytes"] as? Int, 1024, "\(o)")
    }

    func testFailureDetailsReachMCPResults() throws {
        var env = environment
        for (k, v) in extraEnvironment { env[k] = v }
        let server = try McpServerProcess(E2E.skillhostPath, ["mcp", "--skills-dir", skills], environment: env)
        defer { server.close(); server.process.waitUntilExit() }
        try server.send(["jsonrpc": "2.0", "id": 0, "method": "initialize",
                         "params": ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]]])
        _ = try server.response(0)
        try server.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "fixture-details", "arguments": [:]]])
        let r = try XCTUnwrap(try server.response(1)["result"] as? [String: Any])
        XCTAssertEqual(r["isError"] as? Bool, true)
        let meta = (r["_meta"] as? [String: Any])?["dev.skillhost/error"] as? [String: Any]
        XCTAssertEqual((meta?["details"] as? [String: Any])?["path"] as? String, "/var/fixture", "\(r)")
        let text = ((r["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        XCTAssertTrue(text.contains("details: {"), text)
    }
}
