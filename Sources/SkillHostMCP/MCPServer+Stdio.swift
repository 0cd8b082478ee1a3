import Dispatch
import SkillHostCore

/// The stdio transport's loop: one session, every message to and from it one line (`StdioTransport`).
extension MCPServer {
    /// Serves one client on stdin/stdout until standard input ends; then gives the calls still running
    /// a second to answer, cancels the rest, gives the answers not yet written (a client slow to read)
    /// up to 5 s to go out, and returns 0.
    public func run() -> Int32 {
        let transport = StdioTransport(maxLine: maxLine)
        let send: @Sendable (JSON) -> Void = { transport.send($0) }
        let session = MCPSession(channel: send)
        let reply = MCPReply(notify: send, finish: { if let m = $0 { transport.send(m) } })
        attach(session)
        // A call starts on the reading thread unless more requests are already waiting behind it (a
        // client with several in flight): those overlap on the pool instead of queueing behind each
        // other. A call that holds the reading thread (a trusted skill whose invoke() blocks) has
        // another thread carry on reading after a moment (`ReaderRelay`).
        transport.readLines({ [self] in receive(JSONRPC.classify($0), session: session, reply: reply, startsHere: !$1) }, tooLong: {
            transport.send(JSONRPC.error(.null, JSONRPC.invalidRequest, "Invalid Request: message longer than \(transport.maxLine) bytes"))
        })
        if calls.wait(timeout: .now() + .seconds(1)) == .timedOut {
            session.cancelAll()
            _ = calls.wait(timeout: .now() + .seconds(2))
        }
        transport.flush(within: 5)
        return 0
    }
}
