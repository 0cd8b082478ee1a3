import Dispatch
import SkillWire
import Synchronization

/// Calls intents. One job per part:
///   admission (`admit`, Invoker+Admission.swift): parse the input, bind the intent to its skills, ask
///     the policy once (`Policy.decide`) — the result is a `CallPlan`;
///   attempts (Invoker+Attempts.swift): the quarantine gate, the input schema (`SchemaCache`) before any
///     skill code sees the input, the runtime (`RuntimePool`), the deadline, the result checks, every
///     failure mapped to a `SkillError`, health recorded (`HealthTracker`), and the fallback of a failed
///     read-only or idempotent intent to the next healthy skill;
///   the audit line around the whole call (`audited`, Invoker+Audit.swift);
///   the call context the skill receives (`CallContext`).
/// Thread-safe; a call suspends (never blocks a thread) while its skill works.
/// `invoke` and the steps below it (audit wrapper, attempts, the runtimes' `invoke`, the waits) are
/// `nonisolated(nonsending)`: they run on the executor the call is already on, so a call does not hop
/// executors between its own steps (each hop looked up the task's executor preference under a lock:
/// 7 % of the instructions of an in-process call, by callgrind).
public final class Invoker: Sendable {
    /// The current registry; `swap` replaces it whole, so a call sees the old or the new one.
    var registry: SkillRegistry { current.withLock { $0 } }
    private let current: Mutex<SkillRegistry>
    let config: HostConfig
    let paths: HostPaths
    let environment: [String: String]
    /// The `skillhost-worker` executable that runs skills in worker processes.
    var workerPath: String { runtimes.workerPath }
    let schemas = SchemaCache()
    let runtimes: RuntimePool
    let contexts: CallContext
    /// Every registered skill's health: read before a call (quarantine, fallback), written after it.
    let health: HealthTracker
    /// Who may call what (surfaces, confirmation, rate limits).
    public let policy: Policy
    let audit: AuditLog
    /// Results of calls made with an idempotency key.
    let idempotency: IdempotencyStore

    init(registry: SkillRegistry, config: HostConfig, paths: HostPaths, timeZone: String, environment: [String: String],
         workerPath: String) {
        current = Mutex(registry)
        self.config = config
        self.paths = paths
        self.environment = environment
        runtimes = RuntimePool(config: config, paths: paths, workerPath: workerPath, timeZone: timeZone)
        contexts = CallContext(config: config, paths: paths, timeZone: timeZone, environment: environment)
        health = HealthTracker(stateDir: paths.stateDir, settings: config.health,
                               files: Dictionary(uniqueKeysWithValues: registry.skills.map { ($0.id, FileIdentity($0.file)) }))
        policy = Policy(config: config.policy, stateDir: paths.stateDir)
        audit = AuditLog(stateDir: paths.stateDir, settings: config.policy.audit)
        idempotency = IdempotencyStore(stateDir: paths.stateDir, windowSeconds: config.idempotencyWindowSeconds)
    }

    /// Runs one call. Suspends (never blocks a thread) while the skill works; cancelling the calling
    /// task cancels the call like `request.cancellation` does. On the caller's executor, like the
    /// steps below (a hop here and back cost two executor-preference lookups and two more inside
    /// `withTaskCancellationHandler`).
    nonisolated(nonsending) public func invoke(_ request: InvokeRequest) async -> Result<InvokeSuccess, SkillError> {
        let start = DispatchTime.now()
        var request = request
        let cancellation = request.cancellation ?? Cancellation()
        request.cancellation = cancellation
        let call = request
        return await withTaskCancellationHandler {
            await audited(call, start: start) { record in
                switch admit(call, start: start, record: &record) {
                case .failure(let e): return .failure(e)
                case .success(let plan):
                    guard let key = call.idempotencyKey else { return await attempts(plan) }
                    return await idempotency.run(key: key, intent: plan.bindings[0].intent.address, input: plan.input) {
                        await attempts(plan)
                    }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Makes `new` the registry calls use. Calls in flight finish on what they started with; the
    /// runtimes and schemas of files no longer registered (removed or replaced) are retired (see
    /// `RuntimePool.retain`).
    func swap(to new: SkillRegistry) {
        let keep = Set(new.skills.map(FileKey.init))
        current.withLock { $0 = new }
        health.setFiles(Dictionary(uniqueKeysWithValues: new.skills.map { ($0.id, FileIdentity($0.file)) }))
        runtimes.retain(keep)
        schemas.retain(keep)
    }

    /// The runtime that runs `skill`'s code (see `RuntimePool`).
    func runtime(for skill: RegisteredSkill) -> Result<any SkillRuntime, SkillError> { runtimes.runtime(for: skill) }

    /// The `context_json` a call of `skill` by `caller` gets (see `CallContext`).
    func context(for skill: RegisteredSkill, caller: Caller, situation: CallSituation? = nil) -> String {
        contexts.json(for: skill, caller: caller, situation: situation)
    }

    /// Stops every worker process this invoker started (in-process skills stay loaded).
    func shutdown() {
        health.flush()
        runtimes.shutdown()
    }
}
