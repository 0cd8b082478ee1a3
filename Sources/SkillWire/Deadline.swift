import Glibc

/// A call's deadline as both sides of the wire keep it: an instant on the monotonic clock
/// (`CLOCK_MONOTONIC`, the clock behind `DispatchTime.uptimeNanoseconds` on Linux), or none. Backs
/// the `time_left_ms` host service. Read with `clock_gettime`, not Dispatch: this module is linked
/// into the scan process, which loads no library beyond the Swift core (see `skillhost-scan`).
public struct CallDeadline: Sendable {
    /// Nanoseconds of uptime; `UInt64.max` means "no deadline".
    public let uptimeNs: UInt64

    public static let none = CallDeadline(uptimeNs: .max)

    public init(uptimeNs: UInt64) { self.uptimeNs = uptimeNs }

    /// `ms` milliseconds from now (negative: none).
    public init(millisecondsFromNow ms: Int64) {
        self.init(uptimeNs: ms < 0 ? .max : Self.uptimeNow() &+ UInt64(ms) &* 1_000_000)
    }

    /// What `time_left_ms` answers: -1 without a deadline, else the milliseconds left (0 once passed).
    public var millisecondsLeft: Int64 {
        guard uptimeNs != .max else { return -1 }
        let now = Self.uptimeNow()
        return now >= uptimeNs ? 0 : Int64((uptimeNs - now) / 1_000_000)
    }

    /// The monotonic clock now, in nanoseconds.
    public static func uptimeNow() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
