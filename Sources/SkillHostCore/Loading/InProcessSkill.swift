import Dispatch
import Glibc
import SkillABI
import SkillLoading
import SkillWire
import Synchronization

/// A skill loaded into the host process with `dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)`.
///
/// Never unloaded (a Swift image cannot be unloaded safely). Each file is loaded at most once per
/// process: `load` returns the same instance for the same path, inode and mtime. The image is loaded
/// from the descriptor the host opened and checked (`SkillLoading`), so a file replaced at a path
/// already loaded is simply another descriptor and another image. Skills without
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

    /// Loads `scanned` into this process (once), from a descriptor opened and checked now that must
    /// still be the file the scan saw, and calls its `init`. Errors are `load_failed` or
    /// `incompatible`, naming the file.
    static func load(_ scanned: RegisteredSkill) -> Result<InProcessSkill, SkillError> {
        let file = scanned.file
        let key = "\(file.path)#\(file.inode)#\(file.mtimeNs)"
        if let s = loaded.withLock({ $0[key] }) { return .success(s) }
        return loaded.withLock { map -> Result<InProcessSkill, SkillError> in
            if let s = map[key] { return .success(s) }
            let negotiated: SkillImage.Negotiated
            switch scanned.openChecked().flatMap({ SkillImage.open($0, expectedID: scanned.id).mapError { SkillError($0, skillID: scanned.id) } }) {
            case .failure(let e): return .failure(e)
            case .success(let n): negotiated = n
            }
            let skill = negotiated.skill
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

    nonisolated(nonsending) func invoke(intent: String, input: [UInt8], context: String, deadline: DispatchTime,
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
        let call = InProcessCall(skillID: id, intent: intent, input: input, context: context, deadline: CallDeadline(deadline), view: view,
                                 onProgress: progress, onFinish: finish)
        cancellation?.onCancel(call)  // see `InProcessCall.callCancelled`
        invokeFn(call.slot.call)
        call.slot.invokeReturned()
        guard let outcome = await call.wait(until: deadline) else {
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
    nonisolated(nonsending) func health(context: String, deadline: DispatchTime) async -> HealthProbe {
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
