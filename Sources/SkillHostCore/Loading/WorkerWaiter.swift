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

/// A worker's waiters by request id (its calls, or its health probes). The first waiter filed while
/// none is has a slot of its own: a worker mostly has one request in flight, which is then filed and
/// found with no hashing; more at once go to a dictionary.
/// Not thread-safe: a field of `WorkerProcess.State`, used under its lock.
struct WaiterTable<Value: Sendable> {
    /// The id of `lone` (0, which no request has, when it is empty).
    private var loneID: UInt64 = 0
    private var lone: WorkerWaiter<Value>?
    private var others: [UInt64: WorkerWaiter<Value>] = [:]

    var isEmpty: Bool { lone == nil && others.isEmpty }

    /// Files `waiter` under `id` (a new id: none is filed under it).
    mutating func insert(_ waiter: WorkerWaiter<Value>, id: UInt64) {
        if lone == nil {
            (loneID, lone) = (id, waiter)
        } else {
            others[id] = waiter
        }
    }

    /// The waiter filed under `id`, if any.
    subscript(id: UInt64) -> WorkerWaiter<Value>? {
        if id == loneID, let lone { return lone }
        return others.isEmpty ? nil : others[id]
    }

    /// Takes out the waiter filed under `id`, if any.
    mutating func remove(_ id: UInt64) -> WorkerWaiter<Value>? {
        if id == loneID, let w = lone {
            (loneID, lone) = (0, nil)
            return w
        }
        return others.isEmpty ? nil : others.removeValue(forKey: id)
    }

    /// Takes out every waiter.
    mutating func removeAll() -> [WorkerWaiter<Value>] {
        var all = Array(others.values)
        if let lone { all.append(lone) }
        self = WaiterTable()
        return all
    }
}
