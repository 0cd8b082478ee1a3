import Dispatch

/// A loaded skill that can be called: the seam between the invoker and how a skill's code runs.
/// `InProcessSkill` is the in-process implementation; a worker-process one slots in beside it.
///
/// Contract for implementers: `invoke` never throws for a skill's failure — every outcome, including
/// a deadline passing, comes back as a `RawCompletion` or a `SkillError`; it is safe to call from any
/// thread; it honours `deadline` even if the skill never completes.
protocol SkillRuntime: Sendable {
    func invoke(intent: String, input: [UInt8], context: String, deadline: DispatchTime,
                progress: (@Sendable (UInt32, UInt32, String?) -> Void)?) -> Result<RawCompletion, SkillError>

    /// Asks the skill whether it can serve now, with the context a call would get. Blocks up to `deadline`.
    func health(context: String, deadline: DispatchTime) -> HealthProbe
}

/// The answer of a health probe.
public struct HealthProbe: Sendable {
    public enum Status: String, Sendable { case ok, degraded, unavailable }
    public var status: Status
    public var message: String
    public var latencyMs: Double?
    /// Extra members of the skill's detail object.
    public var detail: JSON?
}
