/// Decision, second half: what to run. One step per recognized intent; steps without dependencies run
/// in parallel. A step may be fed by an earlier one (`Feed`): its input members come from the earlier
/// step's result when that finishes, and it is skipped when there is nothing to feed.
public struct AgentPlan: Sendable {
    public var steps: [PlanStep]

    public var json: JSON { .object(JSONObject([("steps", .array(steps.map(\.json)))])) }
}

public struct PlanStep: Sendable {
    /// 1-based, in plan order.
    public var id: Int
    public var intent: String
    public var skillID: String
    public var input: JSONObject
    /// Steps that must finish first.
    public var dependsOn: [Int]
    public var feeds: [Feed]

    public var json: JSON {
        .object(JSONObject([("id", .int(Int64(id))), ("intent", .string(intent)), ("skill", .string(skillID)),
                            ("input", .object(input)), ("dependsOn", .array(dependsOn.map { .int(Int64($0)) })),
                            ("feeds", .array(feeds.map(\.json)))]))
    }
}

/// An input member filled from an earlier step's result: the values at `path` (dotted, `[*]` for every
/// element, e.g. "messages[*].event.start"), reduced to the earliest or latest day ("YYYY-MM-DD");
/// or (`matching`) the `field` of the one item at `path` whose `label` the request's `reference` names.
public struct Feed: Sendable {
    public enum Pick: String, Sendable { case earliestDay, latestDay, matching }
    public var field: String
    public var fromStep: Int
    public var path: String
    public var pick: Pick
    public var label: String? = nil
    public var reference: String? = nil

    public var json: JSON {
        var o = JSONObject([("field", .string(field)), ("fromStep", .int(Int64(fromStep))), ("path", .string(path)), ("pick", .string(pick.rawValue))])
        if let label { o["label"] = .string(label) }
        if let reference { o["reference"] = .string(reference) }
        return .object(o)
    }

    /// What a matching feed found: one value, nothing, or several items' labels.
    enum Outcome {
        case value(JSON)
        case none
        case several([String])
    }

    /// The item whose label the reference names best (a share of at least a half, and better than any
    /// other's), else nothing or the labels of the items that tie.
    func match(in result: JSON) -> Outcome {
        guard let label, let reference else { return .none }
        let items = Self.values(at: path.split(separator: ".").map(String.init), in: result).flatMap { $0.arrayValue ?? [$0] }
        let scored = items.compactMap { item -> (JSON, String, Double)? in
            guard let id = item[field], let text = item[label]?.stringValue else { return nil }
            return (id, text, Lookups.match(label: text, reference: reference))
        }.filter { $0.2 >= 0.5 }
        guard let best = scored.map(\.2).max() else { return .none }
        let top = scored.filter { $0.2 == best }
        return top.count == 1 ? .value(top[0].0) : .several(top.map(\.1))
    }

    /// The value for `field` from `result`, or nil when the path finds no day.
    func value(in result: JSON) -> JSON? {
        let days = Self.values(at: path.split(separator: ".").map(String.init), in: result)
            .compactMap { $0.stringValue.flatMap { CivilDate(String($0.prefix(10))) } }
        guard let day = pick == .earliestDay ? days.min() : days.max() else { return nil }
        return .string(day.description)
    }

    static func values(at path: [String], in json: JSON) -> [JSON] {
        guard let head = path.first else { return [json] }
        let rest = Array(path.dropFirst())
        if head.hasSuffix("[*]") {
            let key = String(head.dropLast(3))
            return (json[key]?.arrayValue ?? []).flatMap { values(at: rest, in: $0) }
        }
        return json[head].map { values(at: rest, in: $0) } ?? []
    }
}

/// A step that feeds another, when both intents are available: after `from`, run `to` with inputs
/// taken from `from`'s result. Rules come from the skills (an intent's `feeds`, skh_intent.feeds) and
/// from the config (`agent.chains`), never from the engine: they name intents and result paths, never
/// skill code, and apply only when the skills serving both intents are registered. A config rule for
/// the same `from` and `to` replaces the skill's, and `"enabled": false` turns it off. E.g. meeting
/// invitations found in mail → the calendar for those days, as the mail skill declares it:
///
///     {"from": "mail.triage", "to": "calendar.events.list",
///      "feeds": [{"field": "from", "path": "messages[*].event.start", "pick": "earliestDay"},
///                {"field": "to", "path": "messages[*].event.start", "pick": "latestDay"}]}
public struct ChainRule: Sendable {
    public var from: String
    public var to: String
    public var feeds: [(field: String, path: String, pick: Feed.Pick)]
    /// False: a config rule that turns off the skills' rule for `from` → `to`.
    public var enabled = true

    public init(from: String, to: String, feeds: [(field: String, path: String, pick: Feed.Pick)], enabled: Bool = true) {
        (self.from, self.to, self.feeds, self.enabled) = (from, to, feeds, enabled)
    }

    /// Whether this rule is about `from` → `to` (by address or bare name).
    func links(_ from: IntentCatalog.Entry, _ to: IntentCatalog.Entry) -> Bool {
        (self.from == from.intent || self.from == from.name) && (self.to == to.intent || self.to == to.name)
    }

    /// The rules in force: the config's (`configured`, enabled ones), then each catalog intent's declared
    /// feeds that no config rule names.
    static func effective(configured: [ChainRule], catalog: IntentCatalog) -> [ChainRule] {
        var rules = configured.filter(\.enabled)
        for e in catalog.entries {
            for f in e.feeds {
                guard let target = catalog.entries.first(where: { $0.intent == f.intent || $0.name == f.intent }),
                      !configured.contains(where: { $0.links(e, target) }) else { continue }
                rules.append(ChainRule(from: e.intent, to: f.intent, feeds: f.fields.map { ($0.name, $0.path, $0.pick) }))
            }
        }
        return rules
    }
}

enum Planner {
    /// `rules`: the config's chain rules; the skills' own come from `catalog` (see `ChainRule.effective`).
    static func plan(_ recognition: Recognition, catalog: IntentCatalog, rules configured: [ChainRule] = []) -> AgentPlan {
        let rules = ChainRule.effective(configured: configured, catalog: catalog)
        var steps: [PlanStep] = []
        for r in recognition.intents where r.missing.isEmpty {
            if let l = r.lookup {
                // The lookup first (once per intent it serves), then the step it feeds.
                let source = steps.first { $0.intent == l.intent && $0.feeds.isEmpty }?.id ?? {
                    steps.append(PlanStep(id: steps.count + 1, intent: l.intent, skillID: l.skillID, input: JSONObject(), dependsOn: [], feeds: []))
                    return steps.count
                }()
                steps.append(PlanStep(id: steps.count + 1, intent: r.intent, skillID: r.skillID, input: r.parameters, dependsOn: [source],
                                      feeds: [Feed(field: l.field, fromStep: source, path: l.items, pick: .matching, label: l.label, reference: l.reference)]))
                continue
            }
            steps.append(PlanStep(id: steps.count + 1, intent: r.intent, skillID: r.skillID, input: r.parameters, dependsOn: [], feeds: []))
        }
        for rule in rules {
            guard let source = steps.first(where: { s in s.intent == rule.from || catalog.entries.contains { $0.intent == s.intent && $0.name == rule.from } }),
                  !steps.contains(where: { $0.intent == rule.to }),
                  let target = catalog.entries.first(where: { $0.intent == rule.to || $0.name == rule.to }) else { continue }
            steps.append(PlanStep(id: steps.count + 1, intent: target.intent, skillID: target.skillID, input: JSONObject(),
                                  dependsOn: [source.id],
                                  feeds: rule.feeds.map { Feed(field: $0.field, fromStep: source.id, path: $0.path, pick: $0.pick) }))
        }
        return AgentPlan(steps: steps)
    }
}
