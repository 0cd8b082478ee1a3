import Dispatch
import Glibc

/// The agent engine: perception (an `AgentRequest`) → decision (recognition, then a plan) → execution
/// (the plan's steps through the invoker, independent ones in parallel) → synthesis (one answer), with
/// its phase published as an `AsyncStream` and a trace written for every request. What the skills'
/// schemas mark secret never leaves the engine in clear text (`TraceRedaction`): not in the phases,
/// the response, nor the trace.
///
/// Skills never share mutable state: each step gets its own input, built before it starts (or from
/// the finished results it depends on, see `Feed`), and a snapshot of the request's context
/// (`AgentContextStore`: the request and the results of finished steps) that it reads through the ABI;
/// what skills write goes through the host service to the host's store.
/// Thread-safe; one engine serves any number of requests at once.
public final class AgentEngine: Sendable {
    public let host: SkillHost
    public let settings: AgentSettings
    let recognizer: any IntentRecognizer
    let traces: TraceStore?
    /// For a replay (`AgentRequest.Source.replay`): also re-run intents that change something. By
    /// default a replay does not repeat them (it would create a second reminder); their steps are
    /// planned and compared, not run.
    let replayWrites: Bool

    /// `traces`: where traces go (nil: none are written, e.g. for replays).
    public init(host: SkillHost, recognizer: (any IntentRecognizer)? = nil, traces: TraceStore?, replayWrites: Bool = false) {
        self.host = host
        self.replayWrites = replayWrites
        self.settings = host.config.agent
        self.recognizer = recognizer ?? KeywordRecognizer(threshold: host.config.agent.minConfidence)
        self.traces = traces
    }

    /// A running request: observe `phases` while awaiting `response`.
    public struct Run: Sendable {
        public let phases: AsyncStream<PhaseEvent>
        public let response: Task<AgentResponse, Never>

        /// For synchronous surfaces: blocks the calling thread (a main or Dispatch thread, never a
        /// Swift-concurrency one) until the answer, handing each phase to `onPhase` on the way.
        public func wait(onPhase: (@Sendable (PhaseEvent) -> Void)? = nil) -> AgentResponse {
            let done = DispatchSemaphore(value: 0)
            let box = ResponseBox()
            Task {
                for await event in phases { onPhase?(event) }
                box.value = await response.value
                done.signal()
            }
            done.wait()
            return box.value!
        }

        /// For asynchronous surfaces: the answer, handing each phase to `onPhase` on the way.
        public func finish(onPhase: (@Sendable (PhaseEvent) -> Void)? = nil) async -> AgentResponse {
            for await event in phases { onPhase?(event) }
            return await response.value
        }
    }

    /// Hands the response from the task to the waiting thread (written before `signal`, read after `wait`).
    private final class ResponseBox: @unchecked Sendable {
        var value: AgentResponse?
    }

    /// `cancellation`: cancelling it tells the running steps' skills (as for `invoke`), skips the steps
    /// not started yet, and ends the request `cancelled` with what had been answered.
    /// `confirm`: asked (on a Dispatch thread) when the policy wants a person to confirm a destructive
    /// step — the surface asks, the core decides; without it such steps are refused by the policy.
    public func start(_ request: AgentRequest, cancellation: Cancellation? = nil,
                      confirm: (@Sendable (_ intent: String, _ skill: String) -> Bool)? = nil) -> Run {
        let channel = PhaseChannel()
        let task = Task { await self.handle(request, channel: channel, cancellation: cancellation, confirm: confirm) }
        return Run(phases: channel.stream, response: task)
    }

    func handle(_ request: AgentRequest, channel phases: PhaseChannel, cancellation: Cancellation?,
                confirm: (@Sendable (String, String) -> Bool)?) async -> AgentResponse {
        let startedAt = request.zone.rfc3339(Int(time(nil)))
        phases.emit(.understanding)
        let catalog = IntentCatalog(registry: host.registry, caller: request.caller, policy: host.invoker.policy)
        let guarded = WriteGuard.apply(recognizer.recognize(request, catalog: catalog, defaults: settings.defaults),
                                       request: request, catalog: catalog, minWriteConfidence: settings.minWriteConfidence)
        let recognition = Lookups.attach(guarded, catalog: catalog)

        phases.emit(.planning)
        let plan = Planner.plan(recognition, catalog: catalog, rules: settings.chains)
        // What the schemas mark secret is known from here on: the phases published while the steps run
        // never show it, and the response (so the trace and every surface) holds it only as "[redacted]".
        let redaction = TraceRedaction(catalog: catalog, texts: phases.secrets)
        for r in recognition.intents { _ = redaction.secretFields(r.intent, r.parameters) }
        for s in plan.steps { _ = redaction.secretFields(s.intent, s.input) }
        let ids = Set(plan.steps.map(\.skillID))
        let hashes = host.fileHashes(of: ids)
        var builds: [String: (version: String, sha256: String?)] = [:]
        for id in ids {
            if let s = host.registry.skill(id: id) { builds[id] = (s.summary.version.description, hashes[id]) }
        }
        var notRerun = Set<String>()
        if request.source == .replay && !replayWrites {
            notRerun = Set(catalog.entries.filter { $0.flags.isDisjoint(with: [.readOnly, .idempotent]) }.map(\.intent))
        }
        let records = await Executor(host: host, request: request, phases: phases, maxParallel: settings.maxParallel,
                                     timeoutMs: settings.stepTimeoutMs, builds: builds, notRerun: notRerun,
                                     store: AgentContextStore(request: request), cancellation: cancellation, confirm: confirm,
                                     redaction: redaction).run(plan)

        phases.emit(.collecting)
        phases.emit(.synthesizing)
        var (answer, status) = Synthesizer.answer(request, recognition: recognition, records: records, catalog: catalog)
        if cancellation?.isCancelled == true {
            status = .cancelled
            answer = request.sentences.cancelled + (answer.isEmpty ? "" : "\n" + answer)
        }
        switch status {
        case .answered, .partial, .clarify, .notUnderstood: phases.emit(.finished)
        case .cancelled: phases.emit(.failed(reason: "cancelled"))
        case .failed: phases.emit(.failed(reason: records.compactMap(\.error?.message).first ?? "every step failed"))
        }
        var response = redaction.redact(AgentResponse(request: request, recognition: recognition, plan: plan, steps: records, answer: answer,
                                                      status: status.rawValue, phases: phases.events, startedAt: startedAt,
                                                      durationMs: phases.elapsedMs, traceID: nil, tracePath: nil))
        if let traces {
            switch traces.write(response, keep: settings.keepTraces) {
            case .success(let (id, path)): (response.traceID, response.tracePath) = (id, path)
            case .failure(let problem): HostLog.warning(problem.message)
            }
        }
        return response
    }
}

/// What the engine answered, and everything a trace keeps about how.
public struct AgentResponse: Sendable {
    public var request: AgentRequest
    public var recognition: Recognition
    public var plan: AgentPlan
    public var steps: [StepRecord]
    public var answer: String
    /// "answered", "partial", "failed", "clarify", "not_understood" or "cancelled".
    public var status: String
    public var phases: [PhaseEvent]
    public var startedAt: String
    public var durationMs: Double
    public var traceID: String?
    public var tracePath: String?

    /// The exit code a command-line surface uses: 0 answered or partial, 10 when it asks a question
    /// back, 11 when nothing was understood, 18 when cancelled, else the first step's error kind.
    public var exitCode: Int32 {
        switch status {
        case "answered", "partial": return 0
        case "cancelled": return ErrorKind.cancelled.exitCode
        case "clarify": return ErrorKind.invalidInput.exitCode
        case "not_understood": return ErrorKind.noSkill.exitCode
        default: return steps.compactMap(\.error).first?.kind.exitCode ?? 1
        }
    }

    /// `ask --json` and the trace file: {version, id, request, intents, questions, plan, steps, phases,
    /// answer, status, startedAt, durationMs}.
    public var json: JSON {
        var o = JSONObject([
            ("version", .int(1)), ("id", traceID.map(JSON.string) ?? .null), ("request", request.json),
            ("language", .string(request.language)),
            ("intents", .array(recognition.intents.map(\.json))), ("questions", .array(recognition.questions.map(\.json))),
            ("plan", plan.json), ("steps", .array(steps.map(\.json))), ("phases", .array(phases.map(\.json))),
            ("answer", .string(answer)), ("status", .string(status)), ("startedAt", .string(startedAt)),
            ("durationMs", .double((durationMs * 10).rounded() / 10)), ("trace", tracePath.map(JSON.string) ?? .null),
        ])
        if let note = request.languageNote { o["languageNote"] = .string(note) }
        return .object(o)
    }
}
