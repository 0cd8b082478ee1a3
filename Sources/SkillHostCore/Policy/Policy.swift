/// What policy says about one call.
public enum PolicyDecision: Sendable, Equatable {
    /// The call may go ahead.
    case allowed
    /// A destructive intent, and the caller confirmed it (a person answered yes, automation passed `--yes`).
    case confirmed
    /// The call may not go ahead; `Denial` names the rule.
    case denied(Denial)

    /// "allowed", "confirmed" or "denied": the audit log's `decision` (written as fixed text).
    public var name: StaticString {
        switch self {
        case .allowed: return "allowed"
        case .confirmed: return "confirmed"
        case .denied: return "denied"
        }
    }
}

/// Why a call was denied: the rule (a config key, or a manifest field), a message, what to do.
public struct Denial: Sendable, Equatable {
    /// The rule that denied, e.g. "policy.skills.x.y.agent", "policy.rateLimits.agent.*", "destructive.confirm".
    public var rule: String
    public var message: String
    public var hint: String?
    /// Seconds until a rate-limited call may succeed.
    public var retryAfterSeconds: Double?
    /// A person at a terminal can still allow this call by confirming it (the surface asks, then calls
    /// again with `InvokeRequest.confirmed`).
    public var needsConfirmation = false
    /// `denied`, or `unavailable` when the rule could not be applied because its state could not be
    /// read or recorded (the call is refused all the same: guarantees fail closed).
    public var kind: ErrorKind = .denied

    init(rule: String, message: String, hint: String? = nil, retryAfterSeconds: Double? = nil, needsConfirmation: Bool = false, kind: ErrorKind = .denied) {
        self.rule = rule
        self.message = message
        self.hint = hint
        self.retryAfterSeconds = retryAfterSeconds
        self.needsConfirmation = needsConfirmation
        self.kind = kind
    }

    func error(skillID: String) -> SkillError {
        var e = SkillError(kind, message, hint: hint, skillID: skillID)
        e.rule = rule
        e.retryAfterSeconds = retryAfterSeconds
        e.needsConfirmation = needsConfirmation
        return e
    }
}

/// Every rule about who may call what, in one place: the surfaces an intent declares, narrowed by the
/// config per skill and intent; confirmation of destructive intents; rate limits per caller kind and
/// intent. The invoker consults `decide` once per call; surfaces only read the outcome (the MCP
/// server lists the tools `agentMayCall` lets through). Thread-safe.
public struct Policy: Sendable {
    public let config: PolicyConfig
    let limiter: RateLimiter

    init(config: PolicyConfig, stateDir: String) {
        self.config = config
        limiter = RateLimiter(path: stateDir + "/ratelimits.json")
    }

    /// The surfaces that may call `binding`'s intent: the manifest's, narrowed by the config.
    public func surfaces(for b: IntentBinding) -> Surfaces {
        var s = b.intent.surfaces
        let rules = config.skills[b.skill.id]
        s.formIntersection(rules?.surfaces ?? .all)
        if let k = intentRuleKey(b, rules) { s.formIntersection(rules!.intents[k]!) }
        return s
    }

    /// The config key of `b`'s per-intent rule, if there is one (the address first, then the name).
    private func intentRuleKey(_ b: IntentBinding, _ rules: PolicyConfig.SkillRules?) -> String? {
        [b.intent.address, b.intent.name].first { rules?.intents[$0] != nil }
    }

    /// The rule that keeps `missing` out of `b`'s surfaces (only asked on a denial).
    private func narrowingRule(_ b: IntentBinding, missing: Surfaces) -> String {
        let id = b.skill.id
        let rules = config.skills[id]
        if !b.intent.surfaces.contains(missing) { return "manifest.surfaces" }
        if !(rules?.surfaces ?? .all).contains(missing) { return "policy.skills.\(id).\(missing.names.first ?? "")" }
        return "policy.skills.\(id).intents.\(intentRuleKey(b, rules) ?? b.intent.address).surfaces"
    }

    /// Whether an agent may call `binding` at all (surfaces, and for a destructive intent the config's
    /// `allowDestructive`) — what `tools/list` offers. Rate limits are not considered.
    public func agentMayCall(_ binding: IntentBinding) -> Bool {
        surfaces(for: binding).contains(.agent) && (!binding.intent.flags.contains(.destructive) || agentAllowedDestructive(binding))
    }

    private func agentAllowedDestructive(_ b: IntentBinding) -> Bool {
        !config.agentAllowDestructive.isDisjoint(with: [b.skill.id, b.intent.name, b.intent.address])
    }

    /// The decision for one call of `binding` by `caller`. `confirmed`: the person confirmed, or
    /// automation passed `--yes`. Takes a rate-limit token when the call is otherwise allowed.
    public func decide(_ binding: IntentBinding, caller: Caller, confirmed: Bool) -> PolicyDecision {
        var what: String { "\(binding.intent.address) (skill \(binding.skill.id))" }
        let allowed = surfaces(for: binding)
        guard allowed.contains(caller.surface) else {
            let rule = narrowingRule(binding, missing: caller.surface)
            let only = allowed.names.isEmpty ? "no surface" : "only " + allowed.names.joined(separator: ", ")
            return .denied(Denial(rule: rule, message: "\(what) may not be called by \(caller): \(rule == "manifest.surfaces" ? "the intent allows" : "the config (\(rule)) allows") \(only)",
                                  hint: rule == "manifest.surfaces" ? nil : "the host's owner can change \(rule) in the config"))
        }
        var decision = PolicyDecision.allowed
        if binding.intent.flags.contains(.destructive) {
            switch caller {
            case .human where !confirmed:
                return .denied(Denial(rule: "destructive.confirm", message: "\(what) is destructive: confirm it first",
                                      hint: "answer y at the prompt, or pass --yes", needsConfirmation: true))
            case .automation where !confirmed:
                return .denied(Denial(rule: "destructive.yes", message: "\(what) is destructive: automation must pass --yes to run it",
                                      hint: "add --yes to the command line"))
            case .agent where !agentAllowedDestructive(binding):
                return .denied(Denial(rule: "policy.agent.allowDestructive", message: "\(what) is destructive and agents may not call it",
                                      hint: "the host's owner can allow it by adding \"\(binding.skill.id)\" or \"\(binding.intent.name)\" to policy.agent.allowDestructive"))
            case .human, .automation: decision = .confirmed
            case .agent: break
            }
        }
        if let (key, limit) = rateLimit(caller: caller, intent: binding.intent) {
            let rule = "policy.rateLimits.\(caller.kind).\(key)"
            // One bucket per rule: a rule on a name (or "*", per intent name) covers every version of
            // the intent; only a rule on an address ("x@2") has a bucket of its own.
            let bucket = caller.kind + " " + (key == "*" ? binding.intent.name : key)
            let taken: Double?
            do throws(StateFile.Failure) { taken = try limiter.take(bucket: bucket, limit: limit) } catch {
                return .denied(Denial(rule: rule, message: error.refusal("the rate limit \(rule) for \(what)").message,
                                      hint: error.refusal("").hint, kind: .unavailable))
            }
            if let wait = taken {
                let rounded = (wait * 1000).rounded(.up) / 1000
                return .denied(Denial(rule: rule, message: "\(what) is rate-limited for \(caller.kind) callers (\(rule): \(JSON.format(limit.capacity)) calls, refilled at \(JSON.format(limit.refillPerSecond))/s); retry after \(JSON.format(rounded)) s",
                                      hint: "wait, or the host's owner can raise \(rule)", retryAfterSeconds: rounded))
            }
        }
        return decision
    }

    private func rateLimit(caller: Caller, intent: IntentSummary) -> (String, PolicyConfig.RateLimit)? {
        guard let rules = config.rateLimits[caller.kind] else { return nil }
        for k in [intent.address, intent.name, "*"] { if let r = rules[k] { return (k, r) } }
        return nil
    }
}
