import Glibc
import SkillHostCore
import SkillWire
import Synchronization

/// One MCP client's conversation with the server: what `initialize` said (the client's name, which is
/// its `Caller`), the log level it asked for, its calls in flight (for `notifications/cancelled`), the
/// tools it last saw (to announce a change only when there is one), and where messages that answer no
/// request go (`notifications/tools/list_changed`, log lines). The stdio transport has one session; the
/// HTTP transport one per `Mcp-Session-Id`.
final class MCPSession: Sendable {
    /// The `Mcp-Session-Id` (HTTP), or nil (stdio).
    let id: String?

    struct State {
        var initialized = false
        var clientName = "mcp-client"
        var protocolVersion = MCPServer.protocolVersions[0]
        var logLevel = 1  // info
        /// Calls in flight by request id (serialized), for notifications/cancelled.
        var inFlight: [String: Cancellation] = [:]
        /// The tools last listed (their JSON), to announce a change only when there is one.
        var listed: [String]?
        /// Messages that answer no request; nil while the client has no channel open for them (an HTTP
        /// client without its GET stream).
        var channel: (@Sendable (JSON) -> Void)?
        /// When the client last sent anything (CLOCK_MONOTONIC seconds), for idle expiry.
        var lastSeen = MCPSession.monotonicSeconds()
    }
    let state: Mutex<State>

    /// A session whose messages without a request go to `channel` (nil: none yet).
    init(id: String? = nil, channel: (@Sendable (JSON) -> Void)? = nil) {
        self.id = id
        state = Mutex(State(channel: channel))
    }

    /// The session in audit lines: the first 12 characters of its id (enough to tell sessions apart,
    /// not enough to use the id); nil for stdio.
    var auditName: String? { id.map { String($0.prefix(12)) } }

    /// Sends a message that answers no request, if the client has a channel open for it.
    func sendUnrequested(_ message: JSON) {
        let channel = state.withLock { $0.channel }
        channel?(message)
    }

    /// Cancels every call of the session still running (the client is gone).
    func cancelAll() {
        let running = state.withLock { Array($0.inFlight.values) }
        for c in running { c.cancel() }
    }

    /// The monotonic clock now (`CallDeadline.uptimeNow`), in seconds.
    static func monotonicSeconds() -> Double { Double(CallDeadline.uptimeNow()) / 1e9 }
}

/// Where the messages about one request go: notifications tied to it (its progress, the log lines of a
/// call) through `notify`, then its response, exactly once, through `finish` (nil: a cancelled request,
/// which gets no response).
struct MCPReply: Sendable {
    let notify: @Sendable (JSON) -> Void
    let finish: @Sendable (RPCMessage?) -> Void

    init(notify: @escaping @Sendable (JSON) -> Void, finish: @escaping @Sendable (RPCMessage?) -> Void) {
        (self.notify, self.finish) = (notify, finish)
    }
}
