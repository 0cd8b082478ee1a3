import Foundation

/// A set of measurements of one thing, in one unit (the caller's: ms for processes, µs for calls).
/// Order statistics only: medians and percentiles, never means alone, because a 2-core machine shared
/// with compilers has a long right tail.
struct Samples {
    let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var count: Int { sorted.count }
    var min: Double { sorted.first ?? .nan }
    var max: Double { sorted.last ?? .nan }
    var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }

    /// The middle value (the mean of the two middle values for an even count).
    var median: Double {
        guard !sorted.isEmpty else { return .nan }
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    /// Nearest-rank percentile, `p` in 0…100 (p99 of 20,000 calls is the 19,800th smallest).
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}

// MARK: - Clock

/// CLOCK_MONOTONIC in nanoseconds.
@inline(__always)
func monotonicNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

// MARK: - Formatting

/// "12.34" with `digits` decimals; "—" for NaN.
func fmt(_ x: Double, _ digits: Int = 2) -> String {
    x.isNaN ? "—" : String(format: "%.\(digits)f", x)
}

/// A ratio as "3.21×".
func ratio(_ x: Double) -> String { x.isNaN || x.isInfinite ? "—" : String(format: "%.2f×", x) }
