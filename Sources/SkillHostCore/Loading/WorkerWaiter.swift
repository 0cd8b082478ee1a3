import Dispatch
import Synchronization

/// One thing a caller waits for from a worker: a call's completion or a health answer.
///
/// Threading: `resolve` is called once by the worker's reader thread (an answer) or by the worker's
/// finalizer (its death); the first resolution wins, later ones are ignored. `wait` is called by the
/// one caller. Ownership: held by the caller and, until resolved, by the worker's table of pending
/// requests.
final class WorkerWaiter<Value: Sendable>: Sendable {
    /// The intent of a call (nil for a health probe), for messages.
    let intent: String?
    /// Progress reports of a call, called on the worker's reader thread.
    let progress: (@Sendable (UInt32, UInt32, String?) -> Void)?
    private let outcome = Mutex<Result<Value, SkillError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(intent: String?, progress: (@Sendable (UInt32, UInt32, String?) -> Void)? = nil) {
        self.intent = intent
        self.progress = progress
    }

    /// Delivers the outcome; returns false if one was delivered before.
    @discardableResult
    func resolve(_ r: Result<Value, SkillError>) -> Bool {
        let first = outcome.withLock { o -> Bool in
            guard o == nil else { return false }
            o = r
            return true
        }
        if first { done.signal() }
        return first
    }

    /// The outcome, or nil if none arrived before `deadline`.
    func wait(until deadline: DispatchTime) -> Result<Value, SkillError>? {
        guard done.wait(timeout: deadline) == .success else {
            return outcome.withLock { $0 }  // resolved between the timeout and here
        }
        return outcome.withLock { $0 }
    }
}

/// A health answer from a worker.
struct WorkerHealthAnswer: Sendable {
    var status: Int32
    /// False when the skill has no health function.
    var declared: Bool
    var detail: JSON?
}
