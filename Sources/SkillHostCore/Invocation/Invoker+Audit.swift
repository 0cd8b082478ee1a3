import Dispatch

/// The audit wrapper around every call: one line in the audit log (see `AuditLog`) with what the call's
/// admission decided and how it ended.
extension Invoker {
    /// What the audit line of a call needs that only the call knows.
    struct CallRecord {
        var binding: IntentBinding?
        var decision: PolicyDecision?
        var input: JSON?
    }

    /// Runs `call` and writes its audit line, whatever the outcome.
    func audited(_ request: InvokeRequest, start: DispatchTime,
                 _ call: (inout CallRecord) async -> Result<InvokeSuccess, SkillError>) async -> Result<InvokeSuccess, SkillError> {
        var record = CallRecord()
        let outcome = await call(&record)
        audit(request, record, outcome, start: start)
        return outcome
    }

    /// One line of the audit log (see `AuditLog`).
    func audit(_ request: InvokeRequest, _ record: CallRecord, _ outcome: Result<InvokeSuccess, SkillError>, start: DispatchTime) {
        guard config.policy.audit.enabled else { return }
        var o = JSONObject([("time", .string(TimeText.nowUTC())), ("caller", .string(request.caller.kind))])
        if case .agent(let host) = request.caller { o["agentHost"] = .string(host) }
        if let session = request.session { o["session"] = .string(session) }
        o["intent"] = .string(record.binding?.intent.address ?? request.intent)
        if let b = record.binding {
            o["skill"] = .string((try? outcome.get())?.skillID ?? b.skill.id)
            o["version"] = .string((try? outcome.get())?.skillVersion ?? b.skill.summary.version.description)
        }
        o["decision"] = .string(record.decision?.name ?? "none")
        switch outcome {
        case .success(let s):
            o["outcome"] = .string("ok")
            if s.replayed { o["replayed"] = .bool(true) }
        case .failure(let e):
            o["outcome"] = .string(e.kind.rawValue)
            if let rule = e.rule { o["rule"] = .string(rule) }
            if let d = e.details { o["details"] = AuditLog.shortened(d) }
        }
        if let key = request.idempotencyKey { o["idempotencyKey"] = .string(key) }
        o["durationMs"] = .double((Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e4).rounded() / 100)
        // The input only with its schema, which says what is secret; never without it.
        if let input = record.input, let b = record.binding, case .success(let schema) = schemas.schemas(b.skill, b.intent.address) {
            o["input"] = AuditLog.shortened(schema.input.redacted(input))
        }
        audit.record(.object(o))
    }
}
