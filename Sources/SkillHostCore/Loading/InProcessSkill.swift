import Dispatch
import FoundationEssentials
import Glibc
import SkillABI
import SkillWire
import Synchronization

/// A skill loaded into the host process with `dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)`.
///
/// Never unloaded (a Swift image cannot be unloaded safely). Each file is loaded at most once per
/// process: `load` returns the same instance for the same path and inode. A file replaced at a path
/// already loaded is loaded from a fresh copy at a new path (the dynamic linker would hand back the old
/// image for the old path); the copy is unlinked once mapped. Skills without
/// SKH_SKILL_THREAD_SAFE get their invoke calls serialized (one at a time, until completion).
final class InProcessSkill: SkillRuntime, @unchecked Sendable {
    let id: String
    let skill: UnsafePointer<skh_skill>
    private let serial: AsyncGate?
    /// The health probe still inside the skill, if one is: health is [serialized], so a new probe
    /// awaits that one's answer instead of calling health() again (see `health`).
    private let probeRunning = Mutex<Broadcast<(Int32, String?)>?>(nil)

    private static let loaded = Mutex<[String: InProcessSkill]>([:])

    private init(id: String, skill: UnsafePointer<skh_skill>) {
        self.id = id
        self.skill = skill
        serial = skill.pointee.flags & UInt32(SKH_SKILL_THREAD_SAFE) != 0 ? nil : AsyncGate()
    }

    /// Loads `scanned` into this process (once), checks that it is still the skill the scan saw, and
    /// calls its `init`. Errors are `load_failed` or `incompatible`, naming the file.
    static func load(_ scanned: RegisteredSkill, copiesIn copyDir: String) -> Result<InProcessSkill, SkillError> {
        let file = scanned.file
        let key = "\(file.path)#\(file.inode)#\(file.mtimeNs)"
        if let s = loaded.withLock({ $0[key] }) { return .success(s) }
        return loaded.withLock { map -> Result<InProcessSkill, SkillError> in
            if let s = map[key] { return .success(s) }
            if let changed = WorkerRuntime.changedSinceScan(scanned) { return .failure(changed) }
            var loadPath = file.path
            if map.keys.contains(where: { $0.hasPrefix(file.path + "#") }) {
                switch freshCopy(of: file, in: copyDir) {
                case .success(let p): loadPath = p
                case .failure(let e): return .failure(SkillError(.loadFailed, e.message, skillID: scanned.id))
                }
            }
            defer { if loadPath != file.path { unlink(loadPath) } }
            guard let handle = dlopen(loadPath, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
                let err = dlerror().map { String(cString: $0) } ?? "unknown error"
                return .failure(SkillError(.loadFailed, "cannot load \"\(file.path)\": \(err)", skillID: scanned.id))
            }
            guard let sym = dlsym(handle, SKH_ENTRY_SYMBOL),
                  let skill = unsafeBitCast(sym, to: skh_entry_fn.self)() else {
                return .failure(SkillError(.loadFailed, "\"\(file.path)\" no longer provides skillhost_entry", skillID: scanned.id))
            }
            guard skill.pointee.abi_major == UInt32(SKH_ABI_VERSION_MAJOR), let idp = skill.pointee.id,
                  String(cString: idp) == scanned.id else {
                return .failure(SkillError(.incompatible, "\"\(file.path)\" is not the skill the scan recorded (\(scanned.id))", hint: "run the command again; the folder will be rescanned", skillID: scanned.id))
            }
            if let initFn = skill.pointee.`init` {
                let rc = initFn(HostServices.table)
                if rc != 0 {
                    return .failure(SkillError(.loadFailed, "skill \(scanned.id) (\(file.path)) refused to start: its init returned \(rc)", hint: "see the skill's log lines above for why", skillID: scanned.id))
                }
            }
            let s = InProcessSkill(id: scanned.id, skill: skill)
            map[key] = s
            return .success(s)
        }
    }

    /// A copy of `file` under a name no image was loaded from (inode and mtime in it).
    private static func freshCopy(of file: SkillFile, in dir: String) -> Result<String, SkillError> {
        if access(dir, F_OK) != 0 { try? makeDirectories(dir) }
        let target = dir + "/" + PathText.fileName(of: file.path) + ".\(file.inode).\(file.mtimeNs).\(getpid()).so"
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return .failure(SkillError(.loadFailed, "cannot read \"\(file.path)\" to load its new version"))
        }
        let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o700)
        guard fd >= 0 else { return .failure(SkillError(.loadFailed, "cannot write \"\(target)\": \(String(cString: strerror(errno)))")) }
        let ok = StateFile.writeAll(fd, [UInt8](data))
        close(fd)
        return ok ? .success(target) : .failure(SkillError(.loadFailed, "cannot write \"\(target)\""))
    }

    func invoke(intent: String, input: [UInt8], context: String, deadline: DispatchTime,
                progress: (@Sendable (UInt32, UInt32, String?) -> Void)?,
                cancellation: Cancellation?, view: ContextView?) async -> Result<RawCompletion, SkillError> {
        if let serial, !(await serial.enter(until: deadline, cancellation: cancellation)) {
            if cancellation?.isCancelled == true {
                return .failure(SkillError(.cancelled, "\(intent) was cancelled while waiting for skill \(id) to finish an earlier call", skillID: id))
            }
            return .failure(SkillError(.timeout, "skill \(id) is busy with an earlier call that has not completed, and the deadline passed while waiting", skillID: id))
        }
        guard let invokeFn = skill.pointee.invoke else {
            serial?.leave()
            return .failure(SkillError(.loadFailed, "skill \(id) has no invoke function", skillID: id))
        }
        var finish: (@Sendable () -> Void)? = nil
        if let gate = serial { finish = { gate.leave() } }
        let ticket = CallTicket(skillID: id, intent: intent, input: input, context: context, deadline: CallDeadline(deadline), view: view,
                                host: HostServices.table,
                                onProgress: progress, onFinish: finish)
        // Cancelling tells the skill (is_cancelled) and gives it a grace period to complete; then the
        // host stops waiting (the call stays valid until the skill completes, as for a deadline).
        cancellation?.onCancel {
            ticket.requestCancel()
            HostTimers.shared.schedule(afterMs: Cancellation.graceMs) { _ = ticket.abandon() }
        }
        invokeFn(ticket.call)
        ticket.invokeReturned()
        guard let outcome = await ticket.wait(until: deadline) else {
            if cancellation?.isCancelled == true {
                return .failure(SkillError(.cancelled, "\(intent) was cancelled; skill \(id) did not stop within \(Cancellation.graceMs) ms, so the host stopped waiting for it", skillID: id))
            }
            return .failure(SkillError(.timeout, "skill \(id) did not complete \(intent) before the deadline", hint: "the skill may be stuck or its data source slow; raise the deadline with --timeout MS if it is just slow", skillID: id))
        }
        return .success(outcome)
    }

    /// Runs the skill's health() on a thread of its own (it may block; a pool thread must not) and
    /// awaits its answer until `deadline`. A probe that overran its deadline is still inside the
    /// skill: the next probe awaits that same answer rather than calling health() again, because the
    /// header promises health is [serialized] with itself.
    func health(context: String, deadline: DispatchTime) async -> HealthProbe {
        guard let fn = skill.pointee.health else { return HealthProbe(status: .ok, message: "no health check declared") }
        let start = DispatchTime.now()
        let answer = Broadcast<(Int32, String?)>()
        let running = probeRunning.withLock { r -> Broadcast<(Int32, String?)>? in
            if let r, !r.isSettled { return r }
            r = answer
            return nil
        }
        let awaited: Broadcast<(Int32, String?)>
        if let running {
            awaited = running
        } else {
            awaited = answer
            let release = skill.pointee.release
            let started = startDetachedThread { [self] in
                var detail: UnsafeMutablePointer<CChar>? = nil
                let rc = context.withCString { fn(HostServices.table, $0, &detail) }
                var text: String? = nil
                if let d = detail {
                    text = String(cString: d)
                    release?(d)
                }
                answer.resolve((rc, text))
                probeRunning.withLock { r in if r === answer { r = nil } }
            }
            guard started else {
                probeRunning.withLock { $0 = nil }
                return HealthProbe(status: .unavailable, message: "cannot start a thread for the health check")
            }
        }
        guard let (rc, text) = await awaited.wait(until: deadline) else {
            return HealthProbe(status: .unavailable, message: running == nil
                ? "health check did not answer before the deadline"
                : "an earlier health check is still running inside the skill and did not answer before the deadline")
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        return HealthProbe(skillStatus: rc, detail: text.flatMap { try? JSON.parse($0) }, elapsedMs: elapsed)
    }
}
