import Dispatch
import SkillWire

/// What admission decided for one call, and what every attempt at it shares.
struct CallPlan: Sendable {
    let request: InvokeRequest
    /// The parsed input (a JSON object), and the bytes a skill receives.
    let input: JSON
    let inputBytes: [UInt8]
    /// The skills that serve the intent, in order (the first is chosen; the rest are fallbacks).
    let bindings: [IntentBinding]
    let timeoutMs: Int
    let start: DispatchTime
    /// One deadline for every attempt.
    let deadline: DispatchTime
}

extension Invoker {
    /// Admission: the audit log must be writable (`AuditLog.refusal`), the input must be a JSON object
    /// (within `JSONLimits`), someone must serve the intent, and the policy must let this caller call it.
    /// Fills `record` for the audit line.
    func admit(_ request: InvokeRequest, start: DispatchTime, record: inout CallRecord) -> Result<CallPlan, SkillError> {
        if let refusal = audit.refusal() { return .failure(refusal) }
        let timeout = request.timeoutMs ?? config.invokeTimeoutMs
        let input: JSON, inputBytes: [UInt8]
        switch request.input {
        case .text(let text):
            inputBytes = Array(text.utf8)
            do { input = try JSON.parse(inputBytes) } catch {
                return .failure(SkillError(.invalidInput, "input for \(request.intent) is not valid JSON: \(error)",
                                           hint: "pass a JSON object, e.g. --input '{\"from\":\"2026-11-30\"}'"))
            }
            guard case .object = input else {
                return .failure(SkillError(.invalidInput, "input for \(request.intent) must be a JSON object, found \(input.typeDescription)"))
            }
        case .object(let object):
            input = .object(object)
            // The same limit as text input (the parser's), so no skill ever sees deeper input.
            if input.depth > JSONLimits.maxDepth {
                return .failure(SkillError(.invalidInput, "input for \(request.intent) is nested deeper than \(JSONLimits.maxDepth) levels"))
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(128)
            input.write(to: &bytes)
            inputBytes = bytes
        }
        record.input = input

        let registry = self.registry
        let bindings = registry.bindings(for: request.intent)
        guard let binding = bindings.first else {
            let near = registry.suggestions(for: request.intent)
            return .failure(SkillError(.noSkill, "no skill declares the intent \"\(request.intent)\"",
                                       hint: near.isEmpty ? "run `skillhost list` to see the intents on offer" : "did you mean \(near.prefix(5).joined(separator: ", "))?"))
        }
        record.binding = binding
        let decision = policy.decide(binding, caller: request.caller, confirmed: request.confirmed)
        record.decision = decision
        if case .denied(let d) = decision { return .failure(d.error(skillID: binding.skill.id)) }
        return .success(CallPlan(request: request, input: input, inputBytes: inputBytes, bindings: bindings, timeoutMs: timeout,
                                 start: start, deadline: start + .milliseconds(timeout)))
    }
}
