import Glibc
import Synchronization

/// The `context_json` every call hands its skill (config section, data folder, locale, time zone, now,
/// caller). Everything but "now" is fixed per skill and caller kind, so it is built once and kept in
/// the skill's memo (`SkillMemo`); "now" changes once a second. Thread-safe.
final class CallContext: Sendable {
    let config: HostConfig
    let paths: HostPaths
    let settings: CallSettings
    let clock: CallClock
    /// This object's name in the skills' memos (`SkillMemo`).
    private let memoOwner = SkillMemo.Owner()

    init(config: HostConfig, paths: HostPaths, timeZone: String, environment: [String: String]) {
        (self.config, self.paths) = (config, paths)
        settings = CallSettings(config: config, timeZone: timeZone, environment: environment)
        clock = CallClock(zone: ZoneRules.load(timeZone) ?? .utc, environment: environment)
    }

    /// The `context_json` a skill receives: its config section, data folder, locale, time zone, now,
    /// caller. A call costs a lock on the skill's memo and a look at its (at most three) entries; the
    /// text is built again only when the second changed, the part before "now" only once.
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
        let me = memoOwner, kind = caller.index
        let hit = skill.memo.contexts.withLock { entries -> (prefix: String, text: String?)? in
            guard let e = entries.first(where: { $0.owner == me && $0.caller == kind }) else { return nil }
            return (e.prefix, e.second == now.second ? e.text : nil)
        }
        if let text = hit?.text { return text }
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
        let text = prefix + JSON.quote(now.text) + "}"
        skill.memo.contexts.withLock { entries in
            let entry = SkillMemo.Context(owner: me, caller: kind, prefix: prefix, second: now.second, text: text)
            if let i = entries.firstIndex(where: { $0.owner == me && $0.caller == kind }) { entries[i] = entry } else { entries.append(entry) }
        }
        return text
    }
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

    /// "Now" and the second it stands for (`Int.min` for a pinned `$SKILLHOST_NOW`, which never changes).
    func now() -> (second: Int, text: String) {
        if let fixed { return (Int.min, fixed) }
        let second = time(nil)
        if let hit = cache.withLock({ $0.second == second ? $0.text : nil }) { return (second, hit) }
        let text = zone.rfc3339(second)
        cache.withLock { $0 = (second, text) }
        return (second, text)
    }
}
