import Synchronization

/// What the workers of one `WorkerRuntime` did that no call's outcome shows: a skill completing one
/// call twice (the worker keeps the first completion and reports the second; see the worker's
/// `ServedCalls`). Outlives each worker process, so a count survives a restart. `skillhost validate`
/// reads it for its exactly-once check; the host's calls do not depend on it. Thread-safe.
final class WorkerEvents: Sendable {
    private let completedTwice = Mutex<[String: Int]>([:])

    /// A worker reported that the skill called complete() a second time for a call of `intent`.
    func recordCompletedTwice(intent: String) {
        completedTwice.withLock { $0[intent, default: 0] += 1 }
    }

    /// Intent → how many of its calls were completed twice, since this runtime was created.
    var completionsTwice: [String: Int] { completedTwice.withLock { $0 } }
}
