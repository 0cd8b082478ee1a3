import Dispatch
import Glibc
import SkillCalls
import SkillLoading
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

/// An in-process call: a `CallSlot` (the call's memory and exactly-once completion, shared with the
/// worker) whose completion resolves the task that awaits it. Thread-safe.
final class InProcessCall: Sendable {
    let slot: CallSlot
    private let arrived: Pending<RawCompletion>
    private let delivered: Delivered

    /// The completion as delivered, for a wait that ended just before it.
    private final class Delivered: Sendable { let value = Mutex<RawCompletion?>(nil) }

    private static let nextID = Atomic<UInt64>(1)

    /// `onFinish`: runs once, after invoke() has returned and the skill has completed (in either
    /// order), e.g. to let the next call of a serialized skill start.
    init(skillID: String, intent: String, input: [UInt8], context: String, deadline: CallDeadline, view: ContextView?,
         onProgress: (@Sendable (UInt32, UInt32, String?) -> Void)?, onFinish: (@Sendable () -> Void)?) {
        _ = HostServices.table  // the host's handlers, also for a skill without init()
        let arrived = Pending<RawCompletion>(), delivered = Delivered()
        (self.arrived, self.delivered) = (arrived, delivered)
        var progress: (@Sendable (CallSlot, UInt32, UInt32, UnsafePointer<CChar>?) -> Void)? = nil
        if let report = onProgress {
            progress = { _, step, total, message in report(step, total, message.map { String(cString: $0) }) }
        }
        let complete: @Sendable (CallSlot, Int32, UnsafeBufferPointer<UInt8>?, UnsafePointer<CChar>?) -> Void = { _, status, result, message in
            let outcome = RawCompletion(status: status, result: result.map { Array($0) }, message: message.map { String(cString: $0) })
            delivered.value.withLock { $0 = outcome }
            _ = arrived.resolve(outcome)
        }
        let id = Self.nextID.add(1, ordering: .relaxed).oldValue
        var context = context
        slot = input.withUnsafeBytes { i -> CallSlot in
            context.withUTF8 { c -> CallSlot in
                CallSlot(id: id, skillID: skillID, intent: intent, input: i, context: UnsafeRawBufferPointer(c), deadline: deadline,
                         view: view, onProgress: progress, onComplete: complete)
            }
        }
        if let onFinish { slot.onFinish = { _ in onFinish() } }
    }

    /// Awaits the completion until `deadline` (a skill that completed inside invoke() costs no
    /// suspension). On timeout the call is abandoned (see `abandon`) and nil is returned.
    nonisolated(nonsending) func wait(until deadline: DispatchTime) async -> RawCompletion? {
        if let outcome = await arrived.wait(until: deadline) { return outcome }
        return abandon()
    }

    /// Tells the skill the host no longer wants the result (`is_cancelled` turns true) without giving up.
    func requestCancel() { slot.cancelled.store(true, ordering: .relaxed) }

    /// Gives up on the call: a later completion is dropped (and logged). Returns the outcome if the
    /// completion won the race (only when `awaitingCompletion`: the grace timer's thread, which runs
    /// every timer, never waits for one); nil if this or an earlier abandon (the grace timer, an
    /// expired wait: both may try, in either order) gave up first.
    @discardableResult
    func abandon(awaitingCompletion: Bool = true) -> RawCompletion? {
        switch slot.abandon() {
        case .now:
            _ = arrived.expire()
            return nil
        case .already:
            return nil  // no completion will be delivered: never wait for one
        case .completed:
            guard awaitingCompletion else { return nil }
            // Its thread is between the slot's state change and `delivered` (no skill code runs
            // there), so the value is a moment away.
            while true {
                if let outcome = delivered.value.withLock({ $0 }) { return outcome }
                sched_yield()
            }
        }
    }
}

/// A call is its own cancellation handler (no closure allocated per call): cancelling tells the skill
/// (`is_cancelled`) and gives it `Cancellation.graceMs` to complete; then the host stops waiting (the
/// call stays valid until the skill completes, as for a deadline).
extension InProcessCall: CancelTarget {
    func callCancelled() {
        requestCancel()
        HostTimers.shared.schedule(afterMs: Cancellation.graceMs) { [self] in abandon(awaitingCompletion: false) }
    }
}
