import Dispatch
import Glibc
import SkillWire

/// Runs short actions at given instants, on ONE thread of its own (not Dispatch's pool, not the
/// Swift concurrency pool), so a deadline fires on time however many calls are in flight or blocked:
/// the timers that end calls never wait behind the calls they are meant to end.
///
/// Contract for actions: short and non-blocking (resolve a `Pending`, send a signal, start a thread).
/// An action that would block (a clean worker shutdown) must start its own thread.
/// Threading: `schedule` and `cancel` may be called from any thread; actions run on the timer thread,
/// one at a time, in deadline order. A cancelled action never runs; one already running is not stopped.
final class HostTimers: @unchecked Sendable {
    static let shared = HostTimers()

    /// Names one scheduled action, for `cancel`.
    struct Token: Sendable { fileprivate let id: UInt64 }

    // Guarded by `mutex`:
    private var heap: [(at: UInt64, id: UInt64)] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 1
    private var started = false
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        cond = .allocate(capacity: 1)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    /// Runs `action` at `deadline` (at once, on the timer thread, if it has passed).
    @discardableResult
    func schedule(at deadline: DispatchTime, _ action: @escaping @Sendable () -> Void) -> Token {
        pthread_mutex_lock(mutex)
        if !started {
            started = true
            if !startDetachedThread(stackSize: 256 * 1024, { [self] in loop() }) {
                fatalError("skillhost: cannot start the timer thread (pthread_create failed)")
            }
        }
        let id = nextID
        nextID += 1
        actions[id] = action
        let at = deadline.uptimeNanoseconds
        // The thread sleeps until the earliest entry (live or cancelled): wake it only when this one
        // comes first. Calls with the same timeout in a row then cost no wake-up at all.
        let wake = heap.first.map { at < $0.at } ?? true
        push((at, id))
        // Compact when cancelled entries dominate (each call schedules a deadline it usually cancels).
        if heap.count > 1024 && heap.count > 4 * actions.count { rebuild() }
        if wake { pthread_cond_signal(cond) }
        pthread_mutex_unlock(mutex)
        return Token(id: id)
    }

    /// Runs `action` after `milliseconds`.
    @discardableResult
    func schedule(afterMs milliseconds: Int, _ action: @escaping @Sendable () -> Void) -> Token {
        schedule(at: .now() + .milliseconds(milliseconds), action)
    }

    /// Forgets a scheduled action; it will not run (unless it is already running).
    func cancel(_ token: Token) {
        pthread_mutex_lock(mutex)
        actions[token.id] = nil
        pthread_mutex_unlock(mutex)
    }

    // MARK: - The timer thread

    private func loop() {
        pthread_mutex_lock(mutex)
        while true {
            guard let top = heap.first else {
                pthread_cond_wait(cond, mutex)
                continue
            }
            guard actions[top.id] != nil else { _ = pop(); continue }
            if top.at <= CallDeadline.uptimeNow() {
                _ = pop()
                let action = actions.removeValue(forKey: top.id)!
                pthread_mutex_unlock(mutex)
                action()
                pthread_mutex_lock(mutex)
                continue
            }
            // Sleep until the earliest deadline (or a new, earlier one). The condition waits on
            // CLOCK_MONOTONIC, the clock of `DispatchTime.uptimeNanoseconds` and `CallDeadline`: a
            // deadline is already the instant to wake at.
            var ts = timespec(tv_sec: Int(top.at / 1_000_000_000), tv_nsec: Int(top.at % 1_000_000_000))
            _ = pthread_cond_timedwait(cond, mutex, &ts)
        }
    }

    // MARK: - Min-heap by deadline (guarded by `mutex`)

    private func push(_ e: (at: UInt64, id: UInt64)) {
        heap.append(e)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].at < heap[parent].at else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private func pop() -> (at: UInt64, id: UInt64) {
        let first = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return first
    }

    private func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count && heap[l].at < heap[m].at { m = l }
            if r < heap.count && heap[r].at < heap[m].at { m = r }
            if m == i { return }
            heap.swapAt(i, m)
            i = m
        }
    }

    private func rebuild() {
        heap.removeAll { actions[$0.id] == nil }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }
}
