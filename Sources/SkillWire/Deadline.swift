import Dispatch

/// A call's deadline as both sides of the wire keep it: an instant on the monotonic clock
/// (`DispatchTime.uptimeNanoseconds`), or none. Backs the `time_left_ms` host service.
public struct CallDeadline: Sendable {
    /// Nanoseconds of uptime; `UInt64.max` means "no deadline".
    public let uptimeNs: UInt64

    public static let none = CallDeadline(uptimeNs: .max)

    public init(uptimeNs: UInt64) { self.uptimeNs = uptimeNs }

    public init(_ time: DispatchTime) { self.init(uptimeNs: time.uptimeNanoseconds) }

    /// `ms` milliseconds from now (negative: none).
    public init(millisecondsFromNow ms: Int64) {
        self.init(uptimeNs: ms < 0 ? .max : DispatchTime.now().uptimeNanoseconds &+ UInt64(ms) &* 1_000_000)
    }

    /// What `time_left_ms` answers: -1 without a deadline, else the milliseconds left (0 once passed).
    public var millisecondsLeft: Int64 {
        guard uptimeNs != .max else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= uptimeNs ? 0 : Int64((uptimeNs - now) / 1_000_000)
    }
}
