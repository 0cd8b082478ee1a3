import Foundation
import XCTest

/// `skillhost invoke --idempotency-key K`: a repeated key replays the first result instead of running a
/// non-idempotent intent (reminder.create) twice; another input under the same key is invalid_input.
final class IdempotencyTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try addBundledSkill("libReminderSkill.so")
    }

    func create(_ title: String, key: String) throws -> [String: Any] {
        let r = invoke("reminder.create", #"{"title":"\#(title)"}"#, ["--idempotency-key", key])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        return try r.jsonObject()
    }

    func reminderCount() throws -> Int {
        let r = invoke("reminder.list", "{}")
        return try ((assertInvokeOK(r, skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [Any])?.count ?? -1
    }

    func testARepeatedKeyReplaysTheFirstResultAndRunsOnce() throws {
        let first = try create("buy milk", key: "k-1")
        XCTAssertNil(first["replayed"], "the first call is not a replay")
        let again = try create("buy milk", key: "k-1")
        XCTAssertEqual(again["replayed"] as? Bool, true)
        let id1 = (first["result"] as? [String: Any])?["id"] as? String
        XCTAssertNotNil(id1)
        XCTAssertEqual((again["result"] as? [String: Any])?["id"] as? String, id1, "the same reminder, not a second one")
        XCTAssertEqual(try reminderCount(), 1)
        _ = try create("buy milk", key: "k-2")
        XCTAssertEqual(try reminderCount(), 2, "another key is another call")
    }

    func testTheSameKeyWithOtherInputIsInvalidInputNamingTheKey() throws {
        _ = try create("buy milk", key: "k-1")
        try assertInvokeError(invoke("reminder.create", #"{"title":"buy bread"}"#, ["--idempotency-key", "k-1"]),
                              kind: "invalid_input", exitCode: 10, messageContains: ["idempotency key \"k-1\""])
        XCTAssertEqual(try reminderCount(), 1)
    }

    func testMemberOrderDoesNotMatterAndTheWindowEnds() throws {
        // 2 s: the replay only needs b to start within 2 s of a, even on a loaded machine.
        try writeConfig(#"{"idempotencyWindowSeconds": 2}"#)
        let a = invoke("reminder.create", #"{"title":"t","due":"2026-12-01T10:00:00Z"}"#, ["--idempotency-key", "k"])
        let b = invoke("reminder.create", #"{"due":"2026-12-01T10:00:00Z","title":"t"}"#, ["--idempotency-key", "k"])
        XCTAssertEqual(try b.jsonObject()["replayed"] as? Bool, true, a.summary + b.summary)
        usleep(2_100_000)
        let c = invoke("reminder.create", #"{"title":"t","due":"2026-12-01T10:00:00Z"}"#, ["--idempotency-key", "k"])
        XCTAssertNil(try c.jsonObject()["replayed"], "after the window the key is forgotten: \(c.summary)")
        XCTAssertEqual(try reminderCount(), 2)
    }
}
