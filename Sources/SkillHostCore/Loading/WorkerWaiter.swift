import Dispatch

/// One thing a caller waits for from a worker: a call's completion or a health answer.
///
/// A `Pending` outcome (`resolve`, and `wait(until:)`: nil if none arrived before the deadline, and a
/// later one is then refused by `resolve`) with the call's details.
/// Threading: `resolve` is called by the worker's reader thread (an answer), by the worker's
/// finalizer (its death) or by a timer (a cancellation's grace period); the first resolution wins,
/// later ones are ignored. `wait` is awaited by the one caller's task, which holds no thread meanwhile.
/// Ownership: held by the caller and, until resolved, by the worker's table of pending requests (and,
/// for a call, by its `Cancellation` until it is cancelled or freed: the waiter holds its worker meanwhile).
final class WorkerWaiter<Value: Sendable>: Pending<Result<Value, SkillError>>, @unchecked Sendable {
    /// The intent of a call (nil for a health probe), for messages.
    let intent: String?
    /// Progress reports of a call, called on the worker's reader thread.
    let progress: (@Sendable (UInt32, UInt32, String?) -> Void)?

    /// The worker a call went to and its request id (set once, before the waiter is registered for
    /// its call's cancellation): what `callCancelled` needs. Nil for a health probe.
    let worker: WorkerProcess?
    var id: UInt64 = 0

    init(intent: String?, progress: (@Sendable (UInt32, UInt32, String?) -> Void)? = nil, worker: WorkerProcess? = nil) {
        self.intent = intent
        self.progress = progress
        self.worker = worker
    }
}

/// A worker call's waiter is its cancellation handler (no closure allocated per call): see
/// `WorkerProcess.cancelled(_:)`.
extension WorkerWaiter: CancelTarget where Value == RawCompletion {
    func callCancelled() { worker?.cancelled(self) }
}

/// A health answer from a worker.
struct WorkerHealthAnswer: Sendable {
    var status: Int32
    /// False when the skill has no health function.
    var declared: Bool
    var detail: JSON?
}
