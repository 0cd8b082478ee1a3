import SkillHostCore

/// The MCP tools of one registry: one per intent address the policy lets agents call, in address
/// order, each built once from the skill's full manifest.
///
/// Tool names match `^[a-zA-Z0-9_-]{1,64}$` (what Claude Desktop, Copilot and other clients accept; one
/// bad name makes some of them drop the whole list), by one reversible rule: every "." of the intent
/// name becomes "-", and a version suffix "@N" becomes "--vN" (`calendar.events.list` →
/// `calendar-events-list`, `calendar.events.list@2` → `calendar-events-list--v2`). Intent names are
/// dot-separated segments of `[a-z0-9_]`, so "-" never occurs in them and "--" never comes from a
/// dot: the name maps back to exactly one intent, and two intents never share a tool name. An intent
/// whose tool name would be longer than 64 characters is not offered (`refused` says which and why).
/// The intent's own name is in each tool's `_meta` ("dev.skillhost/intent").
struct ToolCatalog: Sendable {
    struct Tool: Sendable {
        /// The MCP tool name (see the rule above).
        let name: String
        let address: String
        let json: JSON
    }

    let tools: [Tool]
    /// Intents not offered, with why (a name over 64 characters).
    let refused: [(address: String, reason: String)]
    /// Tool index by tool name and by intent address (both unique), built once per registry: a
    /// `tools/call` resolves its name with one lookup.
    private let byName: [String: Int]
    private let byAddress: [String: Int]

    init(registry: SkillRegistry, policy: Policy) {
        var tools: [Tool] = []
        var refused: [(address: String, reason: String)] = []
        var manifests: [String: SkillManifest] = [:]
        for address in registry.intentNames {
            guard let b = registry.bindings(for: address).first, b.intent.address == address, policy.agentMayCall(b) else { continue }
            if manifests[b.skill.id] == nil { manifests[b.skill.id] = b.skill.manifest() }
            guard let m = manifests[b.skill.id], let intent = m.intents.first(where: { $0.address == address }) else { continue }
            let name = Self.toolName(address)
            guard name.utf8.count <= 64 else {
                refused.append((address, "its tool name \(name) is \(name.utf8.count) characters long; MCP clients accept at most 64"))
                continue
            }
            tools.append(Tool(name: name, address: address, json: Self.describe(intent, of: m)))
        }
        self.tools = tools
        self.refused = refused
        byName = Dictionary(tools.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        byAddress = Dictionary(tools.enumerated().map { ($1.address, $0) }, uniquingKeysWith: { a, _ in a })
    }

    func tool(named name: String) -> Tool? { byName[name].map { tools[$0] } }

    /// The tool a `tools/call` names: by its tool name or by its intent's own address (older clients,
    /// scripts that know intents). Nil for an intent not on offer.
    func tool(calledAs name: String) -> Tool? { (byName[name] ?? byAddress[name]).map { tools[$0] } }

    /// The tool name of an intent address (see the rule above).
    static func toolName(_ address: String) -> String {
        let parts = address.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0].map { $0 == "." ? "-" : $0 })
        return parts.count == 2 ? name + "--v" + parts[1] : name
    }

    /// The intent address a tool name stands for (the rule backwards), or nil when `name` cannot come
    /// from the rule.
    static func address(ofTool name: String) -> String? {
        var base = Substring(name), version: Substring? = nil
        if let r = name.firstRange(of: "--v") { (base, version) = (name[..<r.lowerBound], name[r.upperBound...]) }
        let intent = String(base.map { $0 == "-" ? "." : $0 })
        guard IntentAddress.isIntentName(intent) else { return nil }
        guard let version else { return intent }
        guard let v = Int(version), v > 1, String(v) == version else { return nil }
        return intent + "@" + version
    }

    /// A short human title: the first sentence of the intent's description (as the skill wrote it).
    static func title(_ intent: IntentManifest, of m: SkillManifest) -> String {
        let d = intent.description
        let first = d.split(separator: ". ", maxSplits: 1).first.map(String.init) ?? d
        let trimmed = first.hasSuffix(".") ? String(first.dropLast()) : first
        return trimmed.isEmpty ? "\(m.name): \(intent.address)" : (trimmed.count > 80 ? String(trimmed.prefix(79)) + "…" : trimmed)
    }

    /// name, title, description, inputSchema, outputSchema (when its root is an object, as MCP requires),
    /// annotations from the intent's flags, and the skill in `_meta`.
    static func describe(_ intent: IntentManifest, of m: SkillManifest) -> JSON {
        var o = JSONObject([("name", .string(toolName(intent.address))),
                            ("title", .string(title(intent, of: m))),
                            ("description", .string(intent.description + " (skill: \(m.name); intent \(intent.address))")),
                            ("inputSchema", intent.inputSchema)])
        if let out = intent.outputSchema, out["type"] == .string("object") { o["outputSchema"] = out }
        o["annotations"] = .object(JSONObject([
            ("title", .string(title(intent, of: m))),
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

/// The MCP tool name agents see for an intent address (the rule of `ToolCatalog`), for surfaces that
/// show it (`skillhost describe`).
public func mcpToolName(forIntent address: String) -> String { ToolCatalog.toolName(address) }
