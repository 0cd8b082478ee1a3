/// The kind of a failure, as every surface reports it. The raw values are a public contract
/// (`skillhost invoke --json` prints them; scripts match on them), and so are the exit codes.
public enum ErrorKind: String, Sendable, CaseIterable, Codable {
    /// The input does not match the intent's schema or the skill's own rules.
    case invalidInput = "invalid_input"
    /// No registered skill declares the intent.
    case noSkill = "no_skill"
    /// The skill (or something it depends on) cannot serve now.
    case unavailable
    /// The skill did not complete before the deadline.
    case timeout
    /// The skill's process died (signal, abort, exit) during the call.
    case crashed
    /// Policy does not let this caller call this intent.
    case denied
    /// The skill was built for an ABI, architecture or toolchain this host cannot serve.
    case incompatible
    /// The skill's file could not be loaded or initialised.
    case loadFailed = "load_failed"
    /// The caller cancelled the call.
    case cancelled
    /// Anything else: a bug in the skill (bad result) or in the host.
    case `internal`

    /// The process exit code `skillhost` uses for this kind. 0 is success, 2 a usage error.
    public var exitCode: Int32 {
        switch self {
        case .invalidInput: return 10
        case .noSkill: return 11
        case .unavailable: return 12
        case .timeout: return 13
        case .crashed: return 14
        case .denied: return 15
        case .incompatible: return 16
        case .loadFailed: return 17
        case .cancelled: return 18
        case .internal: return 19
        }
    }
}

/// A failure of a skill call or of loading a skill, with a message a person can act on.
/// Every failure below the surfaces is turned into one of these; nothing else escapes to a surface.
public struct SkillError: Error, Sendable, CustomStringConvertible {
    public var kind: ErrorKind
    /// What was expected and what was found, naming the file, skill or intent.
    public var message: String
    /// What to do about it, when there is something to do.
    public var hint: String?
    /// The skill that failed, when one was chosen.
    public var skillID: String?
    /// For `denied`: the policy rule that denied (a config key such as "policy.rateLimits.agent.*", or
    /// "manifest.surfaces", "destructive.confirm", "destructive.yes").
    public var rule: String?
    /// For a rate-limited call: seconds until a retry may succeed.
    public var retryAfterSeconds: Double?
    /// For `denied` by "destructive.confirm": a person may confirm, and the surface call again with
    /// `InvokeRequest.confirmed`.
    public var needsConfirmation = false
    /// For a configuration error: the file, line and column at fault (`--json`: `error.config`).
    public var config: ConfigLocation?
    /// The details object the skill passed with its failure (skillhost.h: `complete` with a status
    /// other than OK and a JSON object as result): `error.details` in `--json`, in MCP results and in
    /// the audit log.
    public var details: JSON?
    /// The host, not the skill, caused this failure (e.g. a worker refused a frame the host sent):
    /// it is never counted against the skill's health.
    var causedByHost = false

    public init(_ kind: ErrorKind, _ message: String, hint: String? = nil, skillID: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.skillID = skillID
    }

    public var description: String { hint.map { "\(message)\nhint: \($0)" } ?? message }

    /// The `"error"` object of the JSON contract: kind, message and (when present) hint and skill.
    public var json: JSON {
        var o = JSONObject([("kind", .string(kind.rawValue)), ("message", .string(message))])
        if let hint { o["hint"] = .string(hint) }
        if let skillID { o["skill"] = .string(skillID) }
        if let rule { o["rule"] = .string(rule) }
        if let retryAfterSeconds { o["retryAfterSeconds"] = .double(retryAfterSeconds) }
        if let config { o["config"] = config.json }
        if let details { o["details"] = details }
        return .object(o)
    }
}
