import Foundation
import Synchronization

/// Builds a `SkillContext`'s members from a call's `context_json` (see `skillhost.h` and `SkillContext` for the
/// members and their defaults). Never fails: unusable members fall back to their defaults.
enum ContextDecoding {
    /// The context decoded last. Hosts send the same bytes for call after call (only "now" changes, at
    /// most once a second), so the JSON is parsed and copied once per change, not per call, and every
    /// call with those bytes shares one `ContextFields`.
    private struct Last: Sendable {
        var bytes: [UInt8], skillID: String
        var fields: ContextFields
    }
    private static let last = Mutex<Last?>(nil)

    /// The members of the context a call's `context_json` (`bytes`) gives. The bytes are borrowed: read,
    /// and copied only when they differ from the last call's.
    static func fields(from bytes: UnsafeRawBufferPointer, skillID: String) -> ContextFields {
        let hit = last.withLock { l -> ContextFields? in
            guard let l, l.skillID == skillID, sameBytes(l.bytes, bytes) else { return nil }
            return l.fields
        }
        if let hit { return hit }
        let copy = Array(bytes)
        let (fields, hasNow) = decode(copy, skillID: skillID)
        // Without a "now" member the context means "the current time": nothing to reuse.
        if hasNow { last.withLock { $0 = Last(bytes: copy, skillID: skillID, fields: fields) } }
        return fields
    }

    /// `a == b` with one `memcmp` (Array's `==` compares element by element: ~2 k instructions for a
    /// context, on every call).
    private static func sameBytes(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in memcmp(x.baseAddress!, b.baseAddress!, x.count) == 0 }
    }

    /// The fields of `bytes`, and whether they name a "now".
    private static func decode(_ bytes: [UInt8], skillID: String) -> (ContextFields, hasNow: Bool) {
        let object = SkillJSON.object(bytes) as? [String: Any] ?? [:]
        var configJSON = Array("{}".utf8)
        if let config = object["config"] as? [String: Any], !config.isEmpty,
           let data = try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys]) {
            configJSON = Array(data)
        }
        let now = nonEmpty(object["now"]).flatMap(SkillDates.parseInstant)
        let fields = ContextFields(
            configJSON: configJSON,
            dataDirectory: nonEmpty(object["dataDir"]) ?? defaultDataDirectory(skillID: skillID),
            locale: nonEmpty(object["locale"]) ?? "en",
            timeZone: nonEmpty(object["timeZone"]).flatMap(TimeZone.init(identifier:)) ?? .current,
            now: now ?? Date(),
            caller: nonEmpty(object["caller"]) ?? "automation")
        return (fields, now != nil)
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
