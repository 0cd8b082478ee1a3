import Dispatch
import Glibc

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

    /// Writes the call's line to the audit log (see `AuditLog`), when the log is on. Not inlined into
    /// `audited`: the async caller would then keep a copy of the request for it (measured: +800
    /// instructions per call with the log off).
    @inline(never)
    func audit(_ request: InvokeRequest, _ record: CallRecord, _ outcome: Result<InvokeSuccess, SkillError>, start: DispatchTime) {
        guard config.policy.audit.enabled else { return }
        // The input only with its schema, which says what is secret; never without it.
        let inputSchema = record.input == nil ? nil : record.binding.flatMap { try? schemas.schemas($0).get().input }
        let hundredths = Int((DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds + 5_000) / 10_000)
        AuditLine.onStack { l in
            Self.auditLine(&l, time: time(nil), durationHundredthsMs: hundredths, request, record, outcome, inputSchema: inputSchema)
            audit.record(&l)
        }
    }

    /// One call's audit line: `{"time","caller","agentHost"?,"session"?,"intent","skill"?,"version"?,
    /// "decision","outcome","replayed"?|"rule"?,"details"?,"idempotencyKey"?,"durationMs","input"?}`,
    /// members in that order, only those that apply; the input (with its schema's secrets redacted,
    /// see `AuditLine.json`) only when its schema is known. Names that are the same on every call are
    /// written as literals, and the binding's intent, skill and version as the bytes it keeps
    /// (`IntentBinding.auditNames`) unless another skill answered.
    static func auditLine(_ l: inout AuditLine, time: Int, durationHundredthsMs: Int, _ request: InvokeRequest, _ record: CallRecord,
                          _ outcome: Result<InvokeSuccess, SkillError>, inputSchema: JSONSchema?) {
        l.raw("{\"time\":"); l.utcTime(time)
        switch request.caller {
        case .human: l.raw(",\"caller\":\"human\"")
        case .automation: l.raw(",\"caller\":\"automation\"")
        case .agent(let host): l.raw(",\"caller\":\"agent\",\"agentHost\":"); l.quoted(host)
        }
        if let session = request.session { l.raw(",\"session\":"); l.quoted(session) }
        var answered: (id: String, version: String)?
        if case .success(let s) = outcome { answered = (s.skillID, s.skillVersion) }
        if let binding = record.binding {
            let skill = binding.skill
            if let answered, answered.id != skill.id || answered.version != skill.versionText {
                l.raw(",\"intent\":"); l.quoted(binding.intent.address)
                l.raw(",\"skill\":"); l.quoted(answered.id)
                l.raw(",\"version\":"); l.quoted(answered.version)
            } else {
                l.bytes(binding.auditNames)
            }
        } else {
            l.raw(",\"intent\":"); l.quoted(request.intent)
        }
        l.raw(",\"decision\":\""); l.raw(record.decision?.name ?? "none"); l.raw("\"")
        switch outcome {
        case .success(let s):
            l.raw(",\"outcome\":\"ok\"")
            if s.replayed { l.raw(",\"replayed\":true") }
        case .failure(let e):
            l.raw(",\"outcome\":"); l.quoted(e.kind.rawValue)
            if let rule = e.rule { l.raw(",\"rule\":"); l.quoted(rule) }
            if let d = e.details { l.raw(",\"details\":"); l.json(d) }
        }
        if let key = request.idempotencyKey { l.raw(",\"idempotencyKey\":"); l.quoted(key) }
        l.raw(",\"durationMs\":"); l.hundredths(durationHundredthsMs)
        if let input = record.input, let inputSchema { l.raw(",\"input\":"); l.json(input, redacting: inputSchema) }
        l.raw("}")
    }
}
