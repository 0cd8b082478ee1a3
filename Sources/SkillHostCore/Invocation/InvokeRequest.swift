import FoundationEssentials

/// A call's input: JSON text (the CLI's `--input`, scripts), or an object a surface already holds
/// (MCP's `arguments`, the engine's filled parameters), which is then not written out as text only
/// to be parsed again. Either way the invoker checks it (a JSON object within `JSONLimits`).
public enum InvokeInput: Sendable {
    case text(String)
    case object(JSONObject)
}

/// One call of an intent, as a surface hands it to the core.
public struct InvokeRequest: Sendable {
    public var intent: String
    /// The input; parsed (text) and validated by the invoker.
    public var input: InvokeInput
    public var caller: Caller
    /// Overrides the configured deadline.
    public var timeoutMs: Int?
    /// Receives the skill's progress reports (step, total, message), on any thread.
    public var progress: (@Sendable (UInt32, UInt32, String?) -> Void)?
    /// Lets the caller cancel the call while it runs (see `Cancellation`).
    public var cancellation: Cancellation?
    /// The caller's locale and "now", when they differ from the host's (the agent engine passes the
    /// request's); nil: the host's settings and clock.
    public var situation: CallSituation?
    /// Context-store entries the skill reads in place of the shared store's (see `ContextView`).
    public var contextView: ContextView?
    /// The caller confirmed a destructive intent: a person answered yes, or automation passed `--yes`.
    public var confirmed = false
    /// `--idempotency-key`: a repeated key (same intent and input) within the configured window returns
    /// the first call's result instead of calling again (see `IdempotencyStore`).
    public var idempotencyKey: String?
    /// The surface's name for the caller's session (an MCP HTTP session), written to the audit line.
    public var session: String?

    /// A call with its input as JSON text.
    public init(intent: String, input: String, caller: Caller, timeoutMs: Int? = nil,
                progress: (@Sendable (UInt32, UInt32, String?) -> Void)? = nil, cancellation: Cancellation? = nil,
                situation: CallSituation? = nil) {
        self.init(intent: intent, input: .text(input), caller: caller, timeoutMs: timeoutMs, progress: progress,
                  cancellation: cancellation, situation: situation)
    }

    /// A call with its input as an object.
    public init(intent: String, arguments: JSONObject, caller: Caller, timeoutMs: Int? = nil,
                progress: (@Sendable (UInt32, UInt32, String?) -> Void)? = nil, cancellation: Cancellation? = nil,
                situation: CallSituation? = nil) {
        self.init(intent: intent, input: .object(arguments), caller: caller, timeoutMs: timeoutMs, progress: progress,
                  cancellation: cancellation, situation: situation)
    }

    public init(intent: String, input: InvokeInput, caller: Caller, timeoutMs: Int? = nil,
                progress: (@Sendable (UInt32, UInt32, String?) -> Void)? = nil, cancellation: Cancellation? = nil,
                situation: CallSituation? = nil) {
        self.situation = situation
        self.intent = intent
        self.input = input
        self.caller = caller
        self.timeoutMs = timeoutMs
        self.progress = progress
        self.cancellation = cancellation
    }
}

/// The surroundings of one call that a skill sees in its context: the caller's BCP 47 locale, the
/// instant that counts as "now" (RFC 3339) and, when it is not the host's, the caller's time zone.
public struct CallSituation: Sendable {
    public var locale: String
    public var now: String
    public var timeZone: String?
    public init(locale: String, now: String, timeZone: String? = nil) { (self.locale, self.now, self.timeZone) = (locale, now, timeZone) }
}

/// A successful call.
public struct InvokeSuccess: Sendable {
    public var intent: String
    public var skillID: String
    public var skillVersion: String
    /// The skill's result, already checked against the intent's output schema.
    public var result: JSON
    /// The skill's one-sentence summary, if it gave one.
    public var message: String?
    public var durationMs: Double
    /// The skills tried before `skillID` answered, and how each failed (empty when the first answered).
    public var fallback: [(skill: String, error: SkillError)] = []
    /// The result of an earlier call with the same idempotency key, not a new call.
    public var replayed = false

    /// The JSON contract of `skillhost invoke --json`.
    public var json: JSON {
        var o = JSONObject([("ok", .bool(true)), ("skill", .string(skillID)), ("version", .string(skillVersion)),
                            ("intent", .string(intent)), ("result", result)])
        if let message { o["message"] = .string(message) }
        if replayed { o["replayed"] = .bool(true) }
        if !fallback.isEmpty {
            o["fallback"] = .array(fallback.map { f in
                var e = f.error.json.objectValue!
                e["skill"] = nil
                return .object(JSONObject([("skill", .string(f.skill)), ("error", .object(e))]))
            })
        }
        return .object(o)
    }
}

extension SkillError {
    /// `{"ok":false,"error":{…}}`, the JSON contract for a failed call.
    public var responseJSON: JSON { .object(JSONObject([("ok", .bool(false)), ("error", json)])) }
}
