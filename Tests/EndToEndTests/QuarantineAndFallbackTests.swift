import Foundation
import XCTest

/// The health state machine through the real `skillhost` binary: each command is its own process, so
/// these also show that the state is persisted ($XDG_STATE_HOME/skillhost/health.json) and shared.
final class QuarantineAndFallbackTests: EndToEndTestCase {
    /// A config with a small quarantine threshold.
    func quarantineAfter(_ k: Int) throws {
        try writeConfig(#"{"health":{"quarantineAfterCrashes":\#(k),"windowSeconds":600}}"#)
    }

    func listed(_ id: String) throws -> [String: Any] {
        let r = skillhost("list", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        return try XCTUnwrap(try r.listedSkills().first("id", id), r.summary)
    }

    func testQuarantineAfterKCrashesPersistsAcrossCommandsAndUnblockLiftsIt() throws {
        try quarantineAfter(2)
        try addSkill("segv_invoke.so")
        try addSkill("echo_c.so")
        try assertInvokeError(invoke("fixture.segv"), kind: "crashed", exitCode: 14)
        XCTAssertEqual(try listed("test.fixture.segv")["health"] as? String, "degraded", "one crash: degraded")
        try assertInvokeError(invoke("fixture.segv"), kind: "crashed", exitCode: 14)

        // Quarantined: not called (not even its healthy intent), with state, reason, since and fix.
        let e = try assertInvokeError(invoke("fixture.segv.ok"), kind: "unavailable", exitCode: 12,
                                      messageContains: ["quarantined since", "crashed 2 times within 600 s", "SIGSEGV"])
        let hint = e["hint"] as? String ?? ""
        XCTAssertTrue(hint.contains("replace its file") && hint.contains("skillhost unblock test.fixture.segv"), hint)

        let s = try listed("test.fixture.segv")
        XCTAssertEqual(s["health"] as? String, "quarantined")
        let d = try XCTUnwrap(s["healthDetail"] as? [String: Any])
        XCTAssertEqual(d["crashes"] as? Int, 2)
        XCTAssertEqual(d["failures"] as? Int, 2)
        XCTAssertEqual(d["calls"] as? Int, 2, "the refused call never reached the skill")
        XCTAssertNotNil(d["lastFailure"] as? String)
        XCTAssertTrue((d["reason"] as? String ?? "").contains("crashed 2 times"), "\(d)")
        XCTAssertEqual(try listed("test.fixture.echo")["health"] as? String, "ok", "the other skill is not affected")
        XCTAssertTrue(skillhost("list").stdout.contains("quarantined"))

        // health: not probed, still quarantined; doctor: a problem with the fix.
        let h = skillhost("health", "--json")
        XCTAssertEqual(h.exitCode, 1, h.summary)
        XCTAssertEqual(try h.listed("skills").first("id", "test.fixture.segv")?["health"] as? String, "quarantined", h.summary)
        let doctor = skillhost("doctor")
        XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
        XCTAssertTrue(doctor.stdout.contains("test.fixture.segv is quarantined") && doctor.stdout.contains("skillhost unblock test.fixture.segv"), doctor.summary)
        let dj = try skillhost("doctor", "--json").jsonObject()
        XCTAssertEqual((dj["unhealthy"] as? [[String: Any]])?.first?["health"] as? String, "quarantined", "\(dj)")

        // unblock: ok again, the call goes through.
        let u = skillhost("unblock", "test.fixture.segv")
        XCTAssertEqual(u.exitCode, 0, u.summary)
        XCTAssertEqual(try listed("test.fixture.segv")["health"] as? String, "ok")
        try assertInvokeOK(invoke("fixture.segv.ok"), skill: "test.fixture.segv")
        XCTAssertEqual(skillhost("doctor").exitCode, 0)
    }

    func testUnblockOfAnUnknownIdIsNoSkill() throws {
        try addSkill("echo_c.so")
        let r = skillhost("unblock", "test.fixture.nope", "--json")
        try assertInvokeError(r, kind: "no_skill", exitCode: 11, messageContains: ["test.fixture.nope"])
        XCTAssertEqual(skillhost("unblock").exitCode, 2, "usage")
        XCTAssertTrue(skillhost("--help").stdout.contains("unblock"))
    }

    func testReplacingTheFileLiftsTheQuarantine() throws {
        try quarantineAfter(1)
        try addSkill("segv_invoke.so")
        try assertInvokeError(invoke("fixture.segv"), kind: "crashed", exitCode: 14)
        try assertInvokeError(invoke("fixture.segv.ok"), kind: "unavailable", exitCode: 12, messageContains: ["quarantined"])
        // A fixed build is dropped in: a new file (new inode), so the entry starts over.
        try addSkill("segv_invoke.so")
        XCTAssertEqual(try listed("test.fixture.segv")["health"] as? String, "ok")
        try assertInvokeOK(invoke("fixture.segv.ok"), skill: "test.fixture.segv")
    }

    func testTimeoutsDegradeAndProbesRecordTheirAnswer() throws {
        try addSkill("sleep_past.so")
        try assertInvokeError(invoke("fixture.sleep", "{}", ["--timeout", "300"]), kind: "timeout", exitCode: 13)
        let d = try listed("test.fixture.sleep")
        XCTAssertEqual(d["health"] as? String, "degraded")
        XCTAssertEqual((d["healthDetail"] as? [String: Any])?["timeouts"] as? Int, 1, "\(d)")
    }

    func testAFailedReadOnlyCallFallsBackToTheNextSkill() throws {
        try quarantineAfter(2)
        try addSkill("fallback_crash.so")
        try addSkill("fallback_ok.so")
        for round in 0..<3 {
            // Round 0 and 1: the preferred skill crashes; round 2: it is quarantined. Each time the
            // second skill answers and the response names the first one's failure.
            let r = invoke("fixture.lookup", "{}")
            try assertInvokeOK(r, skill: "test.fixture.fallback.ok")
            let fallback = try XCTUnwrap(try r.jsonObject()["fallback"] as? [[String: Any]], r.summary)
            XCTAssertEqual(fallback.count, 1, r.summary)
            XCTAssertEqual(fallback[0]["skill"] as? String, "test.fixture.fallback.crash")
            let e = try XCTUnwrap(fallback[0]["error"] as? [String: Any])
            XCTAssertEqual(e["kind"] as? String, round < 2 ? "crashed" : "unavailable", r.summary)
        }
        XCTAssertEqual(try listed("test.fixture.fallback.crash")["health"] as? String, "quarantined")
        XCTAssertEqual(try listed("test.fixture.fallback.ok")["health"] as? String, "ok")
    }

    func testAnIntentThatIsNeitherReadOnlyNorIdempotentNeverFallsBack() throws {
        try addSkill("fallback_crash.so")
        try addSkill("fallback_ok.so")
        let r = invoke("fixture.append", "{}")
        let e = try assertInvokeError(r, kind: "crashed", exitCode: 14)
        XCTAssertEqual(e["skill"] as? String, "test.fixture.fallback.crash")
        XCTAssertEqual((try listed("test.fixture.fallback.ok")["healthDetail"] as? [String: Any])?["calls"] as? Int, 0,
                       "the second skill was never called")
    }
}
