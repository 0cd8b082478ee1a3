/// When a skill counts as degraded, slow or quarantined (config member `"health"`):
///
///     "health": { "quarantineAfterCrashes": 3, "windowSeconds": 600, "slowProbeMs": 2000 }
///
/// A value type read once from the config; immutable afterwards, so it is shared freely between threads.
public struct HealthSettings: Sendable, Equatable {
    /// Crashes within `windowSeconds` that put a skill in quarantine. Default 3.
    public var quarantineAfterCrashes = 3
    /// How far back crashes count for quarantine, and how long a failure keeps a skill `degraded`. Default 600.
    public var windowSeconds = 600
    /// A health probe answering "ok" slower than this makes the skill `degraded`. Default 2000.
    public var slowProbeMs = 2000

    public init() {}

    /// Reads the `"health"` object; an unknown member is a warning, a bad value an error naming it.
    init(_ j: JSON, file: String) throws(SkillError) {
        guard case .object(let o) = j else {
            throw SkillError(.invalidInput, "config file \"\(file)\": \"health\" must be an object, e.g. {\"quarantineAfterCrashes\": 3, \"windowSeconds\": 600}")
        }
        for m in o {
            guard let v = m.value.intValue, v > 0, v <= 1 << 30 else {
                throw SkillError(.invalidInput, "config file \"\(file)\": \"health.\(m.key)\" must be a positive integer, found \(m.value.serialized)")
            }
            switch m.key {
            case "quarantineAfterCrashes": quarantineAfterCrashes = Int(v)
            case "windowSeconds": windowSeconds = Int(v)
            case "slowProbeMs": slowProbeMs = Int(v)
            default: HostLog.warning("config file \"\(file)\": unknown setting \"health.\(m.key)\" ignored")
            }
        }
    }
}
