/// What happened to one plan step: its resolved input, its result or error, which skill build
/// answered, and when it ran (milliseconds since the request started — overlapping intervals are how
/// a trace shows that two steps ran in parallel).
public struct StepRecord: Sendable {
    public enum Status: String, Sendable { case ok, error, skipped }

    public var step: PlanStep
    public var input: JSONObject
    public var status: Status
    public var result: JSON?
    public var message: String?
    public var error: SkillError?
    /// Why a step did not run.
    public var skipped: String?
    /// The skill that answered (a fallback may answer instead of the planned one), its version and file hash.
    public var skillID: String
    public var skillVersion: String?
    public var sha256: String?
    public var startMs: Double
    public var endMs: Double
    /// The skill's progress reports: {"step","total","message","atMs"}.
    public var progress: [JSON]
    public var fallback: [String]
    /// The question a skipped step asks (which item was meant), answered by saying it again.
    public var question: String? = nil

    /// The reason of a step a replay did not run because its intent changes something.
    public static let notRerun = notRerunPrefix + "the intent changes something (replay --include-writes runs it)"

    /// The reason of a step a replay did not run because its input needs a secret (at `fields`, or a
    /// value the trace holds only as "[redacted]"): traces keep no secrets, so the replay does not have
    /// it, and it never sends the marker in its place (not even with --include-writes).
    public static func notRerunSecret(_ fields: [String]) -> String {
        let named = fields.isEmpty ? "a value the trace keeps only as \(SecretScope.marker)"
            : fields.map { $0.isEmpty ? "the whole input" : "\"\($0)\"" }.joined(separator: ", ")
        return notRerunPrefix + "its input needs a secret (\(named)) and traces keep none; run the request again with `skillhost ask` to call it"
    }

    /// How every reason a replay gives for not running a step begins (`TraceDiff` compares such a step
    /// by its plan only).
    public static let notRerunPrefix = "not re-run in a replay: "

    public var json: JSON {
        var o = JSONObject([("id", .int(Int64(step.id))), ("intent", .string(step.intent)), ("skill", .string(skillID)),
                            ("skillVersion", skillVersion.map(JSON.string) ?? .null), ("sha256", sha256.map(JSON.string) ?? .null),
                            ("input", .object(input)), ("status", .string(status.rawValue))])
        if let result { o["output"] = result }
        if let message { o["message"] = .string(message) }
        if let error { o["error"] = error.json }
        if let skipped { o["skipped"] = .string(skipped) }
        if let question { o["question"] = .string(question) }
        o["startMs"] = .double((startMs * 10).rounded() / 10)
        o["endMs"] = .double((endMs * 10).rounded() / 10)
        o["durationMs"] = .double(((endMs - startMs) * 10).rounded() / 10)
        o["progress"] = .array(progress)
        if !fallback.isEmpty { o["fallback"] = .array(fallback.map(JSON.string)) }
        return .object(o)
    }
}
