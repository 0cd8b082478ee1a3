import Glibc
import SkillHostCore
import SkillHostMCP

/// `skillhost mcp`: serves the skills as MCP tools over stdio to an agent host (caller `agent`).
/// Stdout carries the protocol only; everything else goes to stderr.
enum McpCommand {
    static func run(_ args: Arguments) -> Int32 {
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
        let code = server.run()
        host.shutdown()
        return code
    }
}
