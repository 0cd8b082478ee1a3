import Dispatch
import SkillWire
import Synchronization

/// The runtime of every skill file that has been called: in this process for a skill the config marks
/// trusted (`Isolation.inProcess`), else a `WorkerRuntime` (which starts its worker on the first call).
/// Created on first use, one per `FileKey`. Thread-safe.
final class RuntimePool: Sendable {
    private let runtimes = Mutex<[FileKey: any SkillRuntime]>([:])
    let config: HostConfig
    let paths: HostPaths
    /// The `skillhost-worker` executable that runs skills in worker processes.
    let workerPath: String

    private let workerSettings: WorkerSettings
    /// This pool's name in the skills' memos (`SkillMemo`).
    private let memoOwner = SkillMemo.Owner()
    /// What this host's workers reported about their sandbox, kept in its state folder.
    let sandboxReports: SandboxReports

    init(config: HostConfig, paths: HostPaths, workerPath: String, timeZone: String) {
        (self.config, self.paths, self.workerPath) = (config, paths, workerPath)
        sandboxReports = SandboxReports(stateDir: paths.stateDir)
        var settings = config.workers
        settings.timeZone = timeZone
        workerSettings = settings
    }

    /// The runtime that runs `skill`'s code, created on first use. Kept in the skill's memo too, so
    /// the next call of the same skill value finds it without hashing its file key: a runtime is only
    /// retired (`retain`) for a file no longer registered, whose skill values new calls no longer see.
    func runtime(for skill: RegisteredSkill) -> Result<any SkillRuntime, SkillError> {
        if let r = skill.memo.runtime.withLock({ $0?.owner == memoOwner ? $0?.runtime : nil }) { return .success(r) }
        let found = lookUp(skill)
        if case .success(let r) = found { skill.memo.runtime.withLock { $0 = (memoOwner, r) } }
        return found
    }

    /// `runtime(for:)` through the pool's map: the file's runtime, made when it has none.
    private func lookUp(_ skill: RegisteredSkill) -> Result<any SkillRuntime, SkillError> {
        let key = FileKey(skill)
        if let r = runtimes.withLock({ $0[key] }) { return .success(r) }
        let made: any SkillRuntime
        switch skill.isolation {
        case .inProcess:
            switch InProcessSkill.load(skill) {
            case .success(let r): made = r
            case .failure(let e): return .failure(e)
            }
        case .process:
            made = WorkerRuntime(skill: skill, workerPath: workerPath, settings: workerSettings,
                                 sandbox: WorkerSandbox.make(for: skill, config: config, paths: paths), reports: sandboxReports)
        }
        return .success(runtimes.withLock { map in
            if let r = map[key] { return r }
            map[key] = made
            return made
        })
    }

    /// Retires the runtimes of files not in `keep` (removed or replaced): a worker is stopped once every
    /// call that could still be running on it has passed its deadline; an in-process skill stays loaded
    /// (a Swift image cannot be unloaded) but gets no new calls.
    func retain(_ keep: Set<FileKey>) {
        let retired = runtimes.withLock { map -> [any SkillRuntime] in
            let gone = map.keys.filter { !keep.contains($0) }
            return gone.compactMap { map.removeValue(forKey: $0) }
        }
        guard !retired.isEmpty else { return }
        let after = config.invokeTimeoutMs + config.workers.killGraceMs + Cancellation.graceMs
        let box = Retired(retired)
        // A clean stop blocks briefly: on a thread of its own, not the timer thread.
        HostTimers.shared.schedule(afterMs: after) { startDetachedThread { for r in box.runtimes { r.shutdown() } } }
    }

    /// Stops every worker process (in-process skills stay loaded). Blocks until they have ended.
    func shutdown() {
        let all = runtimes.withLock { Array($0.values) }
        DispatchQueue.concurrentPerform(iterations: all.count) { all[$0].shutdown() }
    }

    /// Runtimes handed to the thread that stops them.
    private struct Retired: @unchecked Sendable {
        let runtimes: [any SkillRuntime]
        init(_ r: [any SkillRuntime]) { runtimes = r }
    }
}
