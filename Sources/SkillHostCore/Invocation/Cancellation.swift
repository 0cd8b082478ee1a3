import Synchronization

/// A caller's request to stop a call (Ctrl-C at a terminal, `notifications/cancelled` over MCP).
///
/// The surface creates one per call and calls `cancel()` from any thread (a signal handler's queue,
/// say). The runtime running the call registers what cancelling means for it with `onCancel`: tell the
/// skill (the ABI's `is_cancelled` turns true; a worker gets a `cancel` frame) and, if the skill has
/// not completed after a grace period, stop waiting — in a worker, by stopping the worker. The call
/// then ends with error kind `cancelled`. Thread-safe; handlers run once, on the thread that cancels
/// (or at once, on the registering thread, if the call was already cancelled).
public final class Cancellation: @unchecked Sendable {
    /// What cancelling runs: a closure, or an object that is already there for the call (a worker
    /// call's waiter), which costs no allocation.
    private enum Handler {
        case closure(@Sendable () -> Void)
        case target(any CancelTarget)

        func run() {
            switch self {
            case .closure(let f): f()
            case .target(let t): t.callCancelled()
            }
        }
    }

    /// Guards the fields below. Not a `Mutex<State>`: destroying a mutex around a non-trivial value
    /// goes through its value witnesses (about 1 k instructions per call, by callgrind), and one of
    /// these is made for every call.
    private let lock = Mutex(())
    private var cancelled = false
    /// The first handler apart (a call usually registers exactly one): no array allocated per call.
    private var first: Handler?
    private var more: [Handler] = []

    public init() {}

    public var isCancelled: Bool { lock.withLock { _ in cancelled } }

    /// Cancels the call. Later calls do nothing.
    public func cancel() {
        let (first, more) = lock.withLock { _ -> (Handler?, [Handler]) in
            guard !cancelled else { return (nil, []) }
            cancelled = true
            defer { (self.first, self.more) = (nil, []) }
            return (self.first, self.more)
        }
        first?.run()
        for h in more { h.run() }
    }

    /// Registers `handler` for `cancel()`; runs it now if the call is already cancelled.
    func onCancel(_ handler: @escaping @Sendable () -> Void) { add(.closure(handler)) }

    /// Registers `target` for `cancel()` (its `callCancelled`); runs it now if the call is already cancelled.
    func onCancel(_ target: any CancelTarget) { add(.target(target)) }

    private func add(_ handler: Handler) {
        let now = lock.withLock { _ -> Bool in
            if cancelled { return true }
            if first == nil { first = handler } else { more.append(handler) }
            return false
        }
        if now { handler.run() }
    }

    /// How long a skill gets, after being told, to complete with SKH_STATUS_CANCELLED.
    static let graceMs = 500
}

/// An object that hears of its call's cancellation (see `Cancellation.onCancel(_:)`): called once, on
/// the thread that cancels, or at once on the registering thread if the call was already cancelled.
protocol CancelTarget: AnyObject, Sendable {
    func callCancelled()
}
