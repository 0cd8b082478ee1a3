import FoundationEssentials

/// The host's configuration: `config.json` in `$XDG_CONFIG_HOME/skillhost/` (or the file named by
/// `--config` / `$SKILLHOST_CONFIG`). Every member is optional:
///
///     {
///       "skills": { "dev.skillhost.calendar": { "calendars": ["~/cal/work.ics"] } },
///       "invokeTimeoutMs": 10000, "scanTimeoutMs": 5000, "healthTimeoutMs": 5000,
///       "locale": "zh-CN", "timeZone": "Asia/Shanghai"
///     }
///
/// `skills.<id>` is handed to that skill, and only to it, as `config` in its call context. Strings in
/// it that start with `~/` are expanded to the home directory, and relative paths stay relative to
/// the folder the config file is in, so a config next to its data works from anywhere.
public struct HostConfig: Sendable {
    public var skills: [String: JSON] = [:]
    public var invokeTimeoutMs: Int = 10_000
    public var scanTimeoutMs: Int = 5_000
    public var healthTimeoutMs: Int = 5_000
    public var locale: String?
    public var timeZone: String?
    /// The file this came from, if any.
    public var source: String?

    public init() {}

    /// Loads the config. A missing default file is an empty config; a named file that is missing, or
    /// any file that is not valid, is an error that names the file, the place and the fix.
    public static func load(explicit: String?, paths: HostPaths, environment env: [String: String]) throws(SkillError) -> HostConfig {
        let named = explicit ?? env["SKILLHOST_CONFIG"]
        let path = named ?? paths.configDir + "/config.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            if named != nil {
                throw SkillError(.invalidInput, "config file \"\(path)\" does not exist or cannot be read",
                                 hint: "check the path given to --config or SKILLHOST_CONFIG")
            }
            return HostConfig()
        }
        let json: JSON
        do { json = try JSON.parse([UInt8](data)) } catch {
            throw SkillError(.invalidInput, "config file \"\(path)\" is not valid JSON: \(error)", hint: "fix the file, or move it away to use the defaults")
        }
        guard case .object(let o) = json else {
            throw SkillError(.invalidInput, "config file \"\(path)\": expected a JSON object at the top, found \(json.typeDescription)")
        }
        var c = HostConfig()
        c.source = path
        let base = PathText.directory(of: PathText.absolute(path))
        for m in o {
            func int() throws(SkillError) -> Int {
                guard let v = m.value.intValue, v > 0 else {
                    throw SkillError(.invalidInput, "config file \"\(path)\": \"\(m.key)\" must be a positive integer (milliseconds), found \(m.value.serialized)")
                }
                return Int(v)
            }
            switch m.key {
            case "skills":
                guard case .object(let skills) = m.value else {
                    throw SkillError(.invalidInput, "config file \"\(path)\": \"skills\" must be an object of skill id → settings")
                }
                for s in skills { c.skills[s.key] = expandPaths(s.value, base: base, home: paths.home) }
            case "invokeTimeoutMs": c.invokeTimeoutMs = try int()
            case "scanTimeoutMs": c.scanTimeoutMs = try int()
            case "healthTimeoutMs": c.healthTimeoutMs = try int()
            case "locale": c.locale = m.value.stringValue
            case "timeZone": c.timeZone = m.value.stringValue
            default:
                HostLog.warning("config file \"\(path)\": unknown setting \"\(m.key)\" ignored")
            }
        }
        return c
    }

    /// Turns "~/x" into "$HOME/x" and "./x" or "x/y" (for members that look like paths) into absolute
    /// paths under `base`. Only strings that start with "~/" or "./" or "../" are touched.
    static func expandPaths(_ v: JSON, base: String, home: String) -> JSON {
        switch v {
        case .string(let s) where s.hasPrefix("~/"): return .string(home + s.dropFirst(1))
        case .string(let s) where s.hasPrefix("./") || s.hasPrefix("../"):
            return .string(PathText.absolute(base + "/" + s))
        case .array(let a): return .array(a.map { expandPaths($0, base: base, home: home) })
        case .object(let o): return .object(JSONObject(o.members.map { ($0.key, expandPaths($0.value, base: base, home: home)) }))
        default: return v
        }
    }
}
