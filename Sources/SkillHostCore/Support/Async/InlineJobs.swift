import Glibc
import SkillAsyncC

/// Lets a worker's reply resume the waiting task on the worker's reader thread instead of waking a pool
/// thread: a call alone on its worker then costs one thread wake-up per round trip (the reader's), not
/// two. Any task gets this, with no executor preference to set: a task executor preference cost every
/// hop between async functions a locked look-up of the task's records (about 1.5 k instructions per
/// call, in-process calls included).
///
/// How: while a reader thread resumes a call that was its worker's only request in flight
/// (`InlineSlot.resuming(alone: true)`), its slot is open, and the Swift runtime's global-enqueue hook
/// (see skillhost_inline_jobs.h) keeps the job that the resume makes runnable instead of handing it to
/// the pool; the reader runs it (`InlineSlot.drain`) before it reads again. Every other job — a reply
/// while others are in flight, a deadline (timer thread), a death (the finalizer), a job for an actor —
/// goes where it would have gone.
///
/// Why this is safe:
/// - Inline only when the completed call was alone: no other reply waits behind the code that now runs
///   on the reader thread.
/// - The resumed task runs on the reader thread until it next suspends: the rest of the call (output
///   schema, health, audit) and its caller's code. Meanwhile this worker's channel is not read (a new
///   call to the same worker waits that long for its reply); a caller that blocks a thread on a call
///   from async code would deadlock, which `runBlocking`'s contract already forbids.
/// - Reader threads have a main thread's stack (`WorkerProcess.readerStackSize`).
///
/// Threading: `adoptCurrentThread`, `leaveCurrentThread` and an `InlineSlot` are used by their reader
/// thread only.
enum InlineJobs {
    /// Marks reader threads (for `onReaderThread`).
    private static let readerKey: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { fatalError("skillhost: pthread_key_create failed") }
        skh_inline_install()
        return key
    }()

    /// Makes the current thread a reader thread (installs the hook on first use).
    static func adoptCurrentThread() { pthread_setspecific(readerKey, UnsafeRawPointer(bitPattern: 1)) }

    /// The current thread is no longer a reader thread.
    static func leaveCurrentThread() { pthread_setspecific(readerKey, nil) }

    /// Whether the current thread is a worker's reader thread (for tests and assertions).
    static var onReaderThread: Bool { pthread_getspecific(readerKey) != nil }
}

/// A reader thread's kept job (see `InlineJobs`). Reader thread only.
final class InlineSlot: @unchecked Sendable {
    /// The one job resumed inline since the last drain: a second lone call cannot complete before that
    /// job runs (it would have to be sent by it).
    private var ready: UnsafeMutableRawPointer?

    init() {}

    /// Resolves `pending` with `value` (which resumes a waiting call); the call's task continues on
    /// this thread if `alone`. Returns what `Pending.resolve` does.
    @discardableResult
    func resuming<Value>(alone: Bool, _ pending: Pending<Value>, with value: consuming Value) -> Bool {
        guard alone else { return pending.resolve(value) }
        skh_inline_open()
        let resolved = pending.resolve(value)
        if let job = skh_inline_close() { ready = job }
        return resolved
    }

    /// Runs the task resumed inline since the last drain, if any; true when there was one.
    @discardableResult
    func drain() -> Bool {
        guard let job = ready else { return false }
        ready = nil
        skh_inline_run(job)
        return true
    }
}
