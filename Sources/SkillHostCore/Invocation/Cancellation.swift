import Synchronization

/// A caller's request to stop a call (Ctrl-C at a terminal, `notifications/cancelled` over MCP).
///
/// The surface creates one per call and calls `cancel()` from any thread (a signal handler's queue,
/// say). The runtime running the call registers what cancelling means for it with `onCancel`: tell the
/// skill (the ABI's `is_cancelled` turns true; a worker gets a `cancel` frame) and, if the skill has
/// not completed after a grace period, stop waiting — in a worker, by stopping the worker. The call
/// then ends with error kind `cancelled`. Thread-safe; handlers run once, on the thread that cancels
/// (or at once, on the registering thread, if the call was already cancelled).
public final class Cancellation: Sendable {
    /// The first handler apart (a call usually registers exactly one): no array allocated per call.
    private struct State {
        var cancelled = false
        var first: (@Sendable () -> Void)?
        var more: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the call. Later calls do nothing.
    public func cancel() {
        let (first, more) = state.withLock { s -> ((@Sendable () -> Void)?, [@Sendable () -> Void]) in
            guard !s.cancelled else { return (nil, []) }
            s.cancelled = true
            defer { (s.first, s.more) = (nil, []) }
            return (s.first, s.more)
        }
        first?()
        for h in more { h() }
    }

    /// Registers `handler` for `cancel()`; runs it now if the call is already cancelled.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.cancelled { return true }
            if s.first == nil { s.first = handler } else { s.more.append(handler) }
            return false
        }
        if now { handler() }
    }

    /// How long a skill gets, after being told, to complete with SKH_STATUS_CANCELLED.
    static let graceMs = 500
}
