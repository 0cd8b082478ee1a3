import XCTest
@testable import SkillHostCore

/// The health state machine's transitions (pure: no files, no clock).
final class HealthMachineTests: XCTestCase {
    var settings: HealthSettings {
        var s = HealthSettings()
        s.quarantineAfterCrashes = 3
        s.windowSeconds = 100
        s.slowProbeMs = 500
        return s
    }

    func apply(_ events: [(Int, HealthEvent)], to start: SkillHealth = SkillHealth()) -> SkillHealth {
        events.reduce(start) { HealthMachine.apply($1.1, to: $0, now: $1.0, settings: settings) }
    }

    func probe(_ status: String, _ latency: Double = 1) -> HealthEvent {
        .probed(HealthRecord(status: status, message: "probe says \(status)", checkedAt: "t", latencyMs: latency, sha256: nil))
    }

    func testSuccessKeepsOkAndCounts() {
        let e = apply([(10, .succeeded(count: 5))])
        XCTAssertEqual(e.state, .ok)
        XCTAssertEqual(e.calls, 5)
        XCTAssertEqual(e.failures, 0)
    }

    func testAFailureDegradesAndCountsByKind() {
        let e = apply([(10, .failed(kind: .timeout, message: "slow")), (11, .failed(kind: .crashed, message: "SIGSEGV"))])
        XCTAssertEqual(e.state, .degraded)
        XCTAssertTrue(e.reason.contains("crashed: SIGSEGV"), e.reason)
        XCTAssertEqual([e.calls, e.failures, e.crashes, e.timeouts], [2, 2, 1, 1])
        XCTAssertEqual(e.lastFailure, 11)
        XCTAssertEqual(e.since, 10, "since: when it became degraded")
    }

    func testDegradedStaysWhileTheFailureIsRecentThenASuccessMakesItOk() {
        let failed = apply([(10, .failed(kind: .crashed, message: "x"))])
        XCTAssertEqual(HealthMachine.apply(.succeeded(count: 1), to: failed, now: 50, settings: settings).state, .degraded)
        XCTAssertEqual(HealthMachine.apply(.succeeded(count: 1), to: failed, now: 111, settings: settings).state, .ok)
        XCTAssertEqual(HealthMachine.effective(failed, now: 50, settings: settings).state, .degraded)
        XCTAssertEqual(HealthMachine.effective(failed, now: 111, settings: settings).state, .ok, "reads as ok once the window passed")
    }

    func testKCrashesWithinTheWindowQuarantine() {
        let e = apply([(10, .failed(kind: .crashed, message: "a")), (20, .failed(kind: .crashed, message: "b")),
                       (30, .failed(kind: .crashed, message: "c"))])
        XCTAssertEqual(e.state, .quarantined)
        XCTAssertTrue(e.reason.contains("crashed 3 times within 100 s") && e.reason.contains("c"), e.reason)
        XCTAssertEqual(e.since, 30)
    }

    func testCrashesOutsideTheWindowDoNotCount() {
        let e = apply([(10, .failed(kind: .crashed, message: "a")), (20, .failed(kind: .crashed, message: "b")),
                       (115, .failed(kind: .crashed, message: "c"))])
        XCTAssertEqual(e.state, .degraded, "the crash at 10 left the window")
        XCTAssertEqual(e.recentCrashes, [20, 115])
    }

    func testTimeoutsDoNotQuarantine() {
        let e = apply((0..<10).map { ($0, HealthEvent.failed(kind: .timeout, message: "t")) })
        XCTAssertEqual(e.state, .degraded)
        XCTAssertEqual(e.timeouts, 10)
    }

    func testQuarantineIgnoresCallsAndProbesAndLeavesOnUnblock() {
        var e = apply((1...3).map { ($0, HealthEvent.failed(kind: .crashed, message: "x")) })
        e = apply([(4, .succeeded(count: 1)), (5, probe("ok")), (6, probe("unavailable"))], to: e)
        XCTAssertEqual(e.state, .quarantined)
        e = apply([(7, .unblocked)], to: e)
        XCTAssertEqual(e.state, .ok)
        XCTAssertEqual(e.recentCrashes, [])
        XCTAssertEqual(e.crashes, 3, "counters are kept")
        XCTAssertEqual(apply([(8, .failed(kind: .crashed, message: "y"))], to: e).state, .degraded, "one crash after unblock is not quarantine")
    }

    func testProbesSetUnavailableDegradedSlowAndOk() {
        XCTAssertEqual(apply([(1, probe("unavailable"))]).state, .unavailable)
        XCTAssertEqual(apply([(1, probe("degraded"))]).state, .degraded)
        let slow = apply([(1, probe("ok", 900))])
        XCTAssertEqual(slow.state, .degraded)
        XCTAssertTrue(slow.reason.contains("slower than 500 ms"), slow.reason)
        XCTAssertEqual(apply([(1, probe("unavailable")), (2, probe("ok"))]).state, .ok)
        XCTAssertEqual(apply([(1, probe("unavailable")), (2, .succeeded(count: 1))]).state, .ok, "a call that succeeds proves it serves")
        XCTAssertEqual(apply([(1, .failed(kind: .crashed, message: "x")), (2, probe("ok"))]).state, .degraded, "a recent failure is not forgotten")
    }

    func testAWorkerThatCannotLoadIsUnavailable() {
        let e = apply([(1, .failed(kind: .loadFailed, message: "cannot dlopen"))])
        XCTAssertEqual(e.state, .unavailable)
        XCTAssertEqual(e.reason, "cannot dlopen")
    }

    func testAnEntryForAnotherFileStartsOver() {
        let old = FileIdentity(path: "/s/a.so", inode: 1, size: 10, mtimeNs: 100)
        var e = SkillHealth(file: old)
        e = apply((1...3).map { ($0, HealthEvent.failed(kind: .crashed, message: "x")) }, to: e)
        XCTAssertEqual(HealthTracker.forFile(e, old).state, .quarantined)
        let replaced = HealthTracker.forFile(e, FileIdentity(path: "/s/a.so", inode: 2, size: 10, mtimeNs: 200))
        XCTAssertEqual(replaced.state, .ok)
        XCTAssertEqual(replaced.crashes, 0)
        XCTAssertTrue(replaced.reason.contains("file changed"), replaced.reason)
    }

    func testEntriesRoundTripThroughJSON() throws {
        var e = apply([(10, .failed(kind: .crashed, message: "x")), (11, probe("ok", 3.25))],
                      to: SkillHealth(file: FileIdentity(path: "/s/a.so", inode: 7, size: 1, mtimeNs: 2)))
        e.probe?.sha256 = "ab"
        XCTAssertEqual(SkillHealth(json: e.json), e)
    }

    func testHealthSettingsFromConfig() throws {
        let s = try HealthSettings(try JSON.parse(Array(#"{"quarantineAfterCrashes":2,"windowSeconds":60}"#.utf8)), file: "c.json")
        XCTAssertEqual(s.quarantineAfterCrashes, 2)
        XCTAssertEqual(s.windowSeconds, 60)
        XCTAssertEqual(s.slowProbeMs, 2000)
        XCTAssertThrowsError(try HealthSettings(try JSON.parse(Array(#"{"windowSeconds":0}"#.utf8)), file: "c.json"))
    }
}
