/// The owner's grant for one skill: config `"grants": {"SKILL-ID": {…}}`, written by `skillhost install`
/// after consent (or by hand):
///
///     "grants": {
///       "dev.skillhost.weather": { "network": ["{config:baseURL}", "api.open-meteo.com:443"] },
///       "dev.skillhost.calendar": { "read": ["{config:calendars}"] },
///       "com.example.tool": { "programs": true, "environment": ["HTTPS_PROXY"] },
///       "com.example.legacy": { "sandbox": false }
///     }
///
/// A grant is what the worker may reach: it may narrow what the skill asks for (leave an entry out)
/// or widen it (add one); requested entries left out are reported as missing by `list`, `inspect`
/// and `doctor`. A skill without a grant gets nothing beyond its data folder. `"sandbox": false` runs
/// that skill unsandboxed (`sandbox: "off"`), as the top-level `"sandbox": false` does for every skill.
public struct Grant: Sendable, Equatable {
    public var permissions: Permissions
    /// False: this skill's worker runs without the sandbox.
    public var sandbox = true

    public init(_ permissions: Permissions, sandbox: Bool = true) {
        self.permissions = permissions
        self.sandbox = sandbox
    }

    init(_ j: JSON, id: String, file: String) throws(SkillError) {
        func bad(_ what: String) -> SkillError {
            SkillError(.invalidInput, "config file \"\(file)\": \"grants.\(id)\": \(what)",
                       hint: "for example \"grants\": {\"\(id)\": {\"network\": [\"api.example.com:443\"], \"read\": [\"{config:calendars}\"]}}")
        }
        guard case .object(let o) = j else { throw bad("expected an object, found \(j.serialized)") }
        var p = Permissions()
        for m in o {
            switch m.key {
            case "network", "read", "write", "environment":
                guard let a = m.value.arrayValue, a.allSatisfy({ $0.stringValue != nil }) else {
                    throw bad("\"\(m.key)\" must be an array of strings, found \(m.value.serialized)")
                }
                let items = a.compactMap(\.stringValue)
                switch m.key {
                case "network": p.network = items
                case "read": p.read = items
                case "write": p.write = items
                default: p.environment = items
                }
            case "programs", "sandbox":
                guard let b = m.value.boolValue else { throw bad("\"\(m.key)\" must be true or false, found \(m.value.serialized)") }
                if m.key == "programs" { p.programs = b } else { sandbox = b }
            default:
                HostLog.warning("config file \"\(file)\": unknown setting \"grants.\(id).\(m.key)\" ignored")
            }
        }
        if let problem = p.problem() { throw bad(problem) }
        permissions = p
    }

    /// The config form (only non-empty members).
    public var json: JSON {
        var o = JSONObject()
        if !permissions.network.isEmpty { o["network"] = .array(permissions.network.map(JSON.string)) }
        if !permissions.read.isEmpty { o["read"] = .array(permissions.read.map(JSON.string)) }
        if !permissions.write.isEmpty { o["write"] = .array(permissions.write.map(JSON.string)) }
        if !permissions.environment.isEmpty { o["environment"] = .array(permissions.environment.map(JSON.string)) }
        if permissions.programs { o["programs"] = .bool(true) }
        if !sandbox { o["sandbox"] = .bool(false) }
        return .object(o)
    }
}
