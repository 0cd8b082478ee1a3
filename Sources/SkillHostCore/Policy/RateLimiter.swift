import Glibc

/// Token buckets, persisted in `$XDG_STATE_HOME/skillhost/ratelimits.json` (bucket → [tokens, time])
/// under `flock`, so a limit holds across separate `skillhost` commands as well as within one long-running
/// host. A bucket starts full; each call takes one token; tokens come back at `refillPerSecond`.
struct RateLimiter: Sendable {
    let file: StateFile

    init(path: String) { file = StateFile(path: path) }

    /// Takes a token from `bucket`; nil when there was one, else the seconds until there will be.
    /// Fails closed: when the buckets cannot be read (a damaged file, EIO) or the taken token cannot be
    /// recorded (a full or broken state folder), it throws instead of letting the call through unlimited.
    func take(bucket: String, limit: PolicyConfig.RateLimit, now: Double = RateLimiter.now()) throws(StateFile.Failure) -> Double? {
        try file.lockedOrFail { () throws(StateFile.Failure) -> Double? in
            var o = JSONObject()
            if let bytes = try file.load(), !bytes.isEmpty {
                guard let j = try? JSON.parse(bytes), let obj = j.objectValue else {
                    throw StateFile.Failure("read the rate-limit buckets in", file.path,
                                            reason: "the file is damaged (not a JSON object); remove it to start every bucket full again")
                }
                o = obj
            }
            var tokens = limit.capacity
            if let a = o[bucket]?.arrayValue, a.count == 2, let t = a[0].doubleValue, let at = a[1].doubleValue {
                tokens = min(limit.capacity, t + max(0, now - at) * limit.refillPerSecond)
            }
            let wait: Double?
            if tokens >= 1 { tokens -= 1; wait = nil } else { wait = (1 - tokens) / limit.refillPerSecond }
            o[bucket] = .array([.double(tokens), .double(now)])
            var bytes: [UInt8] = []
            JSON.object(o).write(to: &bytes)
            try file.store(bytes)
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
