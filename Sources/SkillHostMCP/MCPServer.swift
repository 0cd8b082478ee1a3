import Dispatch
import Glibc
import SkillHostCore
import SkillWire
import Synchronization

/// `skillhost mcp`: the agent surface. A thin adapter from MCP (JSON-RPC) to the core: every tool
/// call is an `InvokeRequest` with caller `.agent(host: client name)`, and every rule about what an
/// agent may call lives in the core's `Policy` (this file only lists what it allows). The protocol
/// logic here serves `MCPSession`s; the transports only move messages: stdio (`run`, one session) and
/// Streamable HTTP (`MCPHTTPTransport`, one session per `Mcp-Session-Id`).
///
/// Lifecycle: `initialize` (revision 2025-11-25, also 2025-06-18, 2025-03-26 and 2024-11-05),
/// `notifications/initialized`, `ping`, `server/discover` (the 2026-07-28 probe).
/// Tools: `tools/list` (cursor pagination), `tools/call` (concurrent: each call is a task that holds no
/// thread while its skill works, so a slow skill's calls never delay another's; with progress and
/// cancellation), `notifications/tools/list_changed` when the skill folder changes (the
/// surface passes the core's `SkillHost.watch` changes to `skillsChanged`).
/// Logging: `logging/setLevel`, `notifications/message` (and every log line on stderr).
public final class MCPServer: Sendable {
    public static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    public static var serverVersion: String { BuildInfo.version }
    static let levels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]

    let host: SkillHost
    let pageSize: Int
    let maxLine: Int

    private let catalogCache = Mutex<(registry: ObjectIdentifier?, catalog: ToolCatalog?)>((nil, nil))
    /// Every session a transport attached: the ones `skillsChanged` and `log` reach.
    private let sessions = Mutex<[ObjectIdentifier: MCPSession]>([:])
    let calls = DispatchGroup()

    public init(host: SkillHost, pageSize: Int = 100, maxLine: Int = 64 << 20) {
        self.host = host
        self.pageSize = max(1, pageSize)
        self.maxLine = maxLine
    }

    // MARK: - Sessions

    /// Makes `session` one that announcements and log lines reach.
    func attach(_ session: MCPSession) { sessions.withLock { $0[ObjectIdentifier(session)] = session } }

    /// Forgets `session` and cancels its calls still running.
    func detach(_ session: MCPSession) {
        sessions.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(session)) }
        session.cancelAll()
    }

    var attached: [MCPSession] { sessions.withLock { Array($0.values) } }

    // MARK: - Dispatch

    /// Handles one message of `session`'s client: a request's response (and the notifications tied to
    /// it) go to `reply`; a notification gets nothing back. A `tools/call` runs as a task and answers
    /// when it ends; everything else answers before this returns. `startsHere`: a call of an intent
    /// starts on the calling thread (see `inFlight`); false when the transport has more requests
    /// waiting, which then need not wait for this one to suspend.
    func receive(_ incoming: JSONRPC.Incoming, session: MCPSession, reply: MCPReply, startsHere: Bool = true) {
        session.state.withLock { $0.lastSeen = MCPSession.monotonicSeconds() }
        switch incoming {
        case .ignored: return
        case .invalid(let id, let code, let message): reply.finish(RPCMessage(JSONRPC.error(id, code, message)))
        case .notification(let method, let params): notification(method, params, session)
        case .request(let id, let method, let params):
            if method == "tools/call" { return call(id, params, session, reply, startsHere: startsHere) }
            do {
                reply.finish(RPCMessage(JSONRPC.result(id, try request(method, params, session))))
            } catch {
                reply.finish(RPCMessage(JSONRPC.error(id, error.code, error.message)))
            }
        }
    }

    private func request(_ method: String, _ params: JSONObject, _ session: MCPSession) throws(RPCError) -> JSON {
        switch method {
        case "initialize": return try initialize(params, session)
        case "ping": return .object(JSONObject())
        case "server/discover":
            return .object(JSONObject([("resultType", "complete"), ("supportedVersions", .array(Self.protocolVersions.map(JSON.string))),
                                       ("capabilities", capabilities), ("serverInfo", serverInfo), ("instructions", .string(instructions))]))
        case "tools/list": return try listTools(params, session)
        case "logging/setLevel":
            guard let level = params["level"]?.stringValue, let i = Self.levels.firstIndex(of: level) else {
                throw RPCError(JSONRPC.invalidParams, "Invalid params: \"level\" must be one of \(Self.levels.joined(separator: ", "))")
            }
            session.state.withLock { $0.logLevel = i }
            return .object(JSONObject())
        default:
            throw RPCError(JSONRPC.methodNotFound, "Method not found: \(method)")
        }
    }

    private func notification(_ method: String, _ params: JSONObject, _ session: MCPSession) {
        switch method {
        case "notifications/initialized": session.state.withLock { $0.initialized = true }
        case "notifications/cancelled":
            guard let id = params["requestId"], JSONRPC.validID(id) else { return }
            let c = session.state.withLock { $0.inFlight[id.serialized] }
            c?.cancel()
        default: break  // unknown notifications are ignored, as JSON-RPC asks
        }
    }

    // MARK: - Lifecycle

    var capabilities: JSON {
        .object(JSONObject([("tools", .object(JSONObject([("listChanged", .bool(true))]))), ("logging", .object(JSONObject()))]))
    }
    var serverInfo: JSON {
        .object(JSONObject([("name", "skillhost"), ("title", "skillhost"), ("version", .string(Self.serverVersion))]))
    }
    let instructions = "Each tool is one intent of a skill loaded by skillhost. Tool errors come back as results with isError and a message saying what to change."

    private func initialize(_ params: JSONObject, _ session: MCPSession) throws(RPCError) -> JSON {
        guard let asked = params["protocolVersion"]?.stringValue else {
            throw RPCError(JSONRPC.invalidParams, "Invalid params: initialize needs \"protocolVersion\" (this server speaks \(Self.protocolVersions.joined(separator: ", ")))")
        }
        let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
        let name = params["clientInfo"]?["name"]?.stringValue
        session.state.withLock { s in
            s.protocolVersion = version
            if let name, !name.isEmpty { s.clientName = name }
        }
        return .object(JSONObject([("protocolVersion", .string(version)), ("capabilities", capabilities),
                                   ("serverInfo", serverInfo), ("instructions", .string(instructions))]))
    }

    // MARK: - Tools

    /// The tools of the host's current registry (rebuilt when the registry was swapped).
    var catalog: ToolCatalog {
        let registry = host.registry
        let id = ObjectIdentifier(registry)
        if let c = catalogCache.withLock({ $0.registry == id ? $0.catalog : nil }) { return c }
        let c = ToolCatalog(registry: registry, policy: host.invoker.policy)
        catalogCache.withLock { $0 = (id, c) }
        for r in c.refused { writeStandardError("skillhost mcp: warning: intent \(r.address) is not offered as a tool: \(r.reason)\n") }
        return c
    }

    /// Every tool on offer, by name: one per intent the policy lets agents call, and `skillhost_ask`.
    var offered: [ToolCatalog.Tool] {
        (catalog.tools + [ToolCatalog.Tool(name: AskTool.name, address: AskTool.name, json: AskTool.json)]).sorted { $0.name < $1.name }
    }

    private func listTools(_ params: JSONObject, _ session: MCPSession) throws(RPCError) -> JSON {
        let tools = offered
        var start = 0
        if let cursor = params["cursor"] {
            guard let s = cursor.stringValue, let n = Int(s), n >= 0, n <= tools.count else {
                throw RPCError(JSONRPC.invalidParams, "Invalid params: unknown cursor \(cursor.serialized)")
            }
            start = n
        }
        let end = min(tools.count, start + pageSize)
        var o = JSONObject([("tools", .array(tools[start..<end].map(\.json)))])
        if end < tools.count { o["nextCursor"] = .string(String(end)) }
        session.state.withLock { $0.listed = tools.map(\.json.serialized) }
        return .object(o)
    }

    private func call(_ id: JSON, _ params: JSONObject, _ session: MCPSession, _ reply: MCPReply, startsHere: Bool) {
        guard let name = params["name"]?.stringValue else {
            return reply.finish(RPCMessage(JSONRPC.error(id, JSONRPC.invalidParams, "Invalid params: tools/call needs \"name\"")))
        }
        if name == AskTool.name { return ask(id, params, session, reply) }
        // A tool not listed but served (policy keeps it from agents) still goes to the core, which
        // denies it with the rule; a name nobody serves is a protocol error.
        // The intent's own name is accepted too (older clients, scripts that know intents).
        let address: String
        if let tool = catalog.tool(calledAs: name) {
            address = tool.address
        } else {
            address = ToolCatalog.address(ofTool: name) ?? name
            guard !host.registry.bindings(for: address).isEmpty else {
                return reply.finish(RPCMessage(JSONRPC.error(id, JSONRPC.invalidParams, "Unknown tool: \(name)")))
            }
        }
        let arguments = params["arguments"] ?? .object(JSONObject())
        guard case .object(let argumentObject) = arguments else {
            return reply.finish(RPCMessage(JSONRPC.error(id, JSONRPC.invalidParams, "Invalid params: \"arguments\" must be an object, found \(arguments.typeDescription)")))
        }
        let token = params["_meta"]?["progressToken"]
        inFlight(id, session, reply, startsOnThisThread: startsHere) { [self] caller, cancellation in
            var request = InvokeRequest(intent: address, arguments: argumentObject, caller: caller, cancellation: cancellation)
            request.session = session.auditName
            if let token, JSONRPC.validID(token) {
                request.progress = { step, total, message in
                    var p = JSONObject([("progressToken", token), ("progress", .int(Int64(step)))])
                    if total > 0 { p["total"] = .int(Int64(total)) }
                    if let message { p["message"] = .string(message) }
                    reply.notify(JSONRPC.notification("notifications/progress", .object(p)))
                }
            }
            let outcome = await host.invoke(request)
            return (Self.toolResultText(outcome), { [self] in
                if case .failure(let e) = outcome, e.kind != .invalidInput {
                    log("warning", "\(name): \(e.kind.rawValue): \(e.message)", session: session, via: reply.notify)
                }
            })
        }
    }

    /// `skillhost_ask`: a sentence through the agent engine, on a thread of the pool like any call.
    private func ask(_ id: JSON, _ params: JSONObject, _ session: MCPSession, _ reply: MCPReply) {
        let arguments = params["arguments"] ?? .object(JSONObject())
        let token = params["_meta"]?["progressToken"]
        var progress: (@Sendable (Int, String) -> Void)? = nil
        if let token, JSONRPC.validID(token) {
            progress = { n, message in
                reply.notify(JSONRPC.notification("notifications/progress", .object(JSONObject([
                    ("progressToken", token), ("progress", .int(Int64(n))), ("message", .string(message))]))))
            }
        }
        let report = progress
        inFlight(id, session, reply, startsOnThisThread: false) { [self] caller, cancellation in
            (await AskTool.call(host: host, arguments: arguments, caller: caller, progress: report, cancellation: cancellation).bytes, nil)
        }
    }

    /// Runs request `id` as a task, an agent call that `notifications/cancelled` can cancel meanwhile:
    /// `work` gets the caller and the cancellation, and returns the result to send (its JSON text) and what to do just before
    /// it is sent (log what the call did). A cancelled request gets no response (the client has stopped waiting for it).
    ///
    /// `startsOnThisThread`: the task starts on the calling (transport) thread and runs there until it
    /// first suspends (`Task.immediate`), so a call that completes at once (an in-process skill) is
    /// answered with no thread hand-off, and one that waits (a worker, a slow skill) leaves the thread
    /// as soon as it waits. For an intent call (the ABI's invoke returns promptly; a worker is
    /// awaited), and only when no other request is already waiting behind it (see `receive`). A
    /// trusted skill whose invoke() blocks anyway holds that thread; the transports run `receive`
    /// under `ReaderRelay`, so another thread carries on reading. The engine (`skillhost_ask`)
    /// computes before it waits, so it always starts on the pool.
    private func inFlight(_ id: JSON, _ session: MCPSession, _ reply: MCPReply, startsOnThisThread: Bool,
                          _ work: @escaping @Sendable (Caller, Cancellation) async -> (result: [UInt8], then: (@Sendable () -> Void)?)) {
        let cancellation = Cancellation()
        let key = id.serialized
        let caller = session.state.withLock { s -> Caller in
            s.inFlight[key] = cancellation
            return .agent(host: s.clientName)
        }
        calls.enter()
        let run: @Sendable () async -> Void = { [self] in
            defer { calls.leave() }
            let (result, then) = await work(caller, cancellation)
            session.state.withLock { _ = $0.inFlight.removeValue(forKey: key) }
            if cancellation.isCancelled { return reply.finish(nil) }
            // What the call logs goes out before its response: a client that has the response has
            // also seen its log lines, at the level in force when the call ended.
            then?()
            reply.finish(RPCMessage.response(id: id, resultText: result))
        }
        if startsOnThisThread { Task.immediate(operation: run) } else { Task(operation: run) }
    }

    /// `toolResult(outcome)` as JSON text, a success written directly: the result is serialized once
    /// and used twice (escaped as the text content, as it is for `structuredContent`), with no tree
    /// built around it. The same bytes as `toolResult(outcome).bytes` (JSONRPCTests checks).
    static func toolResultText(_ outcome: Result<InvokeSuccess, SkillError>) -> [UInt8] {
        guard case .success(let s) = outcome else { return toolResult(outcome).bytes }
        var result: [UInt8] = []
        result.reserveCapacity(128)
        s.result.write(to: &result)
        var out: [UInt8] = []
        out.reserveCapacity(2 * result.count + 96)
        JSONText.append(#"{"content":[{"type":"text","text":""#, to: &out)
        result.withUnsafeBufferPointer { JSONText.append($0, to: &out) }
        JSONText.append(#""}]"#, to: &out)
        if case .object = s.result {
            JSONText.append(#","structuredContent":"#, to: &out)
            out.append(contentsOf: result)
        }
        JSONText.append(#","isError":false}"#, to: &out)
        return out
    }

    /// A call's outcome as a `CallToolResult`: the result as `structuredContent` and as JSON text, or
    /// `isError` with a message the model can act on (kind, what was wrong, what to do).
    static func toolResult(_ outcome: Result<InvokeSuccess, SkillError>) -> JSON {
        switch outcome {
        case .success(let s):
            var o = JSONObject([("content", .array([.object(JSONObject([("type", "text"), ("text", .string(s.result.serialized))]))]))])
            if case .object = s.result { o["structuredContent"] = s.result }
            o["isError"] = .bool(false)
            return .object(o)
        case .failure(let e):
            var text = "\(e.kind.rawValue): \(e.message)"
            if let h = e.hint { text += "\nhint: \(h)" }
            var meta = JSONObject([("kind", .string(e.kind.rawValue))])
            if let rule = e.rule { meta["rule"] = .string(rule) }
            if let r = e.retryAfterSeconds { meta["retryAfterSeconds"] = .double(r) }
            if let d = e.details {
                meta["details"] = d
                text += "\ndetails: " + d.serialized
            }
            return .object(JSONObject([("content", .array([.object(JSONObject([("type", "text"), ("text", .string(text))]))])),
                                       ("isError", .bool(true)), ("_meta", .object(JSONObject([("dev.skillhost/error", .object(meta))])))]))
        }
    }

    // MARK: - Changes and logging

    /// Call when the skill folders changed: announces `notifications/tools/list_changed` to each
    /// initialized session whose client can hear it, when the tools on offer (names, schemas,
    /// versions) differ from those it last listed.
    public func skillsChanged(_ summary: String) {
        log("info", "skills changed: " + summary)
        let tools = offered.map(\.json.serialized)
        for session in attached {
            let announce = session.state.withLock { s -> Bool in
                guard s.initialized, s.channel != nil, s.listed != tools else { return false }
                s.listed = tools
                return true
            }
            if announce { session.sendUnrequested(JSONRPC.notification("notifications/tools/list_changed", .object(JSONObject()))) }
        }
    }

    /// A log line: always on stderr; as `notifications/message` to each initialized session at or
    /// below that level, through `via` when given (the call's own reply) or else the session's channel.
    /// `session` nil: every attached session.
    func log(_ level: String, _ message: String, session: MCPSession? = nil, via: (@Sendable (JSON) -> Void)? = nil) {
        writeStandardError("skillhost mcp: \(level): \(message)\n")
        let i = Self.levels.firstIndex(of: level) ?? 1
        let note = JSONRPC.notification("notifications/message", .object(JSONObject([
            ("level", .string(level)), ("logger", "skillhost"), ("data", .string(message))])))
        for s in session.map({ [$0] }) ?? attached {
            guard s.state.withLock({ $0.initialized && i >= $0.logLevel }) else { continue }
            if let via { via(note) } else { s.sendUnrequested(note) }
        }
    }
}
