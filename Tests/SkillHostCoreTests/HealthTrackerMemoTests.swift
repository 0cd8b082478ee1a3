import XCTest
@testable import SkillHostCore

/// `HealthTracker`'s fast path for a healthy skill: the skill's memo (`SkillMemo.Health`) remembers the
/// view in which its entry was ok and its row among the successes counted in memory. These tests make
/// every kind of change that must make the memo stale — a crash, a write, another process's quarantine,
/// a second tracker sharing the skill value, the count list starting over — and check that no count
/// goes to the wrong place and no quarantine is missed.
final class HealthTrackerMemoTests: XCTestCase {
    var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "/skillhost-health-memo-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    var settings: HealthSettings {
        var s = HealthSettings()
        s.quarantineAfterCrashes = 3
        s.windowSeconds = 600
        return s
    }

    func skill(_ id: String = "memo.skill", inode: UInt64 = 7) -> RegisteredSkill {
        let identity = SkillIdentity(id: id, name: id, version: SemanticVersion("1.0.0")!, category: "c", vendor: "", description: "",
                                     toolchain: nil, abiMajor: 1, abiMinor: 1, threadSafe: true, hasHealth: false)
        return RegisteredSkill(summary: SkillSummary(identity: identity, intents: []), manifestText: [],
                               file: SkillFile(path: "/s/\(id).so", inode: inode, size: 1, mtimeNs: 1), isolation: .process)
    }

    func tracker(_ dir: String, _ skills: [RegisteredSkill]) -> HealthTracker {
        HealthTracker(stateDir: root + "/" + dir, settings: settings,
                      files: Dictionary(uniqueKeysWithValues: skills.map { ($0.id, FileIdentity($0.file)) }))
    }

    func crash(_ t: HealthTracker, _ s: RegisteredSkill, times: Int) {
        for k in 0..<times { t.record(s, .failed(kind: .crashed, message: "crash \(k)")) }
    }

    func testSuccessesCountedInMemoryAreAllWrittenAcrossFlushes() {
        let s = skill()
        let t = tracker("a", [s])
        for _ in 0..<5 { t.record(s, .succeeded(count: 1)) }
        t.flush()
        XCTAssertEqual(t.current(s.id).calls, 5)
        // The list of counted successes started over: the memo's row is stale and must not be reused.
        for _ in 0..<4 { t.record(s, .succeeded(count: 2)) }
        t.flush()
        XCTAssertEqual(t.current(s.id).calls, 13)
        XCTAssertEqual(tracker("a", [s]).current(s.id).calls, 13, "a new tracker reads the same counts from the file")
    }

    func testACrashAfterSuccessesIsSeenByTheNextRefusal() {
        let s = skill()
        let t = tracker("a", [s])
        for _ in 0..<3 { t.record(s, .succeeded(count: 1)) }
        XCTAssertNil(t.refusal(for: s))
        crash(t, s, times: 3)
        let refusal = t.refusal(for: s)
        XCTAssertEqual(refusal?.kind, .unavailable, "quarantined after 3 crashes, although the memo said ok before them")
        XCTAssertTrue(refusal?.message.contains("quarantined") == true, refusal?.message ?? "no refusal")
        t.record(s, .succeeded(count: 1))  // a success while quarantined is not counted as ok
        XCTAssertEqual(t.current(s.id).state, .quarantined)
    }

    func testAQuarantineWrittenByAnotherProcessReachesAHostWhoseMemoSaidOk() throws {
        let s = skill()
        let long = tracker("shared", [s])
        for _ in 0..<3 { long.record(s, .succeeded(count: 1)) }
        XCTAssertNil(long.refusal(for: s))
        // Another command (its own tracker on the same state folder, as another process would be).
        let other = tracker("shared", [s])
        crash(other, s, times: 3)
        XCTAssertEqual(other.current(s.id).state, .quarantined)
        // The long-running host re-reads a changed file at most every 250 ms.
        usleep(400_000)
        XCTAssertEqual(long.refusal(for: s)?.kind, .unavailable)
    }

    func testTwoTrackersSharingOneSkillValueKeepTheirOwnCounts() {
        let s = skill()
        let a = tracker("a", [s]), b = tracker("b", [s])
        for k in 0..<20 {
            a.record(s, .succeeded(count: 1))
            if k % 2 == 0 { b.record(s, .succeeded(count: 1)) }
        }
        a.flush()
        b.flush()
        XCTAssertEqual(a.current(s.id).calls, 20)
        XCTAssertEqual(b.current(s.id).calls, 10)
        crash(b, s, times: 3)
        XCTAssertNotNil(b.refusal(for: s))
        XCTAssertNil(a.refusal(for: s), "b's quarantine is b's state folder's, not a's")
    }

    func testAReplacedFileStartsOverAndItsMemoIsItsOwn() {
        let old = skill(inode: 7)
        let t = tracker("a", [old])
        for _ in 0..<3 { t.record(old, .succeeded(count: 1)) }
        crash(t, old, times: 3)
        XCTAssertNotNil(t.refusal(for: old))
        // The same id from a new file (a new registered value, a new memo): not quarantined, counted anew.
        let new = skill(inode: 8)
        t.setFiles([new.id: FileIdentity(new.file)])
        XCTAssertNil(t.refusal(for: new))
        for _ in 0..<4 { t.record(new, .succeeded(count: 1)) }
        t.flush()
        let h = t.current(new.id)
        XCTAssertEqual(h.state, .ok)
        XCTAssertEqual(h.file, FileIdentity(new.file))
    }
}
