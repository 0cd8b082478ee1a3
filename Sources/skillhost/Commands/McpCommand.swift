import Glibc
import SkillHostCore
import SkillHostMCP

/// `skillhost mcp`: serves the skills as MCP tools to agent hosts (caller `agent`), over stdio (stdout
/// carries the protocol only; everything else goes to stderr) or, with `--http [HOST:]PORT`, over
/// Streamable HTTP at `/mcp` until SIGINT or SIGTERM.
enum McpCommand {
    static func run(_ args: Arguments) -> Int32 {
        if args.values["--http"] == nil, args.values["--token-file"] != nil || args.values["--allow-origin"] != nil || args.values["--allow-host"] != nil {
            return Out.usage(UsageError("--token-file, --allow-origin and --allow-host go with --http [HOST:]PORT",
                                        hint: "e.g. skillhost mcp --http 8080 --token-file FILE"), json: false)
        }
        var listener: (HTTPServer, HTTPAccess)?
        if let address = args.values["--http"] {
            switch listen(address, args) {
            case .failure(let e): Out.error("skillhost mcp: \(e.description)"); return 2
            case .success(let l): listener = l
            }
        }
        let host: SkillHost
        do { host = try openHost(args) } catch {
            Out.error("skillhost mcp: \(error.description)")
            return error.kind.exitCode
        }
        // $SKILLHOST_MCP_PAGE_SIZE: tools per tools/list page (default 100; tests use small pages).
        let pageSize = getenv("SKILLHOST_MCP_PAGE_SIZE").flatMap { Int(String(cString: $0)) } ?? 100
        let server = MCPServer(host: host, pageSize: pageSize)
        // Skills dropped into, replaced in or removed from the folder while serving.
        if !host.watch({ server.skillsChanged($0.description) }) {
            Out.error("skillhost mcp: warning: cannot watch the skill folders; skills added later need a restart")
        }
        var code: Int32 = 0
        if let (http, access) = listener {
            let transport = MCPHTTPTransport(server: server, http: http, access: access)
            http.stopOnSignals()
            let shown = http.boundHost.contains(":") ? "[\(http.boundHost)]" : http.boundHost
            // The line tests and scripts wait for (stable): the address with the port actually bound.
            Out.error("skillhost mcp: listening on http://\(shown):\(http.boundPort)/mcp")
            transport.run()
        } else {
            code = server.run()
        }
        host.shutdown()
        return code
    }

    /// Binds `--http [HOST:]PORT` (HOST defaults to 127.0.0.1) with the token and origins given; refuses
    /// a host beyond loopback without a token.
    static func listen(_ address: String, _ args: Arguments) -> Result<(HTTPServer, HTTPAccess), HTTPServerError> {
        var host = "127.0.0.1", portText = address
        if let colon = address.lastIndex(of: ":") {
            host = String(address[..<colon])
            portText = String(address[address.index(after: colon)...])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else {
            return .failure(HTTPServerError("--http expects [HOST:]PORT (e.g. 8080, 127.0.0.1:8080, 0.0.0.0:8080, [::1]:8080; port 0 picks a free one), found \"\(address)\""))
        }
        var token: String?
        if let file = args.values["--token-file"] {
            do { token = try HTTPAccess.token(fromFile: file) } catch { return .failure(error) }
        } else if let t = getenv("SKILLHOST_MCP_TOKEN").map({ String(cString: $0) }), !t.isEmpty {
            token = t
        }
        if token == nil {
            guard HTTPAccess.isLoopback(host) else {
                return .failure(HTTPServerError("--http \(address) listens beyond this machine, so it needs a token: pass --token-file FILE (mode 600) or set SKILLHOST_MCP_TOKEN; clients then send Authorization: Bearer TOKEN"))
            }
            Out.error("skillhost mcp: warning: no token (--token-file FILE or $SKILLHOST_MCP_TOKEN): any program on this machine may call the tools; serving loopback only")
        }
        let hosts = args.allValues["--allow-host"] ?? []
        if let bad = hosts.first(where: { HTTPAccess.parseHost($0) == nil }) {
            return .failure(HTTPServerError("--allow-host expects HOST or HOST:PORT (e.g. mcp.example.com, mcp.example.com:443, [::1]:8080), found \"\(bad)\""))
        }
        do {
            return .success((try HTTPServer(host: host, port: port),
                             HTTPAccess(token: token, allowedOrigins: args.allValues["--allow-origin"] ?? [], allowedHosts: hosts)))
        } catch {
            return .failure(error)
        }
    }
}
