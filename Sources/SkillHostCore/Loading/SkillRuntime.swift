import Dispatch
import SkillABI

/// A loaded skill that can be called: the seam between the invoker and how a skill's code runs.
/// `InProcessSkill` runs it in the host process (trusted skills); `WorkerRuntime` in a worker process
/// (every other skill).
///
/// Contract for implementers: `invoke` never throws for a skill's failure — every outcome, including
/// a deadline passing, comes back as a `RawCompletion` or a `SkillError`; it is safe to call from any
/// task; it returns by `deadline` even if the skill never completes; and it never blocks a thread
/// while the call is in flight (it suspends; the answer resumes it), so a thousand calls in flight
/// cost memory, not threads.
protocol SkillRuntime: Sendable {
    /// `cancellation`, when the caller cancels, tells the skill and, after `Cancellation.graceMs`
    /// without a completion, ends the call with `cancelled`.
    /// `view`: context-store entries this call reads in place of the shared store's (a snapshot taken
    /// by the caller, e.g. the agent engine's request context); keys it lacks come from the shared store.
    nonisolated(nonsending) func invoke(intent: String, input: [UInt8], context: String, deadline: DispatchTime,
                progress: (@Sendable (UInt32, UInt32, String?) -> Void)?,
                cancellation: Cancellation?, view: ContextView?) async -> Result<RawCompletion, SkillError>

    /// Asks the skill whether it can serve now, with the context a call would get; answers by `deadline`.
    nonisolated(nonsending) func health(context: String, deadline: DispatchTime) async -> HealthProbe

    /// Releases what the runtime holds outside the host process (a worker). Blocks briefly.
    func shutdown()
}

extension SkillRuntime {
    func shutdown() {}

    nonisolated(nonsending) func invoke(intent: String, input: [UInt8], context: String, deadline: DispatchTime,
                progress: (@Sendable (UInt32, UInt32, String?) -> Void)?,
                cancellation: Cancellation?) async -> Result<RawCompletion, SkillError> {
        await invoke(intent: intent, input: input, context: context, deadline: deadline, progress: progress, cancellation: cancellation, view: nil)
    }
}

/// Context-store entries one call sees (key → JSON bytes), layered over the shared store: a snapshot,
/// taken before the call, that nothing changes while the call runs.
public typealias ContextView = [String: [UInt8]]

/// The answer of a health probe.
public struct HealthProbe: Sendable {
    public enum Status: String, Sendable { case ok, degraded, unavailable }
    public var status: Status
    public var message: String
    public var latencyMs: Double?
    /// Extra members of the skill's detail object.
    public var detail: JSON?

    public init(status: Status, message: String, latencyMs: Double? = nil, detail: JSON? = nil) {
        self.status = status
        self.message = message
        self.latencyMs = latencyMs
        self.detail = detail
    }

    /// What a skill's health function answered: its SKH_HEALTH_* code and optional detail object
    /// (`message`, `latencyMs`, …); `elapsedMs` is the latency when the detail gives none.
    init(skillStatus rc: Int32, detail: JSON?, elapsedMs: Double) {
        let status: Status = rc == SKH_HEALTH_OK ? .ok : rc == SKH_HEALTH_DEGRADED ? .degraded : .unavailable
        let message = detail?["message"]?.stringValue ?? (rc == SKH_HEALTH_OK ? "ok" : "health check returned \(rc)")
        self.init(status: status, message: message, latencyMs: detail?["latencyMs"]?.doubleValue ?? elapsedMs, detail: detail)
    }
}
