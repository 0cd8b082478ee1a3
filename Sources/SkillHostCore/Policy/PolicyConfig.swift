/// The host owner's policy settings (config member `"policy"`). Every member is optional:
///
///     "policy": {
///       "skills": {
///         "dev.skillhost.reminders": {
///           "agent": false,                                         // no agent calls this skill
///           "intents": { "reminder.complete": { "surfaces": ["human"] } }
///         }
///       },
///       "agent": { "allowDestructive": ["test.fixture.destructive", "reminder.complete"] },
///       "rateLimits": {
///         "agent": { "*": { "capacity": 30, "refillPerSecond": 1 },
///                    "weather.forecast": { "capacity": 5, "refillPerSecond": 0.1 } },
///         "automation": { "reminder.create": { "capacity": 10, "refillPerSecond": 0.5 } }
///       },
///       "audit": { "enabled": true, "maxBytes": 10485760, "keep": 3 }
///     }
///
/// Surfaces only narrow what an intent's manifest declares: `true` or a surface the manifest does not
/// list widens nothing. `allowDestructive` names skill ids or intents (name or address) whose
/// destructive intents agents may call. A rate limit is a token bucket per caller kind and intent
/// (`"*"`: each intent without a rule of its own); `capacity` calls at once, `refillPerSecond` after.
public struct PolicyConfig: Sendable, Equatable {
    /// Per skill id: surfaces the whole skill is closed to, and per intent the surfaces it keeps.
    public var skills: [String: SkillRules] = [:]
    /// Skill ids and intents whose destructive intents agents may call.
    public var agentAllowDestructive: Set<String> = []
    /// Caller kind ("human", "automation", "agent") → intent address or "*" → bucket.
    public var rateLimits: [String: [String: RateLimit]] = [:]
    public var audit = AuditSettings()

    public init() {}

    public struct SkillRules: Sendable, Equatable {
        /// Surfaces the skill's intents may still be called from (config `"human"|"automation"|"agent": false`).
        public var surfaces: Surfaces = .all
        /// Intent (name or address) → the surfaces it keeps (config `"intents": {"x.y": {"surfaces": [...]}}`).
        public var intents: [String: Surfaces] = [:]
    }

    public struct RateLimit: Sendable, Equatable {
        public var capacity: Double
        public var refillPerSecond: Double
    }

    public struct AuditSettings: Sendable, Equatable {
        public var enabled = true
        /// The log is rotated (audit.jsonl → audit.jsonl.1 …) when it grows past this many bytes.
        public var maxBytes = 10 << 20
        /// How many rotated files are kept.
        public var keep = 3
    }

    static let callerKinds = ["human", "automation", "agent"]

    /// Reads the `"policy"` member; every error names the key at fault.
    init(_ j: JSON, file: String) throws(SkillError) {
        func bad(_ key: String, _ expected: String, _ found: JSON? = nil, hint: String? = nil) -> SkillError {
            SkillError(.invalidInput, "config file \"\(file)\": \"\(key)\" must be \(expected)" + (found.map { ", found \($0.serialized)" } ?? ""), hint: hint)
        }
        guard case .object(let o) = j else { throw bad("policy", "an object", j) }
        for m in o {
            switch m.key {
            case "skills":
                guard case .object(let skillRules) = m.value else { throw bad("policy.skills", "an object of skill id → rules", m.value) }
                for s in skillRules {
                    let key = "policy.skills.\(s.key)"
                    guard case .object(let r) = s.value else { throw bad(key, "an object, e.g. {\"agent\": false}", s.value) }
                    var rules = SkillRules()
                    for rm in r {
                        if let surface = Surfaces(name: rm.key) {
                            guard let b = rm.value.boolValue else { throw bad("\(key).\(rm.key)", "true or false", rm.value) }
                            if !b { rules.surfaces.remove(surface) }
                            continue
                        }
                        guard rm.key == "intents" else {
                            throw bad("\(key).\(rm.key)", "one of \"human\", \"automation\", \"agent\", \"intents\" (unknown key)", hint: "for example {\"agent\": false, \"intents\": {\"x.y\": {\"surfaces\": [\"human\"]}}}")
                        }
                        guard case .object(let intents) = rm.value else { throw bad("\(key).intents", "an object of intent → {\"surfaces\": [...]}", rm.value) }
                        for im in intents {
                            let ikey = "\(key).intents.\(im.key)"
                            guard case .object(let io) = im.value, io.keys == ["surfaces"] else {
                                throw bad(ikey, "an object with one member \"surfaces\", e.g. {\"surfaces\": [\"human\"]}", im.value)
                            }
                            rules.intents[im.key] = try Self.surfaces(io["surfaces"]!, key: ikey + ".surfaces", bad: bad)
                        }
                    }
                    skills[s.key] = rules
                }
            case "agent":
                guard case .object(let a) = m.value else { throw bad("policy.agent", "an object, e.g. {\"allowDestructive\": [\"skill.id\"]}", m.value) }
                for am in a {
                    guard am.key == "allowDestructive" else { throw bad("policy.agent.\(am.key)", "\"allowDestructive\" (unknown key)") }
                    guard let list = am.value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                        throw bad("policy.agent.allowDestructive", "an array of skill ids or intent names", am.value)
                    }
                    agentAllowDestructive = Set(list.compactMap(\.stringValue))
                }
            case "rateLimits":
                guard case .object(let kinds) = m.value else { throw bad("policy.rateLimits", "an object of caller kind → intent → bucket", m.value) }
                for k in kinds {
                    let key = "policy.rateLimits.\(k.key)"
                    guard Self.callerKinds.contains(k.key) else { throw bad(key, "keyed by a caller kind: human, automation or agent (unknown key)") }
                    guard case .object(let intents) = k.value else { throw bad(key, "an object of intent (or \"*\") → {\"capacity\": N, \"refillPerSecond\": R}", k.value) }
                    for im in intents {
                        let ikey = "\(key).\(im.key)"
                        guard case .object(let b) = im.value, let c = b["capacity"]?.doubleValue, c >= 1, c <= 1e9,
                              let r = b["refillPerSecond"]?.doubleValue, r >= 1e-6, r <= 1e9, b.count == 2 else {
                            throw bad(ikey, "{\"capacity\": N from 1 to 1e9, \"refillPerSecond\": R from 0.000001 to 1e9}", im.value)
                        }
                        rateLimits[k.key, default: [:]][im.key] = RateLimit(capacity: c, refillPerSecond: r)
                    }
                }
            case "audit":
                guard case .object(let a) = m.value else { throw bad("policy.audit", "an object", m.value) }
                for am in a {
                    let key = "policy.audit.\(am.key)"
                    switch am.key {
                    case "enabled":
                        guard let b = am.value.boolValue else { throw bad(key, "true or false", am.value) }
                        audit.enabled = b
                    case "maxBytes", "keep":
                        guard let v = am.value.intValue, v >= (am.key == "keep" ? 1 : 1024), v <= 1 << 40 else {
                            throw bad(key, am.key == "keep" ? "a positive integer" : "an integer ≥ 1024", am.value)
                        }
                        if am.key == "keep" { audit.keep = Int(v) } else { audit.maxBytes = Int(v) }
                    default: throw bad(key, "one of \"enabled\", \"maxBytes\", \"keep\" (unknown key)")
                    }
                }
            default:
                throw bad("policy.\(m.key)", "one of \"skills\", \"agent\", \"rateLimits\", \"audit\" (unknown key)")
            }
        }
    }

    private static func surfaces(_ v: JSON, key: String, bad: (String, String, JSON?, String?) -> SkillError) throws(SkillError) -> Surfaces {
        guard let a = v.arrayValue else { throw bad(key, "an array of surfaces (human, automation, agent)", v, nil) }
        var out: Surfaces = []
        for e in a {
            guard let s = e.stringValue.flatMap(Surfaces.init(name:)) else { throw bad(key, "an array of surfaces (human, automation, agent)", v, nil) }
            out.insert(s)
        }
        return out
    }
}

extension Surfaces {
    /// "human", "automation" or "agent".
    init?(name: String) {
        switch name {
        case "human": self = .human
        case "automation": self = .automation
        case "agent": self = .agent
        default: return nil
        }
    }
}
