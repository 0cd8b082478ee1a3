import Dispatch
import SkillWire

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
    nonisolated(nonsending) func audited(_ request: InvokeRequest, start: DispatchTime,
                 _ call: nonisolated(nonsending) (inout CallRecord) async -> Result<InvokeSuccess, SkillError>) async -> Result<InvokeSuccess, SkillError> {
        var record = CallRecord()
        let outcome = await call(&record)
        audit(request, record, outcome, start: start)
        return outcome
    }

    /// One line of the audit log (see `AuditLog`), written straight as bytes: this runs on every call.
    func audit(_ request: InvokeRequest, _ record: CallRecord, _ outcome: Result<InvokeSuccess, SkillError>, start: DispatchTime) {
        guard config.policy.audit.enabled else { return }
        var l = Line()
        l.bytes.reserveCapacity(384)
        l.raw("{")
        l.key("time"); l.quoted(TimeText.nowUTC())
        l.key("caller"); l.quoted(request.caller.kind)
        if case .agent(let host) = request.caller { l.key("agentHost"); l.quoted(host) }
        if let session = request.session { l.key("session"); l.quoted(session) }
        l.key("intent"); l.quoted(record.binding?.intent.address ?? request.intent)
        let success = try? outcome.get()
        if let b = record.binding {
            l.key("skill"); l.quoted(success?.skillID ?? b.skill.id)
            l.key("version"); l.quoted(success?.skillVersion ?? b.skill.versionText)
        }
        l.key("decision"); l.quoted(record.decision?.name ?? "none")
        switch outcome {
        case .success(let s):
            l.key("outcome"); l.raw("\"ok\"")
            if s.replayed { l.key("replayed"); l.bool(true) }
        case .failure(let e):
            l.key("outcome"); l.quoted(e.kind.rawValue)
            if let rule = e.rule { l.key("rule"); l.quoted(rule) }
            if let d = e.details { l.key("details"); AuditLog.shortened(d).write(to: &l.bytes) }
        }
        if let key = request.idempotencyKey { l.key("idempotencyKey"); l.quoted(key) }
        l.key("durationMs")
        l.hundredths(Int((DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds + 5_000) / 10_000))
        // The input only with its schema, which says what is secret; never without it.
        if let input = record.input, let b = record.binding, case .success(let schema) = schemas.schemas(b) {
            l.key("input"); AuditLog.shortened(schema.input.redacted(input)).write(to: &l.bytes)
        }
        l.raw("}")
        audit.record(line: l.bytes)
    }
}
