import SkillWire

/// A skill's place in the health state machine (`HealthMachine`). The raw values are a public
/// contract: `list --json` and `health --json` print them as `"health"`.
public enum HealthState: String, Sendable, CaseIterable {
    /// Nothing went wrong recently.
    case ok
    /// Failures within the window (crash, timeout, unavailable, bad result), or a slow or degraded probe.
    case degraded
    /// A probe said it cannot serve, or its worker cannot start or load the skill.
    case unavailable
    /// Crashed `quarantineAfterCrashes` times within the window: not called until its file changes or
    /// someone runs `skillhost unblock ID`.
    case quarantined
}

/// Which file a health entry is about: when the registered file is no longer this one (replaced,
/// touched), the entry starts over — which is how a fixed skill leaves quarantine.
public struct FileIdentity: Sendable, Equatable {
    public var path: String
    public var inode: UInt64
    public var size: Int64
    public var mtimeNs: Int64

    public init(_ f: SkillFile) { self.init(path: f.path, inode: f.inode, size: f.size, mtimeNs: f.mtimeNs) }
    init(path: String, inode: UInt64, size: Int64, mtimeNs: Int64) {
        self.path = path; self.inode = inode; self.size = size; self.mtimeNs = mtimeNs
    }
}

/// Everything recorded about one skill's health: the state and why, counters, recent crash times,
/// the file it is about, and the last probe's answer. A value; `HealthStore` persists it as one
/// member of `health.json`. Times are seconds since the epoch (UTC).
public struct SkillHealth: Sendable, Equatable {
    public var state: HealthState = .ok
    /// Why the skill is in `state` (the failure's message, the probe's answer, "unblocked …").
    public var reason: String = ""
    /// When the skill entered `state`.
    public var since: Int = 0
    public var lastFailure: Int?
    public var calls = 0
    public var failures = 0
    public var crashes = 0
    public var timeouts = 0
    /// Crash times within the window, oldest first (for quarantine).
    public var recentCrashes: [Int] = []
    public var file: FileIdentity?
    /// The last health probe's answer, if any.
    public var probe: HealthRecord?

    public init(file: FileIdentity? = nil) { self.file = file }

    /// `healthDetail` as `list --json` and `health --json` print it.
    public var detailJSON: JSON {
        var o = JSONObject([("reason", .string(reason)),
                            ("since", since > 0 ? .string(TimeText.rfc3339(since)) : .null),
                            ("lastFailure", lastFailure.map { .string(TimeText.rfc3339($0)) } ?? .null),
                            ("calls", .int(Int64(calls))), ("failures", .int(Int64(failures))),
                            ("crashes", .int(Int64(crashes))), ("timeouts", .int(Int64(timeouts)))])
        if let probe {
            o["message"] = .string(probe.message)
            o["checkedAt"] = .string(probe.checkedAt)
            if let l = probe.latencyMs { o["latencyMs"] = .double((l * 100).rounded() / 100) }
        }
        return .object(o)
    }

    /// Appends `detailJSON`'s text, written straight from the values (`list --json` writes one per skill).
    func writeDetailJSON(to line: inout Line) {
        line.raw("{")
        line.key("reason"); line.quoted(reason)
        line.key("since"); line.quoted(orNull: since > 0 ? TimeText.rfc3339(since) : nil)
        line.key("lastFailure"); line.quoted(orNull: lastFailure.map(TimeText.rfc3339))
        line.key("calls"); line.number(calls)
        line.key("failures"); line.number(failures)
        line.key("crashes"); line.number(crashes)
        line.key("timeouts"); line.number(timeouts)
        if let probe {
            line.key("message"); line.quoted(probe.message)
            line.key("checkedAt"); line.quoted(probe.checkedAt)
            if let l = probe.latencyMs {
                line.key("latencyMs"); JSON.double((l * 100).rounded() / 100).write(to: &line.bytes)
            }
        }
        line.raw("}")
    }

    /// One member of `health.json`.
    var json: JSON {
        var o = JSONObject([("state", .string(state.rawValue)), ("reason", .string(reason)), ("since", .int(Int64(since))),
                            ("lastFailure", lastFailure.map { .int(Int64($0)) } ?? .null),
                            ("calls", .int(Int64(calls))), ("failures", .int(Int64(failures))),
                            ("crashes", .int(Int64(crashes))), ("timeouts", .int(Int64(timeouts))),
                            ("recentCrashes", .array(recentCrashes.map { .int(Int64($0)) }))])
        if let f = file {
            o["file"] = .array([.string(f.path), .int(Int64(bitPattern: f.inode)), .int(f.size), .int(f.mtimeNs)])
        }
        if let probe { o["probe"] = probe.json }
        return .object(o)
    }

    /// Reads one member of `health.json`; nil for anything unreadable (the entry then starts over).
    init?(json j: JSON) {
        guard let s = j["state"]?.stringValue, let state = HealthState(rawValue: s) else { return nil }
        self.state = state
        reason = j["reason"]?.stringValue ?? ""
        since = Int(j["since"]?.intValue ?? 0)
        lastFailure = j["lastFailure"]?.intValue.map { Int($0) }
        calls = Int(j["calls"]?.intValue ?? 0)
        failures = Int(j["failures"]?.intValue ?? 0)
        crashes = Int(j["crashes"]?.intValue ?? 0)
        timeouts = Int(j["timeouts"]?.intValue ?? 0)
        recentCrashes = (j["recentCrashes"]?.arrayValue ?? []).compactMap { $0.intValue.map { Int($0) } }
        if let f = j["file"]?.arrayValue, f.count == 4, let p = f[0].stringValue, let i = f[1].intValue,
           let sz = f[2].intValue, let m = f[3].intValue {
            file = FileIdentity(path: p, inode: UInt64(bitPattern: i), size: sz, mtimeNs: m)
        }
        if let p = j["probe"], let status = p["status"]?.stringValue {
            probe = HealthRecord(status: status, message: p["message"]?.stringValue ?? "", checkedAt: p["checkedAt"]?.stringValue ?? "",
                                 latencyMs: p["latencyMs"]?.doubleValue, sha256: p["sha256"]?.stringValue)
        }
    }
}
