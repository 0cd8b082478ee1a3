/// What happened to a skill, as the state machine sees it.
public enum HealthEvent: Sendable, Equatable {
    /// `n` calls that succeeded (or that the skill answered with a caller's error, e.g. invalid_input).
    case succeeded(count: Int)
    /// A call that failed with `kind` (crashed, timeout, unavailable, internal, load_failed).
    case failed(kind: ErrorKind, message: String)
    /// A health probe answered.
    case probed(HealthRecord)
    /// `skillhost unblock`.
    case unblocked
}

/// The health state machine: pure transitions, no I/O, no clock of its own (callers pass `now`).
///
///     ok ──failure──▶ degraded ──(window passes without failures, then a success or probe)──▶ ok
///     any ──probe "unavailable" / worker cannot load──▶ unavailable ──success or ok probe──▶ ok/degraded
///     any ──K crashes within the window──▶ quarantined ──file changes / unblock──▶ ok
///
/// A quarantined skill stays quarantined whatever a call or probe says (none should reach it).
/// Thread-safe (stateless).
public enum HealthMachine {
    /// `entry` after `event` at `now` (seconds since the epoch), under `settings`.
    public static func apply(_ event: HealthEvent, to entry: SkillHealth, now: Int, settings: HealthSettings) -> SkillHealth {
        var e = entry
        e.recentCrashes.removeAll { now - $0 >= settings.windowSeconds }
        func enter(_ s: HealthState, _ why: String) {
            if e.state != s { e.since = now }
            e.state = s
            e.reason = why
        }
        let recentFailure = e.lastFailure.map { now - $0 < settings.windowSeconds } ?? false
        switch event {
        case .succeeded(let n):
            e.calls += n
            guard e.state != .quarantined else { break }
            if e.state == .unavailable { enter(recentFailure ? .degraded : .ok, recentFailure ? e.reason : "answered a call") }
            else if e.state == .degraded && !recentFailure && !probeDegraded(e.probe, settings) { enter(.ok, "no failures in the last \(settings.windowSeconds) s") }
        case .failed(let kind, let message):
            e.calls += 1
            e.failures += 1
            e.lastFailure = now
            if kind == .timeout { e.timeouts += 1 }
            if kind == .crashed {
                e.crashes += 1
                e.recentCrashes.append(now)
            }
            guard e.state != .quarantined else { break }
            if e.recentCrashes.count >= settings.quarantineAfterCrashes {
                enter(.quarantined, "crashed \(e.recentCrashes.count) times within \(settings.windowSeconds) s; last: \(message)")
            } else if kind == .loadFailed {
                enter(.unavailable, message)
            } else {
                enter(.degraded, "\(kind.rawValue): \(message)")
            }
        case .probed(let p):
            e.probe = p
            guard e.state != .quarantined else { break }
            if p.status == "unavailable" {
                enter(.unavailable, "health check: \(p.message)")
            } else if p.status == "degraded" || probeDegraded(p, settings) {
                enter(.degraded, p.status == "degraded" ? "health check: \(p.message)"
                      : "health check took \(TimeText.oneDecimal(p.latencyMs ?? 0)) ms (slower than \(settings.slowProbeMs) ms)")
            } else if recentFailure {
                if e.state != .degraded { enter(.degraded, e.reason) }
            } else {
                enter(.ok, "health check: \(p.message)")
            }
        case .unblocked:
            e.recentCrashes = []
            e.lastFailure = nil
            enter(.ok, "unblocked by `skillhost unblock` at \(TimeText.rfc3339(now))")
        }
        return e
    }

    /// The state to show at `now`: a `degraded` whose failures all left the window reads as `ok`.
    public static func effective(_ entry: SkillHealth, now: Int, settings: HealthSettings) -> SkillHealth {
        guard entry.state == .degraded, let last = entry.lastFailure ?? Optional(entry.since),
              now - last >= settings.windowSeconds, !probeDegraded(entry.probe, settings) else { return entry }
        var e = entry
        e.state = .ok
        e.reason = "no failures in the last \(settings.windowSeconds) s"
        return e
    }

    private static func probeDegraded(_ p: HealthRecord?, _ settings: HealthSettings) -> Bool {
        guard let p else { return false }
        return p.status == "degraded" || (p.status == "ok" && (p.latencyMs ?? 0) > Double(settings.slowProbeMs))
    }
}
