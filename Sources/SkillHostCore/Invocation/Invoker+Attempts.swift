import Dispatch
import SkillABI
import SkillWire

/// The attempts at one admitted call (see `Invoker`): the chosen skill, then the fallbacks.
extension Invoker {
    nonisolated(nonsending) func attempts(_ plan: CallPlan) async -> Result<InvokeSuccess, SkillError> {
        let binding = plan.bindings[0], request = plan.request
        // 4. The chosen skill, then — for a failure that another skill might not have (crashed,
        //    timeout, unavailable, quarantine included) and only for an intent the failing skill marks
        //    read-only or idempotent — the next skill for the intent that is neither quarantined nor
        //    unavailable. All share the one deadline.
        var tried: [(skill: String, error: SkillError)] = []
        var candidates = plan.bindings.dropFirst().makeIterator()
        var current = binding
        while true {
            // One skill's try: the quarantine gate (a quarantined skill is not called, nor any skill
            // whose outcome could not be recorded), then the call, its outcome recorded.
            let e: SkillError
            if let refusal = health.refusal(for: current.skill) {
                e = refusal
            } else {
                let outcome = await call(current, plan)
                recordHealth(outcome, of: current.skill)
                switch consume outcome {
                case .success(var s):
                    if !tried.isEmpty { s.fallback = tried }
                    return .success(s)
                case .failure(let f):
                    e = f.error
                }
            }
            guard Self.fallbackKinds.contains(e.kind), !current.intent.flags.isDisjoint(with: [.readOnly, .idempotent]),
                  let next = nextCandidate(&candidates, request) else {
                guard !tried.isEmpty else { return .failure(e) }
                var first = tried[0].error
                first.message += " (then " + (tried.dropFirst().map { "\($0.skill): \($0.error.kind.rawValue)" } + ["\(current.skill.id): \(e.kind.rawValue) — \(e.message)"]).joined(separator: "; ") + ")"
                return .failure(first)
            }
            tried.append((current.skill.id, e))
            current = next
        }
    }

    /// Failure kinds after which a call may go to the next skill for the intent.
    static let fallbackKinds: Set<ErrorKind> = [.crashed, .timeout, .unavailable]

    /// The next binding this caller may call whose skill is neither quarantined nor unavailable.
    private func nextCandidate(_ it: inout IndexingIterator<ArraySlice<IntentBinding>>, _ request: InvokeRequest) -> IntentBinding? {
        while let b = it.next() {
            guard policy.surfaces(for: b).contains(request.caller.surface) else { continue }
            let state = health.current(b.skill.id).state
            if state != .quarantined && state != .unavailable { return b }
        }
        return nil
    }

    /// Records a call's outcome in the skill's health when the skill was reached. Not an async step
    /// of its own around `call`: each async level costs a task frame and an executor check per call.
    private func recordHealth(_ outcome: borrowing Result<InvokeSuccess, Failure>, of skill: RegisteredSkill) {
        switch outcome {
        case .success: health.record(skill, .succeeded(count: 1))
        case .failure(let e) where e.reached:
            switch e.error.kind {
            case .crashed, .timeout, .unavailable, .internal, .loadFailed, .incompatible:
                health.record(skill, .failed(kind: e.error.kind == .incompatible ? .loadFailed : e.error.kind, message: e.error.message))
            default:
                health.record(skill, .succeeded(count: 1))  // the skill answered (e.g. invalid_input): it is healthy
            }
        case .failure: break
        }
    }

    /// A failure, and whether the skill (or its worker) was reached.
    struct Failure: Error {
        var error: SkillError
        var reached: Bool
    }

    nonisolated(nonsending) private func call(_ binding: IntentBinding, _ plan: CallPlan) async -> Result<InvokeSuccess, Failure> {
        let skill = binding.skill, request = plan.request
        func fail(_ e: SkillError, reached: Bool = true) -> Result<InvokeSuccess, Failure> { .failure(Failure(error: e, reached: reached)) }

        // Validate the input before the skill sees it.
        let schema: (input: JSONSchema, output: JSONSchema?)
        switch schemas.schemas(binding) {
        case .success(let s): schema = s
        case .failure(let e): return fail(e, reached: false)
        }
        let violations = schema.input.validate(plan.input)
        if !violations.isEmpty {
            // Written for whoever reads it: a model sees the tool's schema in tools/list, a person `describe`.
            var hint = request.caller.surface == .agent ? "the tool's inputSchema (tools/list) says what each field must be"
                                                        : "`skillhost describe \(binding.intent.address)` shows each input's type, whether it is required and its allowed values"
            if binding.intent.version > 1, !request.intent.contains("@") {
                hint = "\(request.intent) now means version \(binding.intent.version) of the intent (\(binding.intent.address)); input written for an older version goes to \(binding.intent.name)@\(binding.intent.version - 1) or earlier. " + hint
            }
            return fail(SkillError(.invalidInput, "input for \(binding.intent.address) does not match its schema: " + violations.map(\.description).joined(separator: "; "),
                                   hint: hint, skillID: skill.id), reached: false)
        }

        // Load and call.
        let runtime: any SkillRuntime
        switch self.runtime(for: skill) {
        case .success(let r): runtime = r
        case .failure(let e): return fail(e)
        }
        let raw: RawCompletion
        switch await runtime.invoke(intent: binding.intent.address, input: plan.inputBytes, context: context(for: skill, caller: request.caller, situation: request.situation),
                              deadline: plan.deadline, progress: request.progress, cancellation: request.cancellation,
                              view: request.contextView) {
        case .success(let r): raw = r
        case .failure(var e):
            if e.causedByHost { return fail(e, reached: false) }
            if e.kind == .timeout { e.message = "skill \(skill.id) did not complete \(request.intent) within \(plan.timeoutMs) ms" }
            return fail(e)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - plan.start.uptimeNanoseconds) / 1e6

        // Map the outcome.
        var who: String { "skill \(skill.id) (\(skill.file.path))" }
        guard raw.status == SKH_STATUS_OK else {
            let message = raw.message ?? "no message"
            var e: SkillError
            switch raw.status {
            case SKH_STATUS_INVALID_INPUT: e = SkillError(.invalidInput, "\(request.intent): \(message)", skillID: skill.id)
            case SKH_STATUS_UNAVAILABLE: e = SkillError(.unavailable, "\(request.intent) is unavailable: \(message)", skillID: skill.id)
            case SKH_STATUS_CANCELLED: e = SkillError(.cancelled, "\(request.intent) was cancelled: \(message)", skillID: skill.id)
            case SKH_STATUS_FAILED: e = SkillError(.internal, "\(who) failed: \(message)", skillID: skill.id)
            default: e = SkillError(.internal, "\(who) completed with unknown status \(raw.status): \(message)", skillID: skill.id)
            }
            // skillhost.h: on failure, result_json may be a JSON object with details; they travel with the error.
            e.details = Self.failureDetails(raw)
            return fail(e)
        }
        let result: JSON
        if let parsed = raw.parsedResult {
            result = parsed
        } else if let problem = raw.resultProblem ?? raw.result.flatMap({ b in
            b.withUnsafeBufferPointer { UTF8Check.firstInvalidOffset($0) }.map { "is not valid UTF-8 (byte \($0))" } }) {
            let shown = String(decoding: (raw.result ?? []).prefix(80), as: UTF8.self)
            return fail(SkillError(.internal, "\(who) returned a result for \(request.intent) that \(problem): \"\(shown)\"",
                                   hint: "a bug in the skill: report it to its vendor (\(skill.summary.vendor))", skillID: skill.id))
        } else {
            let bytes = raw.result ?? Array("null".utf8)  // skillhost.h: a NULL result_json with SKH_STATUS_OK is JSON null (as through a worker)
            do { result = try JSON.parse(bytes) } catch {
                let shown = String(decoding: bytes.prefix(80), as: UTF8.self)
                return fail(SkillError(.internal, "\(who) returned a result for \(request.intent) that is not JSON (\(error)): \"\(shown)\"",
                                       hint: "a bug in the skill: report it to its vendor (\(skill.summary.vendor))", skillID: skill.id))
            }
        }
        if let out = schema.output {
            let bad = out.validate(result)
            if !bad.isEmpty {
                return fail(SkillError(.internal, "\(who) returned a result for \(request.intent) that does not match its output schema: " + bad.map(\.description).joined(separator: "; "),
                                       hint: "a bug in the skill: report it to its vendor (\(skill.summary.vendor))", skillID: skill.id))
            }
        }
        return .success(InvokeSuccess(intent: binding.intent.address, skillID: skill.id, skillVersion: skill.versionText,
                                      result: result, message: raw.message, durationMs: elapsed))
    }

    /// The details object a skill passed with a failure, if it passed a JSON object.
    static func failureDetails(_ raw: RawCompletion) -> JSON? {
        if let p = raw.parsedResult { return p.objectValue != nil ? p : nil }
        guard raw.resultProblem == nil, let bytes = raw.result, let j = try? JSON.parse(bytes), j.objectValue != nil else { return nil }
        return j
    }
}
