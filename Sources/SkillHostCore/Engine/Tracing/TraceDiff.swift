/// Replay: what differs between a recorded trace and a fresh run of the same request. Compared:
/// the recognized intents (intent, parameters), the plan (intent, input per step), each step's outcome
/// (status, error kind, output) and the answer — not timings, ids or the skills' file hashes (those are
/// shown, not compared: a rebuilt skill that answers the same is the same).
public enum TraceDiff {
    public struct Difference: Sendable, CustomStringConvertible {
        public var path: String
        public var recorded: JSON?
        public var replayed: JSON?
        public var description: String {
            "\(path): \(recorded.map(\.serialized) ?? "(absent)") → \(replayed.map(\.serialized) ?? "(absent)")"
        }
        public var json: JSON {
            .object(JSONObject([("path", .string(path)), ("recorded", recorded ?? .null), ("replayed", replayed ?? .null)]))
        }
    }

    /// The parts of a trace (or `AgentResponse.json`) that a replay must reproduce.
    static func comparable(_ trace: JSON) -> JSON {
        let intents = (trace["intents"]?.arrayValue ?? []).map { i in
            JSON.object(JSONObject([("intent", i["intent"] ?? .null), ("parameters", i["parameters"] ?? .null)]))
        }
        let steps = (trace["steps"]?.arrayValue ?? []).map { s in
            JSON.object(JSONObject([("intent", s["intent"] ?? .null), ("input", s["input"] ?? .null), ("status", s["status"] ?? .null),
                                    ("error", s["error"]?["kind"] ?? .null), ("output", s["output"] ?? .null)]))
        }
        return .object(JSONObject([("intents", .array(intents)), ("steps", .array(steps)), ("answer", trace["answer"] ?? .null),
                                   ("status", trace["status"] ?? .null)]))
    }

    /// Differences between the comparable parts of `recorded` and `replayed`, at most `limit`.
    public static func differences(recorded: JSON, replayed: JSON, limit: Int = 50) -> [Difference] {
        var a = comparable(recorded), b = comparable(replayed)
        // A step the replay did not re-run (it changes something, or needs a secret) is compared by intent and input only.
        let replayedSteps = replayed["steps"]?.arrayValue ?? []
        let notRerun = replayedSteps.indices.filter { replayedSteps[$0]["skipped"]?.stringValue?.hasPrefix(StepRecord.notRerunPrefix) == true }
        if !notRerun.isEmpty, case .object(var ao) = a, case .object(var bo) = b,
           var asteps = ao["steps"]?.arrayValue, var bsteps = bo["steps"]?.arrayValue {
            for i in notRerun {
                if i < asteps.count { asteps[i] = onlyPlan(asteps[i]) }
                if i < bsteps.count { bsteps[i] = onlyPlan(bsteps[i]) }
            }
            ao["steps"] = .array(asteps); bo["steps"] = .array(bsteps)
            // The answer quotes those steps' results, so it cannot match either.
            ao["answer"] = nil; bo["answer"] = nil; ao["status"] = nil; bo["status"] = nil
            (a, b) = (.object(ao), .object(bo))
        }
        var out: [Difference] = []
        diff(a, b, path: "", into: &out, limit: limit)
        return out
    }

    static func onlyPlan(_ step: JSON) -> JSON {
        .object(JSONObject([("intent", step["intent"] ?? .null), ("input", step["input"] ?? .null)]))
    }

    static func diff(_ a: JSON?, _ b: JSON?, path: String, into out: inout [Difference], limit: Int) {
        guard out.count < limit else { return }
        switch (a, b) {
        case (.object(let x)?, .object(let y)?):
            var keys = x.keys
            for k in y.keys where !keys.contains(k) { keys.append(k) }
            for k in keys { diff(x[k], y[k], path: path.isEmpty ? k : path + "." + k, into: &out, limit: limit) }
        case (.array(let x)?, .array(let y)?):
            for i in 0..<max(x.count, y.count) {
                diff(i < x.count ? x[i] : nil, i < y.count ? y[i] : nil, path: "\(path)[\(i)]", into: &out, limit: limit)
            }
        default:
            if !same(a, b) { out.append(Difference(path: path, recorded: a, replayed: b)) }
        }
    }

    /// Equal, counting 2 and 2.0 as the same number.
    static func same(_ a: JSON?, _ b: JSON?) -> Bool {
        if let x = a?.doubleValue, let y = b?.doubleValue { return x == y }
        return a == b
    }
}
