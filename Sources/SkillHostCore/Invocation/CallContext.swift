import Glibc
import Synchronization

/// The `context_json` every call hands its skill (config section, data folder, locale, time zone, now,
/// caller). Everything but "now" is fixed per skill and caller, so it is built once and reused.
/// Thread-safe.
final class CallContext: Sendable {
    let config: HostConfig
    let paths: HostPaths
    let settings: CallSettings
    let clock: CallClock
    /// Per skill and caller kind: the context up to "now", and the whole text for the last second seen.
    private let cache = Mutex<[CacheKey: (prefix: String, now: String, text: String)]>([:])
    private struct CacheKey: Hashable {
        let skill: String
        let caller: String
    }

    init(config: HostConfig, paths: HostPaths, timeZone: String, environment: [String: String]) {
        (self.config, self.paths) = (config, paths)
        settings = CallSettings(config: config, timeZone: timeZone, environment: environment)
        clock = CallClock(zone: ZoneRules.load(timeZone) ?? .utc, environment: environment)
    }

    /// The `context_json` a skill receives: its config section, data folder, locale, time zone, now,
    /// caller. Everything but "now" is fixed per skill and caller, and "now" changes once a second, so
    /// a call costs a lookup; the text is built again only when the second changed.
    func json(for skill: RegisteredSkill, caller: Caller, situation: CallSituation? = nil) -> String {
        if let situation {
            return JSON.object(JSONObject([
                ("config", config.skills[skill.id] ?? .object(JSONObject())),
                ("dataDir", .string(paths.dataDir + "/" + skill.id)),
                ("locale", .string(situation.locale)),
                ("timeZone", .string(situation.timeZone ?? settings.timeZone)),
                ("caller", .string(caller.kind)),
                ("now", .string(situation.now)),
            ])).serialized
        }
        let now = clock.now()
        let key = CacheKey(skill: skill.id, caller: caller.kind)
        let hit = cache.withLock { $0[key] }
        if let hit, hit.now == now { return hit.text }
        let prefix = hit?.prefix ?? {
            let text = JSON.object(JSONObject([
                ("config", config.skills[skill.id] ?? .object(JSONObject())),
                ("dataDir", .string(paths.dataDir + "/" + skill.id)),
                ("locale", .string(settings.locale)),
                ("timeZone", .string(settings.timeZone)),
                ("caller", .string(caller.kind)),
            ])).serialized
            return String(text.dropLast()) + ",\"now\":"
        }()
        let text = prefix + JSON.quote(now) + "}"
        cache.withLock { $0[key] = (prefix, now, text) }
        return text
    }
}

/// Runtimes handed to the thread that stops them.
private struct RetiredRuntimes: @unchecked Sendable {
    let runtimes: [any SkillRuntime]
    init(_ r: [any SkillRuntime]) { runtimes = r }
}

/// Locale and time zone for calls: from the config, else from the environment.
struct CallSettings: Sendable {
    let locale: String
    /// IANA name of the host's zone (see `HostTimeZone`); a call may carry its own (`CallSituation`).
    let timeZone: String

    init(config: HostConfig, timeZone: String, environment: [String: String]) {
        var locale = config.locale ?? "en-US"
        if config.locale == nil {
            for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
                if let v = environment[key], !v.isEmpty, v != "C", v != "POSIX", !v.hasPrefix("C.") {
                    locale = String(v.split(separator: ".").first!.map { $0 == "_" ? "-" : $0 })
                    break
                }
            }
        }
        self.locale = locale
        self.timeZone = timeZone
    }
}

/// "Now" as an RFC 3339 string in the host's zone, or `$SKILLHOST_NOW` when set (tests and replays
/// pin it). Formats at most once per second. Thread-safe.
final class CallClock: Sendable {
    private let fixed: String?
    private let zone: ZoneRules
    private let cache = Mutex<(second: Int, text: String)>((-1, ""))

    init(zone: ZoneRules, environment: [String: String]) {
        self.zone = zone
        fixed = environment["SKILLHOST_NOW"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func now() -> String {
        if let fixed { return fixed }
        let second = time(nil)
        if let hit = cache.withLock({ $0.second == second ? $0.text : nil }) { return hit }
        let text = zone.rfc3339(second)
        cache.withLock { $0 = (second, text) }
        return text
    }
}
