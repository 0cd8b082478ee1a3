import Dispatch
import Synchronization

/// A value that arrives once, from any thread, and that one task awaits without holding a thread:
/// a call's completion from a worker's reader thread, a health answer, a turn at a serialized skill.
///
/// The first of `resolve` and `expire` wins; later ones return false and change nothing. `wait`
/// suspends the awaiting task (no thread is parked) until then, or until its deadline passes (the
/// deadline fires on `HostTimers`' own thread, whatever else is running): then the value is `nil`,
/// and a late `resolve` returns false so that its caller can drop and log it.
/// Threading: every method may be called from any thread; at most one task may `wait`.
/// The continuation is an `UnsafeContinuation` (no checking object allocated per wait): the state
/// below hands it out exactly once, to the one `settle` that moves `waiting` to `settled`, or resumes
/// it in `wait` itself when the value was already there.
/// Not final: `WorkerWaiter` is a `Pending` with a call's details, one object per call.
///
/// The fields are not of composite generic types (no `Mutex<State<Value>>`): a generic class's
/// deinit is not specialized, and destroying such a field looked up three metadata at run time (about
/// 1 k instructions per call). The lock guards a non-generic phase; the value lives in `slot`, a
/// pointer (trivial to destroy), written once by the winning `settle` under the lock.
class Pending<Value: Sendable>: @unchecked Sendable {
    private let phase = Mutex<PendingPhase>(.open)
    private let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)

    init() {}

    deinit {
        if case .settled(hasValue: true) = phase.withLock({ $0 }) { slot.deinitialize(count: 1) }
        slot.deallocate()
    }

    /// Delivers the value; false if the wait already ended (resolved before, or expired).
    @discardableResult
    final func resolve(_ value: consuming Value) -> Bool { settle(value) }

    /// Ends the wait without a value (a deadline, a cancellation); false if it had already ended.
    @discardableResult
    final func expire() -> Bool { settle(nil) }

    /// True once resolved or expired.
    final var isSettled: Bool {
        phase.withLock { p in if case .settled = p { return true } else { return false } }
    }

    /// The value is moved into the slot (not copied) by the winner.
    private func settle(_ value: consuming Value?) -> Bool {
        var value = value
        let (won, waiter) = phase.withLock { p -> (Bool, UnsafeContinuation<Void, Never>?) in
            let waiter: UnsafeContinuation<Void, Never>?
            switch p {
            case .open: waiter = nil
            case .waiting(let k): waiter = k
            case .settled: return (false, nil)
            }
            let hasValue = value != nil
            if let v = value.take() { slot.initialize(to: v) }
            p = .settled(hasValue: hasValue)
            return (true, waiter)
        }
        waiter?.resume()
        return won
    }

    /// The value once settled (nil: expired), moved out of the slot (the one waiter takes it, so the
    /// deinit of this generic class, which is not specialized, has nothing left to destroy through
    /// value witnesses); nil while not settled. Under the lock.
    private func takeSettled() -> Value?? {
        phase.withLock { p -> Value?? in
            guard case .settled(let hasValue) = p else { return nil }
            guard hasValue else { return .some(nil) }
            p = .settled(hasValue: false)
            return .some(slot.move())
        }
    }

    /// The value, or nil if `deadline` passed (or `expire` was called) first.
    nonisolated(nonsending) final func wait(until deadline: DispatchTime? = nil) async -> Value? {
        // Fast path (no suspension, no timer).
        if let value = takeSettled() { return value }
        let timer = deadline.map { d in HostTimers.shared.schedule(at: d, target: self) }
        await withUnsafeContinuation { (k: UnsafeContinuation<Void, Never>) in
            let ready = phase.withLock { p -> Bool in
                switch p {
                case .open:
                    p = .waiting(k)
                    return false
                case .settled:
                    return true
                case .waiting:
                    preconditionFailure("Pending: a second task waits for the same value")
                }
            }
            if ready { k.resume() }
        }
        if let timer { HostTimers.shared.cancel(timer) }
        // Settled: the `settle` that resumed us (or found us settled) wrote the slot before.
        return takeSettled() ?? nil
    }
}

/// A deadline that passes ends the wait (`expire`); the timer fires the pending itself, so a wait
/// allocates no closure for its deadline.
extension Pending: TimerTarget {
    final func timerFired() { _ = expire() }
}

/// Where a `Pending` is. Not nested in `Pending`: a type nested in a generic class is generic too.
private enum PendingPhase {
    case open
    case waiting(UnsafeContinuation<Void, Never>)
    /// The pending's slot holds a value when `hasValue`; nil (an expiry) otherwise.
    case settled(hasValue: Bool)
}

/// Opens once; every task waiting for it then goes on (a worker's readiness: hello, a load failure,
/// or its end). Waiting never holds a thread. Thread-safe.
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [Pending<Void>])>((false, []))

    init() {}

    var isOpen: Bool { state.withLock { $0.open } }

    /// Opens the latch (later calls do nothing) and wakes every waiter.
    func open() {
        let waiters = state.withLock { s -> [Pending<Void>] in
            guard !s.open else { return [] }
            s.open = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for w in waiters { w.resolve(()) }
    }

    /// True once the latch is open; false if `deadline` passed first.
    nonisolated(nonsending) func wait(until deadline: DispatchTime) async -> Bool {
        if isOpen { return true }  // the usual case (a ready worker, every call): nothing allocated
        let p = Pending<Void>()
        let open = state.withLock { s -> Bool in
            if s.open { return true }
            s.waiters.removeAll { $0.isSettled }  // drop waiters that already gave up
            s.waiters.append(p)
            return false
        }
        if open { return true }
        return await p.wait(until: deadline) != nil
    }
}

/// A value that arrives once and that any number of tasks await (each with its own deadline).
/// Thread-safe.
final class Broadcast<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let latch = Latch()

    init() {}

    var isSettled: Bool { latch.isOpen }

    /// Delivers the value to every waiter, present and future; later calls do nothing.
    func resolve(_ v: Value) {
        value.withLock { if $0 == nil { $0 = v } }
        latch.open()
    }

    /// The value, or nil if `deadline` passed first.
    nonisolated(nonsending) func wait(until deadline: DispatchTime) async -> Value? {
        guard await latch.wait(until: deadline) else { return nil }
        return value.withLock { $0 }
    }
}

/// One holder at a time, in arrival order, without holding a thread while waiting: a skill without
/// SKH_SKILL_THREAD_SAFE gets its next call only after the previous one finished. Thread-safe.
final class AsyncGate: Sendable {
    private let state = Mutex<(busy: Bool, queue: [Pending<Void>], head: Int)>((false, [], 0))

    init() {}

    /// Waits for the gate; true when this caller holds it (and must `leave`), false if `deadline`
    /// passed or `cancellation` fired first.
    nonisolated(nonsending) func enter(until deadline: DispatchTime, cancellation: Cancellation? = nil) async -> Bool {
        let p = state.withLock { s -> Pending<Void>? in
            if !s.busy { s.busy = true; return nil }
            let p = Pending<Void>()
            s.queue.append(p)
            return p
        }
        guard let p else { return true }
        cancellation?.onCancel { p.expire() }
        return await p.wait(until: deadline) != nil
    }

    /// Hands the gate to the next waiter that is still waiting, or frees it.
    func leave() {
        state.withLock { s in
            while s.head < s.queue.count {
                let next = s.queue[s.head]
                s.head += 1
                if s.head > 64 && s.head * 2 > s.queue.count {
                    s.queue.removeFirst(s.head)
                    s.head = 0
                }
                if next.resolve(()) { return }
            }
            s.queue.removeAll()
            s.head = 0
            s.busy = false
        }
    }
}

/// Runs `body` on a task and blocks the calling thread until it returns:
/// the bridge for synchronous callers at the edge (a CLI command's main thread, a benchmark loop).
/// Never call it from async code or from a thread the concurrency pool or a worker's reader needs.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let v = await body()
        result.withLock { $0 = v }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
