import Dispatch
import Glibc
import SkillABI
import SkillWire
import Synchronization

/// What a skill's completion delivered, copied out of the skill's buffers.
struct RawCompletion: Sendable {
    var status: Int32
    /// The result bytes as the skill gave them (nil: none), when not already parsed.
    var result: [UInt8]?
    var message: String?
    /// The result, already parsed (a worker's completion frame carries it as JSON).
    var parsedResult: JSON? = nil
    /// Why the result is not usable, when the worker found it so ("is not valid UTF-8 (byte 12)").
    var resultProblem: String? = nil
}

/// One in-flight call into skill code: owns the `skh_call` the skill sees and receives its completion.
///
/// Ownership: the ticket is retained (through `host_data`) from `invoke` until the skill completes;
/// the `skh_call` and its strings stay allocated until then too, so a completion that arrives after
/// the host stopped waiting (deadline, cancellation) is safe: it is logged and dropped. A ticket whose
/// skill never completes is leaked on purpose (its memory is the price of not crashing).
/// After completion the call memory is kept in a small retirement ring for a while, so that a buggy
/// second `complete` on the same call is detected and ignored instead of touching freed memory.
/// Thread-safe: the completion may arrive on any thread.
final class CallTicket: @unchecked Sendable {
    enum State { case running, completed, abandoned }

    let call: UnsafeMutablePointer<skh_call>
    let skillID: String
    let intent: String
    private let state = Mutex<(state: State, outcome: RawCompletion?)>((.running, nil))
    /// Counts down "invoke returned" and "completed"; `onFinish` runs when both happened.
    private let pendingEvents = Atomic<Int>(2)
    /// The completion, for the task that awaits it (resolved by `complete`, expired by `abandon`).
    private let outcomeArrived = Pending<RawCompletion>()
    let cancelled = Atomic<Bool>(false)
    /// When the host stops waiting (for `time_left_ms`).
    let deadline: CallDeadline
    /// What `context_get` reads before the shared store (see `ContextView`).
    let view: ContextView?
    /// Progress reports (step, total, message) — set before invoke, read on the skill's threads.
    let onProgress: (@Sendable (UInt32, UInt32, String?) -> Void)?
    /// Runs once, after invoke() has returned and the skill has completed (in either order), e.g. to
    /// let the next call of a serialized skill start.
    let onFinish: (@Sendable () -> Void)?

    private static let nextID = Atomic<UInt64>(1)

    init(skillID: String, intent: String, input: [UInt8], context: String, deadline: CallDeadline, view: ContextView? = nil,
         host: UnsafePointer<skh_host>,
         onProgress: (@Sendable (UInt32, UInt32, String?) -> Void)?, onFinish: (@Sendable () -> Void)?) {
        self.skillID = skillID
        self.intent = intent
        self.deadline = deadline
        self.view = view
        self.onProgress = onProgress
        self.onFinish = onFinish
        call = .allocate(capacity: 1)
        let inputCopy = UnsafeMutablePointer<CChar>.allocate(capacity: input.count + 1)
        input.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { inputCopy.initialize(from: $0.baseAddress!, count: b.count) }
        }
        inputCopy[input.count] = 0
        let contextCopy = strdup(context)!
        call.initialize(to: skh_call(
            struct_size: UInt32(MemoryLayout<skh_call>.size), reserved0: 0,
            call_id: Self.nextID.add(1, ordering: .relaxed).oldValue,
            intent: UnsafePointer(strdup(intent)), input_json: UnsafePointer(inputCopy), input_len: input.count,
            context_json: UnsafePointer(contextCopy), context_len: strlen(contextCopy),
            host: host, complete: hostComplete, host_data: nil))
        call.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
    }

    static func from(_ call: UnsafePointer<skh_call>?) -> CallTicket? {
        guard let data = call?.pointee.host_data else { return nil }
        return Unmanaged<CallTicket>.fromOpaque(data).takeUnretainedValue()
    }

    /// Called by the skill through `skh_call.complete`.
    func complete(status: Int32, result: UnsafePointer<CChar>?, length: Int, message: UnsafePointer<CChar>?) {
        let outcome = RawCompletion(
            status: status,
            result: result.map { p in p.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) } },
            message: message.map { String(cString: $0) })
        let previous = state.withLock { s -> State in
            let prev = s.state
            if prev == .running { s = (.completed, outcome) }
            else if prev == .abandoned { s.state = .completed }
            return prev
        }
        switch previous {
        case .running:
            outcomeArrived.resolve(outcome)
            eventHappened()
            retire()
        case .abandoned:
            HostLog.warning("skill \(skillID) completed \(intent) after the host stopped waiting; the late result was dropped")
            eventHappened()
            retire()
        case .completed:
            HostLog.warning("skill \(skillID) called complete twice for one \(intent) call; the second completion was ignored (a bug in the skill)")
        }
    }

    /// The host calls this when the skill's invoke() has returned.
    func invokeReturned() { eventHappened() }

    private func eventHappened() {
        if pendingEvents.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { onFinish?() }
    }

    /// Awaits the completion until `deadline` (a skill that completed inside invoke() costs no
    /// suspension). On timeout the call is marked abandoned and cancelled (the skill can see it
    /// through is_cancelled) and nil is returned.
    func wait(until deadline: DispatchTime) async -> RawCompletion? {
        if let outcome = await outcomeArrived.wait(until: deadline) { return outcome }
        return abandon()
    }

    /// Tells the skill the host no longer wants the result (`is_cancelled` turns true) without giving up.
    func requestCancel() { cancelled.store(true, ordering: .relaxed) }

    /// Gives up on the call: it is marked cancelled and abandoned (a later completion is dropped).
    /// Returns the outcome if the completion won the race.
    func abandon() -> RawCompletion? {
        cancelled.store(true, ordering: .relaxed)
        let outcome: RawCompletion? = state.withLock { s in
            if s.state == .running { s.state = .abandoned; return nil }
            return s.outcome  // completed between the timeout and the lock
        }
        if outcome == nil { outcomeArrived.expire() }  // end a wait in `wait`, which then finds no outcome
        return outcome
    }

    var isFinished: Bool { state.withLock { $0.state != .running } }

    // MARK: - Retirement

    private static let ring = RetirementRing<CallTicket>()

    /// Puts this ticket in the retirement ring; the ticket it displaces has its memory freed.
    private func retire() {
        Self.ring.retire(self)?.free()
    }

    private func free() {
        Glibc.free(UnsafeMutableRawPointer(mutating: call.pointee.intent))
        Glibc.free(UnsafeMutableRawPointer(mutating: call.pointee.input_json))
        Glibc.free(UnsafeMutableRawPointer(mutating: call.pointee.context_json))
        let data = call.pointee.host_data
        call.deinitialize(count: 1)
        call.deallocate()
        if let data { Unmanaged<CallTicket>.fromOpaque(data).release() }
    }
}

/// `skh_call.complete` for every call the host makes.
private let hostComplete: @convention(c) (UnsafePointer<skh_call>?, Int32, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?) -> Void = {
    call, status, result, length, message in
    CallTicket.from(call)?.complete(status: status, result: result, length: length, message: message)
}
