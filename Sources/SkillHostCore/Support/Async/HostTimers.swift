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

    /// Names one scheduled action, for `cancel`: its slot and the slot's generation when it was
    /// scheduled (a slot is reused once its action has run or been cancelled, with the next generation).
    struct Token: Sendable {
        fileprivate let slot: Int
        fileprivate let generation: UInt64
    }

    /// What runs when a timer fires: a closure, or an object's `timerFired` (no closure allocated: a
    /// call's deadline, one per call in flight).
    private enum Action {
        case closure(@Sendable () -> Void)
        case target(any TimerTarget)

        func run() {
            switch self {
            case .closure(let f): f()
            case .target(let t): t.timerFired()
            }
        }
    }

    /// One action's place. `action` is nil while the slot is free; `generation` counts its uses.
    private struct Slot {
        var action: Action?
        var generation: UInt64 = 0
    }

    /// Everything below is guarded by `mutex` (kept behind a pointer: a class's stored properties
    /// would be checked for exclusive access at run time on every schedule and cancel).
    private struct State {
        /// Min-heap by deadline of scheduled actions; an entry whose slot has moved on to another
        /// generation was cancelled (or has run) and is skipped.
        var heap: [(at: UInt64, slot: Int, generation: UInt64)] = []
        var slots: [Slot] = []
        /// Slots whose action has run or been cancelled, for the next `schedule`.
        var free: [Int] = []
        /// Scheduled actions that have neither run nor been cancelled.
        var live = 0
        var started = false
    }

    private let state: UnsafeMutablePointer<State>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    private init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
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
        schedule(at: deadline, .closure(action))
    }

    /// Calls `target.timerFired()` at `deadline` (at once, on the timer thread, if it has passed).
    @discardableResult
    func schedule(at deadline: DispatchTime, target: any TimerTarget) -> Token {
        schedule(at: deadline, .target(target))
    }

    /// Runs `action` after `milliseconds`.
    @discardableResult
    func schedule(afterMs milliseconds: Int, _ action: @escaping @Sendable () -> Void) -> Token {
        schedule(at: .now() + .milliseconds(milliseconds), .closure(action))
    }

    private func schedule(at deadline: DispatchTime, _ action: Action) -> Token {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let s = state
        if !s.pointee.started {
            s.pointee.started = true
            if !startDetachedThread(stackSize: 256 * 1024, { [self] in loop() }) {
                fatalError("skillhost: cannot start the timer thread (pthread_create failed)")
            }
        }
        let slot: Int
        if let i = s.pointee.free.popLast() {
            slot = i
        } else {
            slot = s.pointee.slots.count
            s.pointee.slots.append(Slot())
        }
        s.pointee.slots[slot].action = action
        s.pointee.live += 1
        let generation = s.pointee.slots[slot].generation
        let at = deadline.uptimeNanoseconds
        // The thread sleeps until the earliest entry (live or cancelled): wake it only when this one
        // comes first. Calls with the same timeout in a row then cost no wake-up at all.
        let wake = s.pointee.heap.first.map { at < $0.at } ?? true
        push((at, slot, generation))
        // Compact when cancelled entries dominate (each call schedules a deadline it usually cancels).
        if s.pointee.heap.count > 1024 && s.pointee.heap.count > 4 * s.pointee.live { rebuild() }
        if wake { pthread_cond_signal(cond) }
        return Token(slot: slot, generation: generation)
    }

    /// Forgets a scheduled action; it will not run (unless it is already running).
    func cancel(_ token: Token) {
        pthread_mutex_lock(mutex)
        if state.pointee.slots[token.slot].generation == token.generation { release(token.slot) }
        pthread_mutex_unlock(mutex)
    }

    /// Frees a slot whose action is due or cancelled (under `mutex`): its heap entry goes stale.
    private func release(_ slot: Int) {
        state.pointee.slots[slot].action = nil
        state.pointee.slots[slot].generation &+= 1
        state.pointee.free.append(slot)
        state.pointee.live -= 1
    }

    // MARK: - The timer thread

    private func loop() {
        let s = state
        pthread_mutex_lock(mutex)
        while true {
            guard let top = s.pointee.heap.first else {
                pthread_cond_wait(cond, mutex)
                continue
            }
            guard s.pointee.slots[top.slot].generation == top.generation else { _ = pop(); continue }
            if top.at <= CallDeadline.uptimeNow() {
                _ = pop()
                let action = s.pointee.slots[top.slot].action!
                release(top.slot)
                pthread_mutex_unlock(mutex)
                action.run()
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

    private func push(_ e: (at: UInt64, slot: Int, generation: UInt64)) {
        state.pointee.heap.append(e)
        siftUp(state.pointee.heap.count - 1)
    }

    private func siftUp(_ start: Int) {
        state.pointee.heap.withUnsafeMutableBufferPointer { heap in
            var i = start
            while i > 0 {
                let parent = (i - 1) / 2
                guard heap[i].at < heap[parent].at else { break }
                heap.swapAt(i, parent)
                i = parent
            }
        }
    }

    private func pop() -> (at: UInt64, slot: Int, generation: UInt64) {
        let first = state.pointee.heap[0]
        let last = state.pointee.heap.removeLast()
        if !state.pointee.heap.isEmpty {
            state.pointee.heap[0] = last
            siftDown(0)
        }
        return first
    }

    private func siftDown(_ start: Int) {
        state.pointee.heap.withUnsafeMutableBufferPointer { heap in
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
    }

    private func rebuild() {
        let slots = state.pointee.slots
        state.pointee.heap.removeAll { slots[$0.slot].generation != $0.generation }
        for i in stride(from: state.pointee.heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }
}

/// An object `HostTimers` can fire without a closure: `timerFired` runs on the timer thread, under
/// the same contract as a scheduled action (short, non-blocking).
protocol TimerTarget: AnyObject, Sendable {
    func timerFired()
}
