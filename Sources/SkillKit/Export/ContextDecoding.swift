import Foundation

/// Builds a `SkillContext` from a call's `context_json` (see `skillhost.h` and `SkillContext` for the
/// members and their defaults). Never fails: unusable members fall back to their defaults.
enum ContextDecoding {
    static func context(from bytes: [UInt8], skillID: String, session: CallSession?) -> SkillContext {
        let object = SkillJSON.object(bytes) as? [String: Any] ?? [:]
        var configJSON = Array("{}".utf8)
        if let config = object["config"] as? [String: Any], !config.isEmpty,
           let data = try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys]) {
            configJSON = Array(data)
        }
        return SkillContext(
            configJSON: configJSON,
            dataDirectory: nonEmpty(object["dataDir"]) ?? defaultDataDirectory(skillID: skillID),
            locale: nonEmpty(object["locale"]) ?? "en",
            timeZone: nonEmpty(object["timeZone"]).flatMap(TimeZone.init(identifier:)) ?? .current,
            now: nonEmpty(object["now"]).flatMap(SkillDates.parseInstant) ?? Date(),
            caller: nonEmpty(object["caller"]) ?? "automation",
            session: session)
    }

    /// `$XDG_DATA_HOME/skillhost/<id>`, else `$HOME/.local/share/skillhost/<id>`.
    static func defaultDataDirectory(skillID: String) -> String {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return xdg + "/skillhost/" + skillID
        }
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/skillhost/" + skillID
    }

    private static func nonEmpty(_ value: Any?) -> String? {
        guard let s = value as? String, !s.isEmpty else { return nil }
        return s
    }
}
