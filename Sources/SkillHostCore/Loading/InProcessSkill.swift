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
    private let serial: DispatchSemaphore?
    private let healthGate = SerialProbe()  // health() is [serialized] with itself

    private static let loaded = Mutex<[String: InProcessSkill]>([:])

    private init(id: String, skill: UnsafePointer<skh_skill>) {
        self.id = id
        self.skill = skill
        serial = skill.pointee.flags & UInt32(SKH_SKILL_THREAD_SAFE) != 0 ? nil : DispatchSemaphore(value: 1)
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
                cancellation: Cancellation?, view: ContextView?) -> Result<RawCompletion, SkillError> {
        if let serial, serial.wait(timeout: deadline) == .timedOut {
            return .failure(SkillError(.timeout, "skill \(id) is busy with an earlier call that has not completed, and the deadline passed while waiting", skillID: id))
        }
        guard let invokeFn = skill.pointee.invoke else {
            serial?.signal()
            return .failure(SkillError(.loadFailed, "skill \(id) has no invoke function", skillID: id))
        }
        var finish: (@Sendable () -> Void)? = nil
        if let slot = serial { finish = { slot.signal() } }
        let ticket = CallTicket(skillID: id, intent: intent, input: input, context: context, deadline: CallDeadline(deadline), view: view,
                                host: HostServices.table,
                                onProgress: progress, onFinish: finish)
        // Cancelling tells the skill (is_cancelled) and gives it a grace period to complete; then the
        // host stops waiting (the call stays valid until the skill completes, as for a deadline).
        cancellation?.onCancel {
            ticket.requestCancel()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Cancellation.graceMs)) { _ = ticket.abandon() }
        }
        invokeFn(ticket.call)
        ticket.invokeReturned()
        guard let outcome = ticket.wait(until: deadline) else {
            if cancellation?.isCancelled == true {
                return .failure(SkillError(.cancelled, "\(intent) was cancelled; skill \(id) did not stop within \(Cancellation.graceMs) ms, so the host stopped waiting for it", skillID: id))
            }
            return .failure(SkillError(.timeout, "skill \(id) did not complete \(intent) before the deadline", hint: "the skill may be stuck or its data source slow; raise the deadline with --timeout MS if it is just slow", skillID: id))
        }
        return .success(outcome)
    }

    func health(context: String, deadline: DispatchTime) -> HealthProbe {
        guard let fn = skill.pointee.health else { return HealthProbe(status: .ok, message: "no health check declared") }
        let box = HealthBox()
        let done = DispatchSemaphore(value: 0)
        let release = skill.pointee.release
        guard healthGate.enter(until: deadline) else { return HealthProbe(status: .unavailable, message: SerialProbe.stillRunning) }
        let gate = healthGate
        let start = DispatchTime.now()
        // A thread of its own, not a Dispatch pool thread: health() may block (the header allows it), and
        // while probes block pool threads Dispatch waits about a second before adding more.
        let started = startDetachedThread {
            var detail: UnsafeMutablePointer<CChar>? = nil
            let rc = context.withCString { fn(HostServices.table, $0, &detail) }
            var text: String? = nil
            if let d = detail {
                text = String(cString: d)
                release?(d)
            }
            box.set(rc, text)
            gate.leave()
            done.signal()
        }
        guard started else { gate.leave(); return HealthProbe(status: .unavailable, message: "cannot start a thread for the health check") }
        guard done.wait(timeout: deadline) == .success, let (rc, text) = box.get() else {
            return HealthProbe(status: .unavailable, message: "health check did not answer before the deadline")
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        return HealthProbe(skillStatus: rc, detail: text.flatMap { try? JSON.parse($0) }, elapsedMs: elapsed)
    }
}

private final class HealthBox: Sendable {
    private let value = Mutex<(Int32, String?)?>(nil)
    func set(_ rc: Int32, _ text: String?) { value.withLock { $0 = (rc, text) } }
    func get() -> (Int32, String?)? { value.withLock { $0 } }
}
