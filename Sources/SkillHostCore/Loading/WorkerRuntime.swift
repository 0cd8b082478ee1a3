import Dispatch
import Glibc
import Synchronization

/// Runs one skill's calls in a worker process (`skillhost-worker serve`): the default isolation
/// (`Isolation.process`) for every skill the config does not mark trusted.
///
/// - The worker starts on the first call (or health probe) and serves every later one.
/// - A skill without SKH_SKILL_THREAD_SAFE gets one call at a time (a caller waits for the previous
///   call, up to its own deadline, in an `AsyncGate`: a suspended task, not a parked thread); a
///   thread-safe skill may have many calls in flight in one worker.
/// - A call that overruns its deadline ends with `timeout`, and the worker is stopped (SIGTERM, then
///   SIGKILL after `WorkerSettings.killGraceMs`); the next call starts a new one.
/// - A worker that dies (crash, exit, memory or CPU limit, broken protocol) fails the calls it had in
///   flight with an error naming why (`WorkerDeath`); the next call starts a new one, after a backoff
///   that doubles with each failure in a row (0, 50 ms, 100 ms, … up to 5 s, ±25 % jitter) and resets
///   after a successful call. If the backoff ends after a call's deadline, the call fails at once
///   with `unavailable`.
/// Policy and validation are not here: the `Invoker` decides what may be called; this only runs calls.
/// Thread-safe; every wait is a suspended task (see `Pending`), so calls in flight cost memory, not threads.
final class WorkerRuntime: SkillRuntime {
    let skill: RegisteredSkill
    let workerPath: String
    let settings: WorkerSettings
    /// How its workers are confined (nil: not sandboxed).
    let sandbox: WorkerSandbox?
    /// Where its workers' sandbox reports are kept (nil: nowhere, as in tests that start workers alone).
    let reports: SandboxReports?
    /// What its workers reported beyond completions (second completions), across restarts.
    let events = WorkerEvents()
    private let serial: AsyncGate?

    private struct State {
        var worker: WorkerProcess?
        /// Failures (unexpected ends, deadline kills, load failures) since the last successful call.
        var failures = 0
        /// No new worker before this uptime (ns).
        var notBefore: UInt64 = 0
    }
    private let state = Mutex(State())

    init(skill: RegisteredSkill, workerPath: String, settings: WorkerSettings, sandbox: WorkerSandbox? = nil, reports: SandboxReports? = nil) {
        self.sandbox = sandbox
        self.reports = reports
        self.skill = skill
        self.workerPath = workerPath
        self.settings = settings
        serial = skill.summary.threadSafe ? nil : AsyncGate()
    }

    nonisolated(nonsending) func invoke(intent: String, input: [UInt8], context: String, deadline: DispatchTime,
                progress: (@Sendable (UInt32, UInt32, String?) -> Void)?,
                cancellation: Cancellation?, view: ContextView?) async -> Result<RawCompletion, SkillError> {
        if let serial, !(await serial.enter(until: deadline, cancellation: cancellation)) {
            if cancellation?.isCancelled == true {
                return .failure(SkillError(.cancelled, "\(intent) was cancelled while waiting for skill \(skill.id) to finish an earlier call", skillID: skill.id))
            }
            return .failure(SkillError(.timeout, "skill \(skill.id) is busy with an earlier call that has not completed, and the deadline passed while waiting", skillID: skill.id))
        }
        defer { serial?.leave() }
        let worker: WorkerProcess
        if let w = runningReadyWorker() {
            worker = w  // every call after the first: no suspension, no task frame
        } else {
            switch await readyWorker(deadline: deadline, intent: intent) {
            case .failure(let e): return .failure(e)
            case .success(let w): worker = w
            }
        }
        guard let outcome = await worker.call(intent: intent, input: input, context: context, deadline: deadline, progress: progress,
                                        cancellation: cancellation, view: view) else {
            worker.terminate(.deadline(intent: intent))
            detach(worker)
            return .failure(SkillError(.timeout, "skill \(skill.id) did not complete \(intent) before the deadline",
                                       hint: "its worker process was stopped (SIGTERM, then SIGKILL after \(settings.killGraceMs) ms) and the next call starts a new one; if the skill is just slow, raise the deadline with --timeout MS",
                                       skillID: skill.id))
        }
        if case .success = outcome { state.withLock { $0.failures = 0 } }
        return outcome
    }

    nonisolated(nonsending) func health(context: String, deadline: DispatchTime) async -> HealthProbe {
        let worker: WorkerProcess
        switch await readyWorker(deadline: deadline, intent: nil) {
        case .failure(let e): return HealthProbe(status: .unavailable, message: e.message)
        case .success(let w): worker = w
        }
        let start = DispatchTime.now()
        guard let answer = await worker.health(context: context, deadline: deadline) else {
            return HealthProbe(status: .unavailable, message: "health check did not answer before the deadline")
        }
        switch answer {
        case .failure(let e): return HealthProbe(status: .unavailable, message: e.message)
        case .success(let a):
            guard a.declared else { return HealthProbe(status: .ok, message: "no health check declared") }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            return HealthProbe(skillStatus: a.status, detail: a.detail, elapsedMs: elapsed)
        }
    }

    func shutdown() {
        state.withLock { $0.worker }?.stop(grace: .milliseconds(300))
    }

    /// The pid of the current worker, if one is running (for tests and diagnostics).
    var workerPID: pid_t? { state.withLock { s in s.worker.flatMap { $0.hasEnded ? nil : $0.pid } } }

    // MARK: - The worker

    private enum Next {
        case use(WorkerProcess)
        case waitUntil(UInt64)
        case fail(SkillError)
    }

    /// Starts the worker now, if none is running (`"workers": {"eager": true}`), so the first call does
    /// not pay for the start. Blocks until it is ready or failed, and returns the failure (eager
    /// workers leave it for the first call; `skillhost validate` reports it).
    @discardableResult
    func prestart(deadline: DispatchTime) async -> SkillError? {
        if case .failure(let e) = await readyWorker(deadline: deadline, intent: nil) { return e }
        return nil
    }

    /// The current worker if it is running and has said hello: the usual case, answered without
    /// awaiting (`readyWorker` is the whole path: start, backoff, waiting for hello).
    private func runningReadyWorker() -> WorkerProcess? {
        guard let w = state.withLock({ $0.worker }), w.isReady else { return nil }
        return w
    }

    /// The running worker, or a new one once the backoff allows, ready (hello received) before `deadline`.
    nonisolated(nonsending) private func readyWorker(deadline: DispatchTime, intent: String?) async -> Result<WorkerProcess, SkillError> {
        while true {
            let next = state.withLock { s -> Next in
                if let w = s.worker, !w.hasEnded { return .use(w) }
                s.worker = nil
                let now = DispatchTime.now().uptimeNanoseconds
                if now < s.notBefore { return .waitUntil(s.notBefore) }
                // WorkerProcess.start opens the file and checks it is still what the scan saw (SkillLoading).
                switch WorkerProcess.start(skill: skill, workerPath: workerPath, settings: settings, events: events, sandbox: sandbox, reports: reports,
                                           onEnd: { [weak self] w, death in self?.ended(w, death) }) {
                case .success(let w):
                    s.worker = w
                    return .use(w)
                case .failure(let e):
                    return .fail(e)
                }
            }
            switch next {
            case .fail(let e):
                return .failure(e)
            case .waitUntil(let t):
                let failures = state.withLock { $0.failures }
                guard t <= deadline.uptimeNanoseconds else {
                    let ms = (t - DispatchTime.now().uptimeNanoseconds) / 1_000_000
                    return .failure(SkillError(.unavailable, "skill \(skill.id)'s worker failed \(failures) times in a row; the next restart is allowed in \(ms) ms, after this call's deadline",
                                               hint: "retry in a moment; if it keeps failing, see the earlier errors (and `skillhost health`)", skillID: skill.id))
                }
                if t > DispatchTime.now().uptimeNanoseconds {
                    _ = await Pending<Void>().wait(until: DispatchTime(uptimeNanoseconds: t))  // sleeps without a thread
                }
            case .use(let w):
                if let e = await w.waitReady(until: deadline, intent: intent) {
                    if e.kind == .timeout { detach(w) }
                    return .failure(e)
                }
                return .success(w)
            }
        }
    }

    /// Forgets `w` as the current worker (it is being stopped); the next call starts a new one.
    private func detach(_ w: WorkerProcess) {
        state.withLock { s in if s.worker === w { s.worker = nil } }
    }

    /// Called by a worker's finalizer: count the failure and set the backoff.
    private func ended(_ w: WorkerProcess, _ death: WorkerDeath) {
        let failed: Bool
        switch death.cause {
        case .shutdown?, .cancelled?: failed = false  // the host asked for it
        default: failed = true  // a crash, an exit, a broken protocol, a deadline kill, a failed load
        }
        state.withLock { s in
            if s.worker === w { s.worker = nil }
            guard failed else { return }
            s.failures += 1
            s.notBefore = DispatchTime.now().uptimeNanoseconds + Self.backoff(afterFailures: s.failures)
        }
    }

    /// Nanoseconds to wait before starting a worker after `n` failures in a row.
    static func backoff(afterFailures n: Int) -> UInt64 {
        guard n > 1 else { return 0 }
        let base = min(50_000_000.0 * pow(2.0, Double(min(n - 2, 20))), 5_000_000_000.0)
        return UInt64(base * Double.random(in: 0.75...1.25))
    }
}
