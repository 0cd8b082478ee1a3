import Foundation
import Synchronization

/// Builds a `SkillContext` from a call's `context_json` (see `skillhost.h` and `SkillContext` for the
/// members and their defaults). Never fails: unusable members fall back to their defaults.
enum ContextDecoding {
    /// The fields of the last context decoded. Hosts send the same bytes for call after call (only
    /// "now" changes, at most once a second), so the JSON is parsed once per change, not per call.
    private struct Fields: Sendable {
        var bytes: [UInt8], skillID: String
        var configJSON: [UInt8], dataDirectory: String, locale: String, timeZone: TimeZone, now: Date, caller: String
        var hasNow: Bool
    }
    private static let last = Mutex<Fields?>(nil)

    static func context(from bytes: [UInt8], skillID: String, session: CallSession?) -> SkillContext {
        let hit = last.withLock { f -> Fields? in
            guard let f, f.skillID == skillID, sameBytes(f.bytes, bytes) else { return nil }
            return f
        }
        let f = hit ?? decode(bytes, skillID: skillID)
        // Without a "now" member the context means "the current time": nothing to reuse.
        if hit == nil, f.hasNow { last.withLock { $0 = f } }
        return SkillContext(configJSON: f.configJSON, dataDirectory: f.dataDirectory, locale: f.locale,
                            timeZone: f.timeZone, now: f.now, caller: f.caller, session: session)
    }

    /// `a == b` with one `memcmp` (Array's `==` compares element by element: ~2 k instructions for a
    /// context, on every call).
    private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    private static func decode(_ bytes: [UInt8], skillID: String) -> Fields {
        let object = SkillJSON.object(bytes) as? [String: Any] ?? [:]
        var configJSON = Array("{}".utf8)
        if let config = object["config"] as? [String: Any], !config.isEmpty,
           let data = try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys]) {
            configJSON = Array(data)
        }
        return Fields(
            bytes: bytes, skillID: skillID,
            configJSON: configJSON,
            dataDirectory: nonEmpty(object["dataDir"]) ?? defaultDataDirectory(skillID: skillID),
            locale: nonEmpty(object["locale"]) ?? "en",
            timeZone: nonEmpty(object["timeZone"]).flatMap(TimeZone.init(identifier:)) ?? .current,
            now: nonEmpty(object["now"]).flatMap(SkillDates.parseInstant) ?? Date(),
            caller: nonEmpty(object["caller"]) ?? "automation",
            hasNow: nonEmpty(object["now"]).flatMap(SkillDates.parseInstant) != nil)
    }

    /// `$XDG_DATA_HOME/skillhost/<id>`, else `$HOME/.local/share/skillhost/<id>`.
    static func defaultDataDirectory(skillID: String) -> String {
        // getenv, not ProcessInfo.environment: two variables, not a copy of the whole environment.
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if let xdg = variable("XDG_DATA_HOME"), xdg.hasPrefix("/") {
            return xdg + "/skillhost/" + skillID
        }
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/skillhost/" + skillID
    }

    private static func nonEmpty(_ value: Any?) -> String? {
        guard let s = value as? String, !s.isEmpty else { return nil }
        return s
    }
}
