import Dispatch

/// One thing a caller waits for from a worker: a call's completion or a health answer.
///
/// Threading: `resolve` is called by the worker's reader thread (an answer), by the worker's
/// finalizer (its death) or by a timer (a cancellation's grace period); the first resolution wins,
/// later ones are ignored. `wait` is awaited by the one caller's task, which holds no thread meanwhile.
/// Ownership: held by the caller and, until resolved, by the worker's table of pending requests.
final class WorkerWaiter<Value: Sendable>: Sendable {
    /// The intent of a call (nil for a health probe), for messages.
    let intent: String?
    /// Progress reports of a call, called on the worker's reader thread.
    let progress: (@Sendable (UInt32, UInt32, String?) -> Void)?
    private let outcome = Pending<Result<Value, SkillError>>()

    init(intent: String?, progress: (@Sendable (UInt32, UInt32, String?) -> Void)? = nil) {
        self.intent = intent
        self.progress = progress
    }

    /// Delivers the outcome; returns false if one was delivered before (or the caller stopped waiting).
    @discardableResult
    func resolve(_ r: Result<Value, SkillError>) -> Bool { outcome.resolve(r) }

    /// The outcome, or nil if none arrived before `deadline` (a later one is then refused by `resolve`).
    nonisolated(nonsending) func wait(until deadline: DispatchTime) async -> Result<Value, SkillError>? {
        await outcome.wait(until: deadline)
    }
}

/// A health answer from a worker.
struct WorkerHealthAnswer: Sendable {
    var status: Int32
    /// False when the skill has no health function.
    var declared: Bool
    var detail: JSON?
}
