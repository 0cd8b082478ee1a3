import Dispatch
import Glibc
import SkillHostCore
import Synchronization

/// MCP's Streamable HTTP transport (revision 2025-11-25) at `/mcp`, over `HTTPServer`:
///
/// - `POST /mcp`: one JSON-RPC message. A notification or response gets 202 and no body; `tools/call`
///   gets a `text/event-stream` response carrying its progress and log notifications, then its
///   response (the client closing that stream cancels the call); every other request gets its
///   response as `application/json`. `initialize` starts a session: its id comes back in
///   `Mcp-Session-Id`, and every later request must carry it (400 without).
/// - `GET /mcp`: the session's stream for messages that answer no request
///   (`notifications/tools/list_changed`, log lines). A second GET replaces the first.
/// - `DELETE /mcp`: ends the session (200); later requests with its id get 404.
/// - Checked on every request, in this order: `Host` (421, see `HTTPAccess`), the path (404), `Origin`
///   (403), the bearer token (401 with `WWW-Authenticate: Bearer`), `MCP-Protocol-Version` when
///   present (400 if not one this server speaks), the method (405 with `Allow`); for POST also `Accept`
///   (406) and `Content-Type` (415), and the body (400 with a JSON-RPC parse error or invalid request).
///
/// No session affinity: a session id names the client (it ends in the client's name, base64url) and
/// is not a credential (the token is). An instance that never saw a well-formed session id adopts it
/// as an initialized session of that client, so behind a load balancer any instance serves
/// `tools/list`, `tools/call`, `ping` and the GET stream of any session; only DELETE needs the
/// instance that knows the session (elsewhere: 404, which clients ignore). Sessions idle for an hour
/// without a GET stream are forgotten.
public final class MCPHTTPTransport: Sendable {
    let server: MCPServer
    let http: HTTPServer
    let access: HTTPAccess
    /// Sessions idle longer than this (seconds) with no GET stream open are forgotten.
    static let idleExpiry = 3600.0
    static let maxSessions = 10_000

    private struct Sessions {
        var byID: [String: MCPSession] = [:]
        /// The open GET stream of each session that has one.
        var streams: [String: SSEStream] = [:]
        /// Ids ended with DELETE here (answered 404 from then on), oldest first.
        var terminated: [String] = []
        var terminatedSet: Set<String> = []
    }
    private let sessions = Mutex(Sessions())

    /// The server listens on a loopback address (then every request's `Host` is checked).
    let boundToLoopback: Bool

    public init(server: MCPServer, http: HTTPServer, access: HTTPAccess) {
        (self.server, self.http, self.access) = (server, http, access)
        boundToLoopback = HTTPAccess.isLoopback(http.boundHost)
    }

    /// Serves until `stop`; then forgets every session, cancelling the calls still running, and gives
    /// them two seconds to end.
    public func run() {
        http.serve { [self] request, connection in handle(request, connection) }
        let all = sessions.withLock { s -> [MCPSession] in
            for stream in s.streams.values { stream.end() }
            defer { s = Sessions() }
            return Array(s.byID.values)
        }
        for session in all { server.detach(session) }
        _ = server.calls.wait(timeout: .now() + .seconds(2))
    }


    // MARK: - Routing

    func handle(_ r: HTTPRequest, _ c: HTTPConnection) -> HTTPServer.Handled {
        guard access.hostAllowed(r.header("host"), boundPort: http.boundPort, loopback: boundToLoopback) else {
            let expected = boundToLoopback ? "127.0.0.1:\(http.boundPort), localhost:\(http.boundPort) or [::1]:\(http.boundPort)"
                                           : "one given with --allow-host or a loopback name with port \(http.boundPort)"
            return fail(c, 421, "Misdirected Request: Host \(r.header("host").map { "\"\($0.prefix(80))\"" } ?? "(none)") is not a name of this server (expected \(expected)); behind a reverse proxy, add the name it forwards with --allow-host NAME[:PORT]")
        }
        guard r.path == "/mcp" else {
            c.respond(404, [("Content-Type", "text/plain; charset=utf-8")], body: Array("Not Found: the MCP endpoint is /mcp\n".utf8))
            return .responded
        }
        guard access.originAllowed(r.header("origin")) else {
            return fail(c, 403, "Forbidden: Origin \(r.header("origin") ?? "") is not allowed (loopback origins are; add others with --allow-origin ORIGIN)")
        }
        guard access.authorized(r.header("authorization")) else {
            let given = r.header("authorization") != nil
            return fail(c, 401, given ? "Unauthorized: the bearer token is wrong" : "Unauthorized: send Authorization: Bearer TOKEN",
                        [("WWW-Authenticate", given ? "Bearer realm=\"skillhost\", error=\"invalid_token\"" : "Bearer realm=\"skillhost\"")])
        }
        if let v = r.header("mcp-protocol-version"), !MCPServer.protocolVersions.contains(v) {
            return fail(c, 400, "Bad Request: MCP-Protocol-Version \(v) is not supported (this server speaks \(MCPServer.protocolVersions.joined(separator: ", ")))")
        }
        switch r.method {
        case "POST": return post(r, c)
        case "GET": return get(r, c)
        case "DELETE": return delete(r, c)
        default:
            return fail(c, 405, "Method Not Allowed: \(r.method) (the MCP endpoint takes POST, GET and DELETE)", [("Allow", "GET, POST, DELETE")])
        }
    }

    /// An HTTP error whose body is a JSON-RPC error without an id, as the MCP SDKs send them.
    private func fail(_ c: HTTPConnection, _ status: Int, _ message: String, _ headers: [(String, String)] = [],
                      code: Int = JSONRPC.invalidRequest) -> HTTPServer.Handled {
        c.respond(status, [("Content-Type", "application/json")] + headers, body: JSONRPC.error(.null, code, message).bytes)
        return .responded
    }

    // MARK: - Methods

    private func post(_ r: HTTPRequest, _ c: HTTPConnection) -> HTTPServer.Handled {
        let accept = Self.mediaTypes(r.header("accept"))
        guard accept.contains("*/*") || (accept.contains("application/json") || accept.contains("application/*"))
                && (accept.contains("text/event-stream") || accept.contains("text/*")) else {
            return fail(c, 406, "Not Acceptable: the client must accept both application/json and text/event-stream")
        }
        guard Self.mediaTypes(r.header("content-type")).first == "application/json" else {
            return fail(c, 415, "Unsupported Media Type: Content-Type must be application/json, found \(r.header("content-type") ?? "none")")
        }
        let incoming = JSONRPC.classify(r.body)
        if case .invalid(let id, let code, let message) = incoming {
            c.respond(400, [("Content-Type", "application/json")], body: JSONRPC.error(id, code, message).bytes)
            return .responded
        }
        let session: MCPSession
        if case .request(_, "initialize", let params) = incoming {
            guard let s = newSession(clientName: params["clientInfo"]?["name"]?.stringValue) else {
                return fail(c, 503, "Service Unavailable: \(Self.maxSessions) sessions are open; try again later")
            }
            session = s
        } else {
            switch lookUp(r) {
            case .failure(let e): return fail(c, e.status, e.message)
            case .success(let s): session = s
            }
        }
        let sessionHeader = [("Mcp-Session-Id", session.id ?? "")]
        guard case .request(let id, let method, _) = incoming else {
            server.receive(incoming, session: session, reply: MCPReply(notify: { _ in }, finish: { _ in }))
            c.respond(202, sessionHeader)
            return .responded
        }
        if method == "tools/call" {
            let stream = c.startStream(sessionHeader)
            let key = id.serialized
            stream.onPeerClosed { session.state.withLock { $0.inFlight[key] }?.cancel() }
            server.receive(incoming, session: session, reply: MCPReply(notify: { stream.send($0) }, finish: { stream.end(after: $0) }))
            return .streaming(stream)
        }
        let answer = Mutex<RPCMessage?>(nil)
        server.receive(incoming, session: session, reply: MCPReply(notify: { _ in }, finish: { m in answer.withLock { $0 = m } }))
        let body = answer.withLock { $0 } ?? RPCMessage(JSONRPC.error(id, -32603, "Internal error: no response"))
        c.respond(200, [("Content-Type", "application/json")] + sessionHeader, body: body.bytes)
        return .responded
    }

    private func get(_ r: HTTPRequest, _ c: HTTPConnection) -> HTTPServer.Handled {
        let accept = Self.mediaTypes(r.header("accept"))
        guard accept.contains("text/event-stream") || accept.contains("text/*") || accept.contains("*/*") else {
            return fail(c, 406, "Not Acceptable: the client must accept text/event-stream")
        }
        let session: MCPSession
        switch lookUp(r) {
        case .failure(let e): return fail(c, e.status, e.message)
        case .success(let s): session = s
        }
        guard let id = session.id else { return fail(c, 500, "Internal error: a session without an id") }
        let stream = c.startStream([("Mcp-Session-Id", id)])
        let previous = sessions.withLock { s -> SSEStream? in
            defer { s.streams[id] = stream }
            return s.streams[id]
        }
        previous?.end()
        session.state.withLock { $0.channel = { stream.send($0) } }
        stream.onPeerClosed { [self] in closeStream(stream, of: session) }
        return .streaming(stream)
    }

    private func delete(_ r: HTTPRequest, _ c: HTTPConnection) -> HTTPServer.Handled {
        guard let id = r.header("mcp-session-id") else { return fail(c, 400, "Bad Request: DELETE needs the Mcp-Session-Id header") }
        let ended = sessions.withLock { s -> (MCPSession, SSEStream?)? in
            guard let session = s.byID.removeValue(forKey: id) else { return nil }
            s.terminated.append(id)
            s.terminatedSet.insert(id)
            if s.terminated.count > Self.maxSessions { s.terminatedSet.remove(s.terminated.removeFirst()) }
            return (session, s.streams.removeValue(forKey: id))
        }
        guard let (session, stream) = ended else { return fail(c, 404, "Not Found: no session \(id.prefix(80)) here") }
        stream?.end()
        server.detach(session)
        c.respond(200)
        return .responded
    }

    // MARK: - Sessions

    /// The session a request names, adopting a well-formed id this instance never saw; 400 without
    /// one, 404 for one ended here or not made by this server.
    private func lookUp(_ r: HTTPRequest) -> Result<MCPSession, Refusal> {
        guard let id = r.header("mcp-session-id") else {
            return .failure(Refusal(400, "Bad Request: missing Mcp-Session-Id (send initialize first, then the id it answered with)"))
        }
        let found = sessions.withLock { s -> MCPSession?? in
            if s.terminatedSet.contains(id) { return .some(nil) }
            return s.byID[id].map { .some($0) } ?? nil
        }
        switch found {
        case .some(.some(let session)): return .success(session)
        case .some(.none): return .failure(Refusal(404, "Not Found: session \(id.prefix(80)) has ended; initialize a new one"))
        case .none:
            guard let name = Self.clientName(inSessionID: id) else {
                return .failure(Refusal(404, "Not Found: unknown session \(id.prefix(80)); initialize a new one"))
            }
            let session = MCPSession(id: id)
            session.state.withLock { s in
                s.clientName = name
                s.initialized = true
                if let v = r.header("mcp-protocol-version") { s.protocolVersion = v }
            }
            let kept = sessions.withLock { s -> MCPSession in
                if let existing = s.byID[id] { return existing }
                s.byID[id] = session
                return session
            }
            if kept === session { server.attach(session) }
            return .success(kept)
        }
    }

    /// Why a request names no session this instance serves.
    struct Refusal: Error {
        let status: Int
        let message: String
        init(_ status: Int, _ message: String) { (self.status, self.message) = (status, message) }
    }

    private func newSession(clientName: String?) -> MCPSession? {
        let name = (clientName?.isEmpty == false ? clientName! : "mcp-client")
        let id = Self.randomHex(16) + "." + Self.base64url(Array(name.utf8.prefix(96)))
        let session = MCPSession(id: id)
        let now = MCPSession.monotonicSeconds()
        let expired = sessions.withLock { s -> [MCPSession]? in
            var gone: [MCPSession] = []
            for (sid, session) in s.byID where s.streams[sid] == nil && now - session.state.withLock({ $0.lastSeen }) > Self.idleExpiry {
                gone.append(session)
                s.byID[sid] = nil
            }
            guard s.byID.count < Self.maxSessions else { return nil }
            s.byID[id] = session
            return gone
        }
        guard let expired else { return nil }
        for e in expired { server.detach(e) }
        server.attach(session)
        return session
    }

    /// The GET stream went away: the session keeps going without a channel.
    private func closeStream(_ stream: SSEStream, of session: MCPSession) {
        guard let id = session.id else { return }
        let current = sessions.withLock { s -> Bool in
            guard s.streams[id] === stream else { return false }
            s.streams[id] = nil
            return true
        }
        if current { session.state.withLock { $0.channel = nil } }
    }

    // MARK: - Helpers

    /// The media types of an Accept or Content-Type value, lowercased, without parameters.
    static func mediaTypes(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.split(separator: ";")[0].trimmingCharacters(in: " \t").lowercased() }
    }

    /// The client name a session id made by `newSession` ends with, or nil when `id` is not one.
    static func clientName(inSessionID id: String) -> String? {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32, parts[0].allSatisfy(\.isHexDigit),
              let bytes = unbase64url(parts[1]), !bytes.isEmpty, let name = String(validating: bytes, as: UTF8.self) else { return nil }
        return name
    }

    /// `count` bytes from the system's secure random source (getrandom), as hex.
    static func randomHex(_ count: Int) -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let b = UInt8.random(in: 0...255, using: &g)
            return (b < 16 ? "0" : "") + String(b, radix: 16)
        }.joined()
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func base64url(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let v = (UInt32(bytes[i]) << 16) | (n > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[i + 2]) : 0)
            for k in 0...n { out.append(alphabet[Int((v >> (18 - 6 * UInt32(k))) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unbase64url(_ text: Substring) -> [UInt8]? {
        var values: [UInt32] = []
        for c in text.utf8 {
            guard let i = alphabet.firstIndex(of: c) else { return nil }
            values.append(UInt32(i))
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let group = values[i..<min(i + 4, values.count)]
            var v: UInt32 = 0
            for (k, x) in group.enumerated() { v |= x << (18 - 6 * UInt32(k)) }
            for k in 0..<(group.count - 1) { out.append(UInt8((v >> (16 - 8 * UInt32(k))) & 0xff)) }
            i += 4
        }
        return out
    }
}
