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
/// element, e.g. "messages[*].event.start"), reduced to the earliest or latest day ("YYYY-MM-DD").
public struct Feed: Sendable {
    public enum Pick: String, Sendable { case earliestDay, latestDay }
    public var field: String
    public var fromStep: Int
    public var path: String
    public var pick: Pick

    public var json: JSON {
        .object(JSONObject([("field", .string(field)), ("fromStep", .int(Int64(fromStep))), ("path", .string(path)), ("pick", .string(pick.rawValue))]))
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
/// taken from `from`'s result. The rule names intents and result paths, never skill code; it applies
/// only when the skills serving both intents are registered.
public struct ChainRule: Sendable {
    public var from: String
    public var to: String
    public var feeds: [(field: String, path: String, pick: Feed.Pick)]

    /// Meeting invitations found in mail → what else is on the calendar those days.
    public static let builtIn: [ChainRule] = [
        ChainRule(from: "mail.triage", to: "calendar.events.list",
                  feeds: [("from", "messages[*].event.start", .earliestDay), ("to", "messages[*].event.start", .latestDay)]),
    ]
}

enum Planner {
    static func plan(_ recognition: Recognition, catalog: IntentCatalog, rules: [ChainRule] = ChainRule.builtIn) -> AgentPlan {
        var steps: [PlanStep] = []
        for r in recognition.intents where r.missing.isEmpty {
            steps.append(PlanStep(id: steps.count + 1, intent: r.intent, skillID: r.skillID, input: r.parameters, dependsOn: [], feeds: []))
        }
        for rule in rules {
            guard let source = steps.first(where: { $0.intent == rule.from }),
                  !steps.contains(where: { $0.intent == rule.to }),
                  let target = catalog.entries.first(where: { $0.intent == rule.to || $0.name == rule.to }) else { continue }
            steps.append(PlanStep(id: steps.count + 1, intent: target.intent, skillID: target.skillID, input: JSONObject(),
                                  dependsOn: [source.id],
                                  feeds: rule.feeds.map { Feed(field: $0.field, fromStep: source.id, path: $0.path, pick: $0.pick) }))
        }
        return AgentPlan(steps: steps)
    }
}
