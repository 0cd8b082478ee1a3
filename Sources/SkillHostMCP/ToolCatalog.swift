import SkillHostCore

/// The MCP tools of one registry: one per intent address the policy lets agents call, in address
/// order, each built once from the skill's full manifest.
struct ToolCatalog: Sendable {
    struct Tool: Sendable {
        /// The MCP tool name: the intent address, with "@" (not allowed in tool names) spelled "_v".
        let name: String
        let address: String
        let json: JSON
    }

    let tools: [Tool]
    private let byName: [String: Int]

    init(registry: SkillRegistry, policy: Policy) {
        var tools: [Tool] = []
        var manifests: [String: SkillManifest] = [:]
        for address in registry.intentNames {
            guard let b = registry.bindings(for: address).first, b.intent.address == address, policy.agentMayCall(b) else { continue }
            if manifests[b.skill.id] == nil { manifests[b.skill.id] = b.skill.manifest() }
            guard let m = manifests[b.skill.id], let intent = m.intents.first(where: { $0.address == address }) else { continue }
            tools.append(Tool(name: Self.toolName(address), address: address, json: Self.describe(intent, of: m)))
        }
        self.tools = tools
        byName = Dictionary(tools.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    func tool(named name: String) -> Tool? { byName[name].map { tools[$0] } }

    static func toolName(_ address: String) -> String {
        address.split(separator: "@", omittingEmptySubsequences: false).joined(separator: "_v")
    }

    /// name, title, description, inputSchema, outputSchema (when its root is an object, as MCP requires),
    /// annotations from the intent's flags, and the skill in `_meta`.
    static func describe(_ intent: IntentManifest, of m: SkillManifest) -> JSON {
        var o = JSONObject([("name", .string(toolName(intent.address))),
                            ("title", .string("\(m.name): \(intent.address)")),
                            ("description", .string(intent.description)),
                            ("inputSchema", intent.inputSchema)])
        if let out = intent.outputSchema, out["type"] == .string("object") { o["outputSchema"] = out }
        o["annotations"] = .object(JSONObject([
            ("title", .string("\(m.name): \(intent.address)")),
            ("readOnlyHint", .bool(intent.flags.contains(.readOnly))),
            ("destructiveHint", .bool(intent.flags.contains(.destructive))),
            ("idempotentHint", .bool(intent.flags.contains(.idempotent))),
            ("openWorldHint", .bool(intent.flags.contains(.openWorld))),
        ]))
        o["_meta"] = .object(JSONObject([("dev.skillhost/skill", .string(m.id)), ("dev.skillhost/version", .string(m.version.description)),
                                         ("dev.skillhost/intent", .string(intent.address))]))
        return .object(o)
    }
}
