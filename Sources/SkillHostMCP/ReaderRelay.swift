import Dispatch
import SkillWire
import Synchronization

/// Lets a thread that reads requests (MCP's stdin reader, an HTTP connection's reader) start a call on
/// itself, so that a call that completes at once is answered with no thread hand-off, without being
/// held by a call that does not let go: once the thread has been inside `run` for `patience`, a new
/// thread starts `takeOver`, which carries on the reading, and `run` returns false when the work ends:
/// the thread that was held must then stop reading and end.
///
/// What holds a reader this way is a trusted (in-process) skill whose `invoke()` blocks or computes
/// for long before it returns (the ABI says it must not; a trusted skill is trusted with the process,
/// not with time): `ping`, `notifications/cancelled` and calls to other skills are read meanwhile. A
/// call that waits (a worker's answer, a skill completing later) leaves the reader at its first wait.
///
/// Hand-over: exactly one of `run` returning and the new thread's start wins the entry (under the
/// lock); the loser does nothing, so the reading never has two threads or none. Everything the held
/// thread wrote before `run` is visible to the new one (the lock orders them).
///
/// Cost per `run`: a clock read and two short lock holds; no thread is woken. A watch thread (one per
/// process) looks every `patience / 2` while a `run` is in progress or one began in the last second,
/// and otherwise sleeps until the next `run` wakes it.
final class ReaderRelay: Sendable {
    static let shared = ReaderRelay(patienceMs: 20)
    /// The new reader's stack: a reader runs the start of calls, like the main thread.
    static let readerStackSize = 8 << 20

    private struct Held {
        let since: UInt64
        let takeOver: @Sendable () -> Void
        /// A new thread was started to take this reader's place (it claims the entry when it runs).
        var relayed = false
    }
    private struct State {
        var held: [UInt64: Held] = [:]
        var next: UInt64 = 0
        var lastRun: UInt64 = 0
        var watching = false
        var asleep = false
    }
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let patience: UInt64

    init(patienceMs: Int) { patience = UInt64(patienceMs) * 1_000_000 }

    /// Runs `work` on the calling thread; true when this thread is still the reader afterwards, false
    /// when `takeOver` took its place meanwhile (on a thread of its own).
    func run(_ work: () -> Void, takeOver: @escaping @Sendable () -> Void) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let (key, signal, start) = state.withLock { s -> (UInt64, Bool, Bool) in
            s.next += 1
            s.held[s.next] = Held(since: now, takeOver: takeOver)
            s.lastRun = now
            defer { s.asleep = false; s.watching = true }
            return (s.next, s.asleep, !s.watching)
        }
        if signal { wake.signal() }
        if start && !startDetachedThread({ self.watch() }) { state.withLock { $0.watching = false } }
        work()
        return state.withLock { $0.held.removeValue(forKey: key) != nil }
    }

    private func watch() {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (due, sleep) = state.withLock { s -> ([UInt64], Bool) in
                var due: [UInt64] = []
                for (key, h) in s.held where !h.relayed && now > h.since && now - h.since >= patience {
                    s.held[key]!.relayed = true
                    due.append(key)
                }
                let sleep = s.held.isEmpty && now > s.lastRun && now - s.lastRun > 1_000_000_000
                if sleep { s.asleep = true }
                return (due, sleep)
            }
            for key in due {
                let started = startDetachedThread(stackSize: Self.readerStackSize) { [self] in
                    if let takeOver = state.withLock({ $0.held.removeValue(forKey: key)?.takeOver }) { takeOver() }
                }
                if !started { state.withLock { s in s.held[key]?.relayed = false } }  // tried again next time
            }
            if sleep { wake.wait() } else { _ = wake.wait(timeout: .now() + .nanoseconds(Int(patience / 2))) }
        }
    }
}
