import Dispatch

/// Keeps one skill's `health()` [serialized] with itself, as the header promises, also after the host
/// stopped waiting for a probe: the next probe waits (until its own deadline) for the previous one to
/// return, and is answered "unavailable" without calling the skill when it does not. (A worker gets
/// the same from its serial health queue; this is for skills loaded in-process.) Thread-safe.
final class SerialProbe: Sendable {
    private let slot = DispatchSemaphore(value: 1)

    /// Waits until the previous probe returned, at most until `deadline`; false when it still runs
    /// (then do not call the skill, and do not call `leave`).
    func enter(until deadline: DispatchTime) -> Bool { slot.wait(timeout: deadline) == .success }

    /// The probe returned from the skill (call it from the thread that ran it, whether or not the host
    /// still waits), or was never started.
    func leave() { slot.signal() }

    /// The answer to a probe that found the previous one still inside the skill.
    static let stillRunning = "the previous health check has not returned yet; health() is [serialized], so it is not called again until it does"
}
