/// Who is calling. The surface sets it; policy reads it. No surface makes policy decisions.
public enum Caller: Sendable, Equatable, CustomStringConvertible {
    /// A person at a terminal.
    case human
    /// A script or other non-interactive program.
    case automation
    /// An outside LLM agent, through the named agent host (e.g. an MCP client's name).
    case agent(host: String)

    /// The surface bit an intent must allow for this caller.
    var surface: Surfaces {
        switch self {
        case .human: return .human
        case .automation: return .automation
        case .agent: return .agent
        }
    }

    /// 0, 1 or 2: the caller's kind as a small number (a memo's slot).
    var index: Int {
        switch self {
        case .human: return 0
        case .automation: return 1
        case .agent: return 2
        }
    }

    /// "human", "automation" or "agent" — the `caller` member of a skill's call context.
    public var kind: String {
        switch self {
        case .human: return "human"
        case .automation: return "automation"
        case .agent: return "agent"
        }
    }

    public var description: String {
        if case .agent(let host) = self { return "agent (\(host))" }
        return kind
    }
}
