import Dispatch
import Synchronization
import XCTest
@testable import SkillHostCore

/// `Pending` keeps its value in a slot it frees itself: the first of resolve and expire wins, the
/// waiter gets exactly that, and every value is destroyed exactly once — resolved before or after
/// the wait, expired, resolved late, or never waited for.
final class PendingTests: XCTestCase {
    /// Counts live instances, so a leak or a double destroy shows.
    final class Counted: Sendable {
        static let live = Atomic<Int>(0)
        let n: Int
        init(_ n: Int) { self.n = n; Self.live.add(1, ordering: .relaxed) }
        deinit { Self.live.subtract(1, ordering: .relaxed) }
    }

    override func setUp() { XCTAssertEqual(Counted.live.load(ordering: .relaxed), 0) }
    override func tearDown() { XCTAssertEqual(Counted.live.load(ordering: .relaxed), 0, "a value leaked or was destroyed twice") }

    func testAValueResolvedBeforeTheWaitIsReturnedAndALaterResolveLoses() async {
        let p = Pending<Counted>()
        XCTAssertTrue(p.resolve(Counted(1)))
        XCTAssertFalse(p.resolve(Counted(2)))
        XCTAssertFalse(p.expire())
        XCTAssertTrue(p.isSettled)
        let v = await p.wait()
        XCTAssertEqual(v?.n, 1)
        XCTAssertEqual(Counted.live.load(ordering: .relaxed), 1)  // the winner alone: the losing value is gone
    }

    func testAWaiterIsResumedByAResolveFromAnotherThread() async {
        let p = Pending<Counted>()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { p.resolve(Counted(7)) }
        let v = await p.wait(until: .now() + .seconds(10))
        XCTAssertEqual(v?.n, 7)
    }

    func testADeadlineEndsTheWaitWithNilAndALateResolveIsRefused() async {
        let p = Pending<Counted>()
        let v = await p.wait(until: .now() + .milliseconds(20))
        XCTAssertNil(v)
        XCTAssertFalse(p.resolve(Counted(3)), "the late value is the caller's to drop")
    }

    func testExpiredBeforeTheWaitIsNilAndAValueNeverWaitedForIsFreed() async {
        let p = Pending<Counted>()
        XCTAssertTrue(p.expire())
        let v = await p.wait()
        XCTAssertNil(v)
        let q = Pending<Counted>()
        q.resolve(Counted(4))  // nobody waits: freed with q
    }

    func testManyRacingResolvesAndExpiriesDeliverExactlyTheWinner() async {
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<500 {
                group.addTask {
                    let p = Pending<Counted>()
                    let won = Atomic<Int>(-1)
                    DispatchQueue.global().async { if p.resolve(Counted(i)) { won.store(i, ordering: .relaxed) } }
                    DispatchQueue.global().async { if p.expire() { won.store(-2, ordering: .relaxed) } }
                    let v = await p.wait(until: .now() + .seconds(10))
                    while won.load(ordering: .relaxed) == -1 { usleep(100) }
                    let w = won.load(ordering: .relaxed)
                    XCTAssertEqual(v?.n, w == -2 ? nil : w)
                }
            }
        }
    }

    /// HostTimers reuses a slot once its action has run or been cancelled: a token kept after its
    /// cancel (or its run) must not cancel the action that took its slot next.
    func testAStaleTimerTokenDoesNotCancelTheActionThatReusedItsSlot() {
        let timers = HostTimers.shared
        let firstRan = Atomic<Bool>(false)
        let first = timers.schedule(at: .now() + .seconds(3600)) { firstRan.store(true, ordering: .relaxed) }
        timers.cancel(first)
        let fired = DispatchSemaphore(value: 0)
        let second = timers.schedule(at: .now() + .milliseconds(20)) { fired.signal() }
        timers.cancel(first)  // stale: its slot may be the second's now
        XCTAssertEqual(fired.wait(timeout: .now() + .seconds(10)), .success, "the second action was cancelled by the first's token")
        timers.cancel(second)  // after its run: nothing to cancel, nothing breaks
        XCTAssertFalse(firstRan.load(ordering: .relaxed))
    }

    /// A wait's deadline fires the pending itself (`TimerTarget`); a cancelled deadline never fires.
    func testATimerTargetFiresAtItsDeadlineAndNotOnceCancelled() async {
        let p = Pending<Counted>()
        HostTimers.shared.schedule(at: .now() + .milliseconds(20), target: p)
        let v = await p.wait(until: .now() + .seconds(10))
        XCTAssertNil(v, "expired by the timer")
        let q = Pending<Counted>()
        let token = HostTimers.shared.schedule(at: .now() + .milliseconds(20), target: q)
        HostTimers.shared.cancel(token)
        try? await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertTrue(q.resolve(Counted(5)), "a cancelled deadline expired the pending")
    }
}
