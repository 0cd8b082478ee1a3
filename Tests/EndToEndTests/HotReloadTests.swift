import Foundation
import XCTest

/// Skills added, replaced and removed while `skillhost mcp` runs: inotify, a rescan, an atomic registry
/// swap and notifications/tools/list_changed. Calls in flight finish on the file they started with;
/// a half-written file is not loaded before it is complete.
final class HotReloadTests: McpTestCase {
    func listChangedCount() -> Int {
        server.messages().filter { $0["method"] as? String == "notifications/tools/list_changed" }.count
    }

    func waitForListChanged(after count: Int, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line) throws {
        let end = Date().addingTimeInterval(timeout)
        while listChangedCount() <= count {
            guard Date() < end else {
                XCTFail("no notifications/tools/list_changed within \(timeout) s", file: file, line: line)
                throw HarnessError("no list_changed")
            }
            usleep(10_000)
        }
    }

    /// Copies a fixture into the folder the way `skillhost install` does: a hidden temporary file, then rename.
    func installAtomically(_ fixture: String, as name: String) throws {
        try copy(fixtures + "/" + fixture, into: skills, as: "." + name + ".tmp")
        XCTAssertEqual(rename(skills + "/." + name + ".tmp", skills + "/" + name), 0)
    }

    func structured(_ r: [String: Any]) -> [String: Any]? { r["structuredContent"] as? [String: Any] }

    func testANewSkillAppearsAndARemovedOneDisappears() throws {
        try start()
        XCTAssertNil(try tools()["fixture-swap"])
        let before = listChangedCount()
        try installAtomically("swap.so", as: "swap.so")
        try waitForListChanged(after: before)
        XCTAssertEqual((try tools()["fixture-swap"]?["_meta"] as? [String: Any])?["dev.skillhost/version"] as? String, "1.0.0")
        XCTAssertEqual(structured(try call("fixture.swap"))?["version"] as? Int, 1)

        let count = listChangedCount()
        XCTAssertEqual(unlink(skills + "/swap.so"), 0)
        try waitForListChanged(after: count)
        XCTAssertNil(try tools()["fixture-swap"])
        try server.send(["jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": ["name": "fixture.swap", "arguments": [:]]])
        XCTAssertEqual(error(try server.response(77))?.code, -32602, "a removed skill's tool is unknown")
    }

    func replaceWhileACallRuns(trusted: Bool) throws {
        if trusted { try writeConfig(#"{"trusted": ["test.fixture.swap"]}"#) }
        try addSkill("swap.so")
        try start()
        XCTAssertEqual(structured(try call("fixture.swap"))?["version"] as? Int, 1)
        // A slow call on version 1, then version 2 lands (atomic rename) while it runs.
        try server.send(["jsonrpc": "2.0", "id": "inflight", "method": "tools/call", "params": ["name": "fixture.swap", "arguments": ["ms": 1500]]])
        usleep(200_000)
        let before = listChangedCount()
        try installAtomically("swap_v2.so", as: "swap.so")
        try waitForListChanged(after: before)
        XCTAssertEqual((try tools()["fixture-swap"]?["_meta"] as? [String: Any])?["dev.skillhost/version"] as? String, "2.0.0")
        XCTAssertEqual(structured(try call("fixture.swap"))?["version"] as? Int, 2, "new calls go to the new file")
        let old = try XCTUnwrap(try server.response("inflight")["result"] as? [String: Any])
        XCTAssertEqual(structured(old)?["version"] as? Int, 1, "the call in flight finished on the old version")
    }

    func testAReplacedSkillGetsANewWorkerAndTheCallInFlightFinishesOnTheOld() throws {
        try replaceWhileACallRuns(trusted: false)
    }

    func testATrustedInProcessSkillIsSwappedByLoadingAFreshCopy() throws {
        try replaceWhileACallRuns(trusted: true)
    }

    func testAHalfWrittenFileIsNotLoadedBeforeItIsComplete() throws {
        try start()
        let data = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/swap.so"))
        let path = skills + "/swap.so"
        FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o755])
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let before = listChangedCount()
        h.write(data.prefix(data.count / 2))  // a `cp` in progress: open, half written
        usleep(400_000)
        XCTAssertEqual(listChangedCount(), before, "nothing announced while the file is being written")
        XCTAssertNil(try tools()["fixture-swap"])
        h.write(data.dropFirst(data.count / 2))
        try h.close()
        try waitForListChanged(after: before)
        XCTAssertEqual(structured(try call("fixture.swap"))?["version"] as? Int, 1)
        let refused = try listAll().refused
        XCTAssertTrue(refused.isEmpty, "the half file was never scanned and refused: \(refused)")
    }
}
