import Foundation
import XCTest
@testable import SkillHostCore

/// `SandboxReports` keeps the partial sandboxes workers reported in one state folder's file, each
/// entry tied to the sandbox plan it was reported under, and decides on the file, not on a process's
/// copy, whether a report changes anything.
final class SandboxReportsTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "sandbox-reports-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let partial = SandboxFacts.Fact(mode: "partial", missing: ["seccomp filter (not installed: E2BIG)"], applyMicros: 12)
    let full = SandboxFacts.Fact(mode: "full", missing: [], applyMicros: 9)

    func testAReportCountsOnlyForThePlanItWasReportedUnder() {
        SandboxReports(stateDir: dir).record(partial, for: "a.b", plan: "--sandbox\n--allow-connect\n443")
        let later = SandboxReports(stateDir: dir)  // another process, later
        XCTAssertEqual(later.report(for: "a.b", plan: { "--sandbox\n--allow-connect\n443" })?.missing, partial.missing)
        XCTAssertNil(later.report(for: "a.b", plan: { "--sandbox" }), "the grants changed since: the old report says nothing about the new plan")
        XCTAssertNil(later.report(for: "c.d", plan: { XCTFail("no report: the plan is not worked out"); return "--sandbox" }))
    }

    /// The latest report per skill is the host's own: another host in the same process, on another
    /// state folder, does not see it (it was a process-wide table, where the last host's worker won).
    func testTheLatestReportBelongsToItsHostAlone() throws {
        let other = dir + "/other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let mine = SandboxReports(stateDir: dir), theirs = SandboxReports(stateDir: other)
        mine.record(full, for: "a.b", plan: "p")
        XCTAssertEqual(mine.latest(for: "a.b"), full, "full reports are kept in memory too")
        XCTAssertNil(theirs.latest(for: "a.b"))
        theirs.record(partial, for: "a.b", plan: "p")
        XCTAssertEqual(mine.latest(for: "a.b"), full, "the other host's worker does not replace this host's report")
        XCTAssertEqual(theirs.latest(for: "a.b"), partial)
    }

    /// A full report where the file has nothing to remove takes no lock (and makes no lock file).
    func testAReportTheFileAlreadyHoldsTakesNoLock() {
        SandboxReports(stateDir: dir).record(full, for: "a.b", plan: "p")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/sandbox-reports.json.lock"))
        SandboxReports(stateDir: dir).record(partial, for: "a.b", plan: "p")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/sandbox-reports.json.lock"), "a change is made under the lock")
    }

    func testAFullReportRemovesTheEntry() {
        let r = SandboxReports(stateDir: dir)
        r.record(partial, for: "a.b", plan: "p")
        r.record(full, for: "a.b", plan: "p")
        XCTAssertNil(SandboxReports(stateDir: dir).report(for: "a.b", plan: { "p" }))
    }

    /// Two processes: X stores a partial report, Y a full one (removing it), then X's next worker
    /// reports partial again. X's own copy still says partial, but the file does not: it is written.
    func testTheSkipIsDecidedOnTheFileNotOnAStaleCopy() {
        let x = SandboxReports(stateDir: dir), y = SandboxReports(stateDir: dir)
        x.record(partial, for: "a.b", plan: "p")
        XCTAssertNotNil(x.report(for: "a.b", plan: { "p" }))
        y.record(full, for: "a.b", plan: "p")
        x.record(partial, for: "a.b", plan: "p")
        XCTAssertEqual(SandboxReports(stateDir: dir).report(for: "a.b", plan: { "p" })?.mode, "partial")
    }

    func testEachStateFolderKeepsItsOwnReports() throws {
        let other = dir + "/other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        SandboxReports(stateDir: dir).record(partial, for: "a.b", plan: "p")
        XCTAssertNil(SandboxReports(stateDir: other).report(for: "a.b", plan: { "p" }))
        XCTAssertNotNil(SandboxReports(stateDir: dir).report(for: "a.b", plan: { "p" }))
    }
}
