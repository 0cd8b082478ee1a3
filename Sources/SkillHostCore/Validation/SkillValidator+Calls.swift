import Dispatch
import SkillABI

/// The `examples` and `wrong-input` checks: calls through the host's invoker (schema checks on input
/// and output, as every caller gets) and calls straight to the worker (no schema check: only
/// validate does that, to see what the skill itself does with input it should refuse).
extension SkillValidator {
    /// Findings of one check: what went wrong (fail), what is worth a look (warn), each as who (an
    /// intent or example) and what happened, and one JSON object per call for `--json`.
    struct Findings {
        var failures: [(who: String, what: String)] = []
        var warnings: [(who: String, what: String)] = []
        var calls: [JSON] = []

        /// The check's status and message: `summary`, then the findings (the same finding of several
        /// intents or examples once, the first three in the message, every call in the details), then `fix`.
        func check(_ name: String, summary: String, fix: String, notes: [String]) -> ValidationCheck {
            let noted = notes.isEmpty ? "" : " (not called: \(notes.joined(separator: "; ")))"
            let details = JSON.object(JSONObject([("calls", .array(calls))]))
            if !failures.isEmpty {
                return ValidationCheck(name, .fail, Self.list(failures) + "; fix: " + fix, details: details)
            }
            if !warnings.isEmpty {
                return ValidationCheck(name, .warn, summary + "; but " + Self.list(warnings) + noted, details: details)
            }
            return ValidationCheck(name, .pass, summary + noted, details: details)
        }

        static func list(_ items: [(who: String, what: String)]) -> String {
            var order: [String] = []
            var whos: [String: [String]] = [:]
            for i in items {
                if whos[i.what] == nil { order.append(i.what) }
                whos[i.what, default: []].append(i.who)
            }
            let lines = order.map { what -> String in
                let w = whos[what]!
                return w.prefix(3).joined(separator: ", ") + (w.count > 3 ? " and \(w.count - 3) more" : "") + " " + what
            }
            return lines.prefix(3).joined(separator: "; ") + (lines.count > 3 ? "; and \(lines.count - 3) more (see --json)" : "")
        }
    }

    /// Why validate does not call `intent` with its examples, if it does not.
    static func notCalled(_ intent: IntentManifest) -> String? {
        if intent.flags.contains(.destructive) { return "\(intent.name) is destructive, and validate never calls destructive intents" }
        if intent.flags.contains(.openWorld) {
            return "\(intent.name) is open-world: its answers depend on the outside world (network, services)"
        }
        return nil
    }

    /// Sends `input` for `intent` straight to the skill's worker: no schema check of the input or the
    /// result, no health bookkeeping. The only caller of the runtime that bypasses the invoker.
    func direct(_ intent: String, _ input: JSON, caller: Caller) -> Result<RawCompletion, SkillError> {
        var bytes: [UInt8] = []
        input.write(to: &bytes)
        return direct(intent, bytes, context: context(caller))
    }

    /// `direct` with the input already serialized; counts the call and a missed deadline. Thread-safe.
    func direct(_ intent: String, _ input: [UInt8], context: String) -> Result<RawCompletion, SkillError> {
        callCount.add(1, ordering: .relaxed)
        let runtime = self.runtime!, timeout = callTimeoutMs
        let r = runBlocking {
            await runtime.invoke(intent: intent, input: input, context: context, deadline: .now() + .milliseconds(timeout),
                                 progress: nil, cancellation: nil)
        }
        if case .failure(let e) = r, e.kind == .timeout { missedDeadline(intent) }
        return r
    }

    func missedDeadline(_ intent: String) {
        neverCompleted.withLock { $0[intent, default: 0] += 1 }
    }

    /// A call through the host's invoker, as any caller would make it (`reachesSkill` false: input the
    /// host must refuse itself, so no call of the skill is counted).
    func throughHost(_ intent: IntentManifest, _ input: JSON, reachesSkill: Bool = true) -> Result<InvokeSuccess, SkillError> {
        if reachesSkill { callCount.add(1, ordering: .relaxed) }
        let request = InvokeRequest(intent: intent.name, input: input.serialized, caller: Self.caller(for: intent), timeoutMs: callTimeoutMs)
        let invoker = self.invoker!
        let r = runBlocking { await invoker.invoke(request) }
        if case .failure(let e) = r, e.kind == .timeout { missedDeadline(intent.name) }
        return r
    }

    // MARK: - examples

    /// Each example input of each intent validate may call, through the invoker: it must complete with
    /// ok and a result that matches the output schema.
    func examples() {
        var f = Findings()
        var notes: [String] = []
        var ok = 0, intents = 0
        for intent in manifest.intents {
            let inputs = intent.examples.enumerated().compactMap { k, e in e.input.map { (k, $0) } }
            if inputs.isEmpty { continue }
            if let why = Self.notCalled(intent) { notes.append(why); continue }
            intents += 1
            for (k, input) in inputs {
                let label = "\(intent.name) examples[\(k)]"
                var call = JSONObject([("intent", .string(intent.name)), ("example", .int(Int64(k)))])
                let reusable = !intent.flags.isDisjoint(with: [.readOnly, .idempotent])
                switch throughHost(intent, input) {
                case .success:
                    ok += 1
                    call["outcome"] = "ok"
                    if reusable { answered.append((intent, k, input)) }
                case .failure(let e):
                    call["outcome"] = .string(e.kind.rawValue)
                    call["message"] = .string(e.message)
                    switch e.kind {
                    case .unavailable:
                        f.warnings.append((label, "answered unavailable: \(e.message)"))
                        if reusable { answered.append((intent, k, input)) }
                    case .invalidInput:
                        f.failures.append((label, "was refused as invalid_input, though the manifest declares it a valid input: \(e.message)"))
                    default:
                        f.failures.append((label, "failed with \(e.kind.rawValue): \(e.message)"))
                    }
                }
                f.calls.append(.object(call))
            }
        }
        guard !f.calls.isEmpty else {
            add("examples", .skip, "no example with an \"input\" to call" + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"))
            return
        }
        var summary = "\(ok) of \(f.calls.count) example call\(f.calls.count == 1 ? "" : "s") of \(intents) intent\(intents == 1 ? "" : "s") completed ok with a result matching the output schema"
        if !f.warnings.isEmpty {
            summary += " (validate gives the skill an empty configuration section and an empty data folder; a skill that needs configuration answers unavailable)"
        }
        append(f.check("examples", summary: summary,
                                     fix: "each example's input must be one the skill accepts: complete it with SKH_STATUS_OK and a result matching output_schema (or change the example)",
                                     notes: notes))
    }

    // MARK: - wrong-input

    /// Inputs that break each intent's input schema (see `WrongInputs`), sent straight to the skill:
    /// each must be answered, once, with SKH_STATUS_INVALID_INPUT. A crash, a missed deadline or an ok
    /// answer fails (an ok answer to an unknown field only warns: ignoring unknown members is common
    /// JSON practice); another error status warns. One input per intent also goes through the host,
    /// which must answer invalid_input itself.
    func wrongInput() {
        var f = Findings()
        var notes: [String] = []
        var intents = 0
        for intent in manifest.intents {
            if intent.flags.contains(.destructive) {
                notes.append("\(intent.name) is destructive, and validate never calls destructive intents")
                continue
            }
            let base = intent.examples.lazy.compactMap(\.input).first { $0.objectValue != nil }
            let probes = WrongInputs.generate(schema: intent.inputSchema, base: base)
            guard let first = probes.first else { continue }
            intents += 1
            if case .failure(let e) = throughHost(intent, first.input, reachesSkill: false), e.kind == .invalidInput {} else {
                f.failures.append(("the host", "did not answer invalid_input for \(intent.name) with \(first.label) (a host bug: report it)"))
            }
            let caller = Self.caller(for: intent)
            for probe in probes {
                let outcome = direct(intent.name, probe.input, caller: caller)
                var call = JSONObject([("intent", .string(intent.name)), ("kind", .string(probe.kind.rawValue)),
                                       ("input", probe.input)])
                let who = "\(intent.name) with \(probe.label)"
                var stop = false
                switch outcome {
                case .success(let raw):
                    call["outcome"] = .string(Self.statusName(raw.status))
                    if let m = raw.message { call["message"] = .string(m) }
                    switch raw.status {
                    case SKH_STATUS_INVALID_INPUT: break
                    case SKH_STATUS_OK where probe.kind == .unknownProperty:
                        f.warnings.append((who, "answered ok (it ignores the field; with additionalProperties false it should refuse it)"))
                    case SKH_STATUS_OK:
                        f.failures.append((who, "answered ok: it acted on input its schema rules out"))
                    default:
                        f.warnings.append((who, "answered \(Self.statusName(raw.status)) instead of invalid_input: \(raw.message ?? "no message")"))
                    }
                case .failure(let e):
                    call["outcome"] = .string(e.kind.rawValue)
                    call["message"] = .string(e.message)
                    f.failures.append((who, e.kind == .timeout ? "did not complete within \(callTimeoutMs) ms: \(e.message)" : e.kind == .crashed ? "crashed: \(e.message)" : "ended with \(e.kind.rawValue): \(e.message)"))
                    stop = true  // one crash or hang per intent says it; more would only wait for restarts
                }
                f.calls.append(.object(call))
                if stop { break }
            }
        }
        guard intents > 0 else {
            add("wrong-input", .skip, "no intent's input schema rules anything out (no required fields, types, enums, bounds, lengths, formats or additionalProperties false)"
                + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"))
            return
        }
        let sent = "\(f.calls.count) input\(f.calls.count == 1 ? "" : "s") that break the input schema of \(intents) intent\(intents == 1 ? "" : "s") went to the skill without the host's schema check"
        let summary = f.warnings.isEmpty ? sent + ": each was answered invalid_input, once; the host's own check answers invalid_input too" : sent
        append(f.check("wrong-input", summary: summary,
                                     fix: "check the input in the skill too (defence in depth: the host checks it first, but a skill must never crash or act on input that breaks its schema) and complete with SKH_STATUS_INVALID_INPUT and a message naming the field",
                                     notes: notes))
    }
}
