import Dispatch
import Glibc

/// The task executor that tasks making calls prefer (`Task(executorPreference: CallExecutor.shared)`;
/// child tasks inherit it), so that a worker's reply can resume the waiting task on the worker's reader
/// thread instead of waking a pool thread: a call alone on its worker then costs one thread wake-up per
/// round trip (the reader's), not two.
///
/// Every job goes to Dispatch's global queue, as without a preference, except one: the job a reader
/// thread makes runnable inside `InlineSlot.resuming(alone: true)`, which that reader runs itself
/// before it polls again (`InlineSlot.drain`).
///
/// Why this is safe:
/// - Inline only when the completed call was its worker's only request in flight (`alone`): no other
///   reply can wait behind the code that now runs on the reader thread. A reply while others are in
///   flight, a deadline (timer thread), a death (the finalizer) resume through Dispatch as before.
/// - The resumed task runs on the reader thread until it next suspends: the rest of the call (output
///   schema, health, audit) and its caller's code. Meanwhile this worker's channel is not read (a new
///   call to the same worker waits that long for its reply); a caller that blocks a thread on a call
///   from async code would deadlock, which `runBlocking`'s contract already forbids.
/// - Reader threads have a main thread's stack (`WorkerProcess.readerStackSize`).
/// A scoped `withTaskExecutorPreference` would not do: entering and leaving the scope each hop
/// through the executors (measured), which costs more than the wake-up it saves.
///
/// Threading: `enqueue` is called on any thread; an `InlineSlot` is touched by its reader thread only.
final class CallExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = CallExecutor()

    /// The current thread's `InlineSlot` (reader threads only).
    private let slotKey: pthread_key_t

    private init() {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { fatalError("skillhost: pthread_key_create failed") }
        slotKey = key
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if let raw = pthread_getspecific(slotKey) {
            let slot = Unmanaged<InlineSlot>.fromOpaque(raw).takeUnretainedValue()
            if slot.open {
                slot.open = false
                slot.ready = job
                return
            }
        }
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }

    /// Makes the current thread a reader thread; the slot lives as long as the thread uses it.
    func adoptCurrentThread(_ slot: InlineSlot) {
        pthread_setspecific(slotKey, Unmanaged.passUnretained(slot).toOpaque())
    }

    /// The current thread is no longer a reader thread (call before `slot` goes away).
    func leaveCurrentThread() { pthread_setspecific(slotKey, nil) }

    /// Whether the current thread is a worker's reader thread (for tests and assertions).
    var onReaderThread: Bool { pthread_getspecific(slotKey) != nil }
}

/// A reader thread's side of `CallExecutor`. Reader thread only.
final class InlineSlot: @unchecked Sendable {
    fileprivate var open = false
    /// The one job resumed inline since the last drain: `open` lets one job in, and a second lone call
    /// cannot complete before that job runs (it would have to be sent by it).
    fileprivate var ready: UnownedJob?

    init() {}

    /// Resolves `pending` with `value` (which resumes a waiting call); the call's task may continue on
    /// this thread if `alone`. Returns what `Pending.resolve` does.
    @discardableResult
    func resuming<Value>(alone: Bool, _ pending: Pending<Value>, with value: consuming Value) -> Bool {
        open = alone
        defer { open = false }
        return pending.resolve(value)
    }

    /// Runs the task resumed inline since the last drain, if any; true when there was one.
    @discardableResult
    func drain() -> Bool {
        guard let job = ready else { return false }
        ready = nil
        job.runSynchronously(on: CallExecutor.shared.asUnownedTaskExecutor())
        return true
    }
}

/// Starts `operation` as a task that prefers `CallExecutor` (its child tasks inherit the preference):
/// what every surface uses for the task that serves one request (a CLI command through `runBlocking`,
/// an MCP request, an `ask`), so that worker replies can resume it without a thread hand-off.
@discardableResult
public func startCallTask<T: Sendable>(_ operation: sending @escaping () async -> T) -> Task<T, Never> {
    Task(executorPreference: CallExecutor.shared, operation: operation)
}

/// `startCallTask`, but the task starts on the calling thread and runs there until it first suspends
/// (`Task.immediate`): for a surface's reader thread (MCP's stdin reader) whose request may complete at
/// once, which is then answered with no thread hand-off. Only for work that does not block before it
/// first suspends.
@discardableResult
public func startCallTaskHere<T: Sendable>(_ operation: sending @escaping () async -> T) -> Task<T, Never> {
    Task.immediate(executorPreference: CallExecutor.shared, operation: operation)
}
