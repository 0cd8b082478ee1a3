import Dispatch
import Synchronization

/// Execution: runs a plan's steps through the invoker (schema validation, deadlines, isolation and
/// fallback all apply), independent steps concurrently — at most `maxParallel` at once — and each step
/// once the steps it depends on have finished. Emits dispatching/executing phases, with the skills'
/// progress reports. A step whose dependency failed, or whose feeds find nothing, is skipped.
struct Executor {
    let host: SkillHost
    let request: AgentRequest
    let phases: PhaseChannel
    let maxParallel: Int
    let timeoutMs: Int?
    /// Skill id → (version, SHA-256 of its file), for the trace.
    let builds: [String: (version: String, sha256: String?)]
    /// Intents not to run again in a replay (they change something); their steps are skipped with
    /// `StepRecord.notRerun` as the reason.
    let notRerun: Set<String>
    /// The request's context: a snapshot of it goes with every step; finished steps are recorded in it.
    let store: AgentContextStore
    /// Cancels the running steps (each call is told) and skips the rest.
    let cancellation: Cancellation?
    /// Asks the person to confirm a destructive step the policy will not run unconfirmed (see `AgentEngine.start`).
    let confirm: (@Sendable (String, String) -> Bool)?
    /// Learns the secrets of each step's input (fed values included) and output as they appear, so the
    /// phases published while the request runs never show them; in a replay, finds the steps that need a
    /// secret the trace does not keep.
    let redaction: TraceRedaction

    func run(_ plan: AgentPlan) async -> [StepRecord] {
        var done: [Int: StepRecord] = [:]
        var pending = plan.steps
        let total = plan.steps.count
        await withTaskGroup(of: StepRecord.self) { group in
            var running = 0
            while !pending.isEmpty || running > 0 {
                // Start every step whose dependencies are done, up to the bound.
                while running < maxParallel, let i = pending.firstIndex(where: { $0.dependsOn.allSatisfy { done[$0] != nil } }) {
                    let step = pending.remove(at: i)
                    switch resolve(step, done: done) {
                    case .failure(let reason):
                        let now = phases.elapsedMs
                        done[step.id] = StepRecord(step: step, input: step.input, status: .skipped, skipped: reason.reason, skillID: step.skillID,
                                                   skillVersion: builds[step.skillID]?.version, sha256: builds[step.skillID]?.sha256,
                                                   startMs: now, endMs: now, progress: [], fallback: [], question: reason.question)
                    case .success(let input):
                        phases.emit(.dispatching(intent: step.intent))
                        running += 1
                        let view = await store.snapshot()
                        group.addTask { await execute(step, input: input, total: total, view: view) }
                    }
                }
                guard running > 0 else { break }
                if let record = await group.next() {
                    running -= 1
                    done[record.step.id] = record
                    await store.record(record)
                }
            }
        }
        return plan.steps.compactMap { done[$0.id] }
    }

    /// The step's input with its feeds filled in, or why it cannot run.
    func resolve(_ step: PlanStep, done: [Int: StepRecord]) -> Result<JSONObject, StepSkip> {
        if cancellation?.isCancelled == true { return .failure(StepSkip("the request was cancelled before this step started")) }
        var input = step.input
        for feed in step.feeds {
            guard let source = done[feed.fromStep], source.status == .ok, let result = source.result else {
                return .failure(StepSkip("step \(feed.fromStep) (\(done[feed.fromStep]?.step.intent ?? "?")) did not succeed"))
            }
            if feed.pick == .matching {
                let what = "“\(feed.reference ?? "")”"
                switch feed.match(in: result) {
                case .value(let v): input[feed.field] = v
                case .none:
                    return .failure(StepSkip("no item of step \(feed.fromStep)'s \(feed.path) has a \(feed.label ?? "label") like \(what)",
                                             question: request.sentences.nothingCalled(feed.reference ?? "")))
                case .several(let labels):
                    let list = labels.map { "“\($0)”" }.joined(separator: ", ")
                    return .failure(StepSkip("several items of step \(feed.fromStep)'s \(feed.path) match \(what): \(list)",
                                             question: request.sentences.severalMatch(feed.reference ?? "", labels: labels)))
                }
                continue
            }
            guard let value = feed.value(in: result) else {
                return .failure(StepSkip("nothing to look up: step \(feed.fromStep) found no \(feed.path)"))
            }
            input[feed.field] = value
        }
        for id in step.dependsOn where done[id]?.status != .ok {
            return .failure(StepSkip("step \(id) did not succeed"))
        }
        let secret = redaction.secretFields(step.intent, input)
        if request.source == .replay, !secret.isEmpty || Self.mentions(SecretScope.marker, in: .object(input)) {
            return .failure(StepSkip(StepRecord.notRerunSecret(secret)))
        }
        if notRerun.contains(step.intent) { return .failure(StepSkip(StepRecord.notRerun)) }
        return .success(input)
    }

    /// Calls the intent (the task suspends while the skill works), reporting progress as phases.
    func execute(_ step: PlanStep, input: JSONObject, total: Int, view: ContextView) async -> StepRecord {
        let start = phases.elapsedMs
        let progress = Mutex<[JSON]>([])
        let phases = self.phases
        let skill = step.skillID, intent = step.intent
        phases.emit(.executing(skill: skill, intent: intent, step: step.id, total: total, detail: nil))
        var call = InvokeRequest(
            intent: intent, arguments: input, caller: request.caller, timeoutMs: timeoutMs,
            progress: { s, t, message in
                let detail = (message ?? "") + (t > 0 ? " \(s)/\(t)" : "")
                progress.withLock {
                    $0.append(.object(JSONObject([("step", .int(Int64(s))), ("total", .int(Int64(t))),
                                                   ("message", message.map(JSON.string) ?? .null),
                                                   ("atMs", .double((phases.elapsedMs * 10).rounded() / 10))])))
                }
                phases.emit(.executing(skill: skill, intent: intent, step: step.id, total: total, detail: detail.trimmingWhitespace()))
            },
            situation: CallSituation(locale: request.locale, now: request.nowText, timeZone: request.timeZone))
        call.contextView = view
        call.cancellation = cancellation
        let request = call
        let host = self.host
        let confirm = self.confirm
        var outcome = await host.invoke(request)
        // Refused until a person says yes: ask once, then call again confirmed (the first call never ran).
        if case .failure(let e) = outcome, e.needsConfirmation, let confirm, confirm(intent, e.skillID ?? skill) {
            var confirmed = request
            confirmed.confirmed = true
            outcome = await host.invoke(confirmed)
        }
        let end = phases.elapsedMs
        switch outcome {
        case .success(let s):
            _ = redaction.output(intent, s.result)  // learns its secrets
            return StepRecord(step: step, input: input, status: .ok, result: s.result, message: s.message, skillID: s.skillID,
                              skillVersion: s.skillVersion, sha256: builds[s.skillID]?.sha256, startMs: start, endMs: end,
                              progress: progress.withLock { $0 }, fallback: s.fallback.map(\.skill))
        case .failure(let e):
            return StepRecord(step: step, input: input, status: .error, error: e, skillID: e.skillID ?? step.skillID,
                              skillVersion: builds[step.skillID]?.version, sha256: builds[step.skillID]?.sha256, startMs: start, endMs: end,
                              progress: progress.withLock { $0 }, fallback: [])
        }
    }
}

struct StepSkip: Error {
    let reason: String
    /// What to ask the person, when the step waits for them (an item several match).
    let question: String?
    init(_ reason: String, question: String? = nil) { (self.reason, self.question) = (reason, question) }
}

extension Executor {
    /// Whether some string or member name inside `value` contains `text`.
    static func mentions(_ text: String, in value: JSON) -> Bool {
        switch value {
        case .string(let s): return s.contains(text)
        case .array(let a): return a.contains { mentions(text, in: $0) }
        case .object(let o): return o.contains { $0.key.contains(text) || mentions(text, in: $0.value) }
        default: return false
        }
    }
}
