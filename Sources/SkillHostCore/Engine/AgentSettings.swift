/// The `agent` section of the host config:
///
///     "agent": {
///       "defaults": { "weather.forecast": { "place": "home" } },   // inputs people do not say every time
///       "maxParallel": 4,          // steps running at once
///       "minConfidence": 0.5,      // below this an intent is not acted on
///       "minWriteConfidence": 0.6, // from scripts and agents, below this nothing is changed
///       "keepTraces": 200,         // newest traces kept in $XDG_STATE_HOME/skillhost/traces
///       "stepTimeoutMs": 10000,    // deadline per step (default: invokeTimeoutMs)
///       "chains": [                // a step that feeds another (see `ChainRule`); skills declare
///         {"from": "x.find", "to": "y.list",   // their own (skh_intent.feeds), a rule here for the
///          "feeds": [{"field": "from", "path": "items[*].start", "pick": "earliestDay"}]},  // same pair wins
///         {"from": "mail.triage", "to": "calendar.events.list", "enabled": false}      // turns one off
///       ]
///     }
public struct AgentSettings: Sendable {
    public var defaults: [String: JSONObject] = [:]
    public var maxParallel = 4
    public var minConfidence = 0.5
    /// From scripts and agents, an intent that changes something needs at least this confidence.
    public var minWriteConfidence = 0.6
    public var keepTraces = 200
    public var stepTimeoutMs: Int?
    public var chains: [ChainRule] = []

    public init() {}

    init(_ j: JSON, file: String) throws(SkillError) {
        func bad(_ m: String) -> SkillError { SkillError(.invalidInput, "config file \"\(file)\": \(m)") }
        guard case .object(let o) = j else { throw bad("\"agent\" must be an object, e.g. {\"maxParallel\": 4}") }
        for m in o {
            switch m.key {
            case "defaults":
                guard case .object(let d) = m.value else { throw bad("\"agent.defaults\" must be an object of intent → input members") }
                for e in d {
                    guard case .object(let input) = e.value else { throw bad("\"agent.defaults.\(e.key)\" must be an object of input members, found \(e.value.serialized)") }
                    defaults[e.key] = input
                }
            case "maxParallel", "keepTraces", "stepTimeoutMs":
                guard let n = m.value.intValue, n > 0, n <= 1_000_000 else { throw bad("\"agent.\(m.key)\" must be a positive integer, found \(m.value.serialized)") }
                switch m.key {
                case "maxParallel": maxParallel = Int(n)
                case "keepTraces": keepTraces = Int(n)
                default: stepTimeoutMs = Int(n)
                }
            case "minWriteConfidence":
                guard let d = m.value.doubleValue, (0...1).contains(d) else { throw bad("\"agent.minWriteConfidence\" must be a number from 0 to 1, found \(m.value.serialized)") }
                minWriteConfidence = d
            case "minConfidence":
                guard let d = m.value.doubleValue, (0...1).contains(d) else { throw bad("\"agent.minConfidence\" must be a number from 0 to 1, found \(m.value.serialized)") }
                minConfidence = d
            case "chains":
                guard case .array(let rules) = m.value else { throw bad("\"agent.chains\" must be an array of {\"from\", \"to\", \"feeds\"}, found \(m.value.serialized)") }
                for (i, rule) in rules.enumerated() {
                    let at = "\"agent.chains[\(i)]\""
                    for key in rule.objectValue?.keys ?? [] where !["from", "to", "feeds", "enabled"].contains(key) {
                        throw bad("\(at): unknown member \"\(key)\" (expected from, to, feeds, enabled)")
                    }
                    if let e = rule["enabled"], e.boolValue == nil { throw bad("\(at).enabled must be true or false, found \(e.serialized)") }
                    let enabled = rule["enabled"]?.boolValue ?? true
                    guard let from = rule["from"]?.stringValue, let to = rule["to"]?.stringValue else {
                        throw bad("\(at) must be {\"from\": intent, \"to\": intent, \"feeds\": [...]} (or {\"from\", \"to\", \"enabled\": false} to turn a skill's rule off), found \(rule.serialized)")
                    }
                    if !enabled {
                        chains.append(ChainRule(from: from, to: to, feeds: [], enabled: false))
                        continue
                    }
                    guard case .array(let feeds)? = rule["feeds"] else {
                        throw bad("\(at) must be {\"from\": intent, \"to\": intent, \"feeds\": [...]} (or {\"from\", \"to\", \"enabled\": false} to turn a skill's rule off), found \(rule.serialized)")
                    }
                    var parsed: [(field: String, path: String, pick: Feed.Pick)] = []
                    for (j, f) in feeds.enumerated() {
                        guard let field = f["field"]?.stringValue, let path = f["path"]?.stringValue,
                              let pick = f["pick"]?.stringValue.flatMap(Feed.Pick.init(rawValue:)), pick != .matching else {
                            throw bad("\(at).feeds[\(j)] must be {\"field\", \"path\", \"pick\": \"earliestDay\" or \"latestDay\"}, found \(f.serialized)")
                        }
                        parsed.append((field, path, pick))
                    }
                    chains.append(ChainRule(from: from, to: to, feeds: parsed))
                }
            default:
                throw bad("unknown member \"agent.\(m.key)\" (expected defaults, maxParallel, minConfidence, minWriteConfidence, keepTraces, stepTimeoutMs, chains)")
            }
        }
    }
}
