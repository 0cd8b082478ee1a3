import Glibc

/// Token buckets, persisted in `$XDG_STATE_HOME/skillhost/ratelimits.json` (bucket → [tokens, time])
/// under `flock`, so a limit holds across separate `skillhost` commands as well as within one long-running
/// host. A bucket starts full; each call takes one token; tokens come back at `refillPerSecond`.
struct RateLimiter: Sendable {
    let file: StateFile

    init(path: String) { file = StateFile(path: path) }

    /// Takes a token from `bucket`; nil when there was one, else the seconds until there will be.
    func take(bucket: String, limit: PolicyConfig.RateLimit, now: Double = RateLimiter.now()) -> Double? {
        file.locked {
            var o = (file.read().flatMap { try? JSON.parse($0) }?.objectValue) ?? JSONObject()
            var tokens = limit.capacity
            if let a = o[bucket]?.arrayValue, a.count == 2, let t = a[0].doubleValue, let at = a[1].doubleValue {
                tokens = min(limit.capacity, t + max(0, now - at) * limit.refillPerSecond)
            }
            let wait: Double?
            if tokens >= 1 { tokens -= 1; wait = nil } else { wait = (1 - tokens) / limit.refillPerSecond }
            o[bucket] = .array([.double(tokens), .double(now)])
            var bytes: [UInt8] = []
            JSON.object(o).write(to: &bytes)
            file.replace(with: bytes)
            return wait
        }
    }

    /// Seconds since the epoch, with sub-second precision.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
