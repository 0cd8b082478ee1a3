import FoundationEssentials

/// The host's configuration: `config.json` in `$XDG_CONFIG_HOME/skillhost/` (or the file named by
/// `--config` / `$SKILLHOST_CONFIG`). Every member is optional:
///
///     {
///       "skills": { "dev.skillhost.calendar": { "calendars": ["~/cal/work.ics"] } },
///       "invokeTimeoutMs": 10000, "scanTimeoutMs": 5000, "healthTimeoutMs": 5000,
///       "locale": "zh-CN", "timeZone": "Asia/Shanghai",
///       "trusted": ["dev.skillhost.units"],
///       "workers": { "memoryLimitMB": 1024, "openFiles": 256, "cpuSecondsPerCall": 60, "killGraceMs": 200 },
///       "health": { "quarantineAfterCrashes": 3, "windowSeconds": 600, "slowProbeMs": 2000 },
///       "policy": { "skills": { "dev.skillhost.reminders": { "agent": false } }, "rateLimits": { … } },
///       "idempotencyWindowSeconds": 86400,
///       "grants": { "dev.skillhost.calendar": { "read": ["{config:calendars}"] } },
///       "sandbox": true
///     }
///
/// `skills.<id>` is handed to that skill, and only to it, as `config` in its call context. Strings in
/// it that start with `~/` are expanded to the home directory, and relative paths stay relative to
/// the folder the config file is in, so a config next to its data works from anywhere.
///
/// Every skill runs in a worker process (`WorkerRuntime`) unless its id is in `trusted`: only the
/// host's owner can mark a skill trusted, never the skill itself. `workers` sets the limits of those
/// processes (see `WorkerSettings`). `grants` says what each skill's worker may reach (see `Grant`);
/// `"sandbox": false` turns the sandbox off for every skill (benchmarks, kernels that misbehave).
public struct HostConfig: Sendable {
    public var skills: [String: JSON] = [:]
    public var invokeTimeoutMs: Int = 10_000
    public var scanTimeoutMs: Int = 5_000
    public var healthTimeoutMs: Int = 5_000
    public var locale: String?
    public var timeZone: String?
    /// Skill ids that run inside the host process (loaded with dlopen) instead of a worker process.
    public var trusted: Set<String> = []
    public var workers = WorkerSettings()
    /// Thresholds of the health state machine (see `HealthSettings`).
    public var health = HealthSettings()
    /// The agent engine (see `AgentSettings`).
    public var agent = AgentSettings()
    /// Who may call what, confirmation, rate limits, the audit log (see `PolicyConfig`).
    public var policy = PolicyConfig()
    /// How long `--idempotency-key` remembers a call's result. Default 24 h.
    public var idempotencyWindowSeconds = 86_400
    /// The file this came from, if any.
    public var source: String?
    /// What each skill's worker may reach, by skill id (see `Grant`).
    public var grants: [String: Grant] = [:]
    /// False: no worker is sandboxed.
    public var sandbox = true

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
        let bytes = [UInt8](data)
        let json: JSON
        do { json = try JSON.parse(bytes) } catch {
            var e = SkillError(.invalidInput, "config file \"\(path)\" is not valid JSON: \(error)", hint: "fix the file, or move it away to use the defaults")
            e.config = ConfigLocation(file: path, text: bytes, offset: error.offset)
            e.message = "config file \"\(path)\", \(e.config!.place): not valid JSON: \(error.reason)"
            throw e
        }
        do { return try read(json, path: path, paths: paths) } catch {
            throw ConfigLocation.locate(error, file: path, text: bytes)
        }
    }

    /// The longest deadline the config may set (`invokeTimeoutMs`, `scanTimeoutMs`, `healthTimeoutMs`): 24 h.
    public static let maxMilliseconds: Int64 = 86_400_000

    private static func read(_ json: JSON, path: String, paths: HostPaths) throws(SkillError) -> HostConfig {
        guard case .object(let o) = json else {
            throw SkillError(.invalidInput, "config file \"\(path)\": expected a JSON object at the top, found \(json.typeDescription)")
        }
        var c = HostConfig()
        c.source = path
        let base = PathText.directory(of: PathText.absolute(path))
        for m in o {
            func int(_ unit: String = "milliseconds", max: Int64 = HostConfig.maxMilliseconds) throws(SkillError) -> Int {
                guard let v = m.value.intValue, v > 0, v <= max else {
                    throw SkillError(.invalidInput, "config file \"\(path)\": \"\(m.key)\" must be a whole number of \(unit) from 1 to \(max), found \(m.value.serialized)")
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
            case "trusted":
                guard let a = m.value.arrayValue, a.allSatisfy({ $0.stringValue != nil }) else {
                    throw SkillError(.invalidInput, "config file \"\(path)\": \"trusted\" must be an array of skill ids, found \(m.value.serialized)",
                                     hint: "for example \"trusted\": [\"dev.skillhost.units\"]")
                }
                c.trusted = Set(a.compactMap(\.stringValue))
            case "workers": c.workers = try WorkerSettings(m.value, file: path)
            case "health": c.health = try HealthSettings(m.value, file: path)
            case "agent": c.agent = try AgentSettings(m.value, file: path)
            case "policy": c.policy = try PolicyConfig(m.value, file: path)
            case "idempotencyWindowSeconds": c.idempotencyWindowSeconds = try int("seconds", max: 366 * 86_400)
            case "grants":
                guard case .object(let grants) = m.value else {
                    throw SkillError(.invalidInput, "config file \"\(path)\": \"grants\" must be an object of skill id → grant, found \(m.value.serialized)")
                }
                for g in grants { c.grants[g.key] = try Grant(g.value, id: g.key, file: path) }
            case "sandbox":
                guard let b = m.value.boolValue else {
                    throw SkillError(.invalidInput, "config file \"\(path)\": \"sandbox\" must be true or false, found \(m.value.serialized)")
                }
                c.sandbox = b
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

/// Limits of the worker processes skills run in (config member `"workers"`). They catch faulty skills;
/// they are not a sandbox (see Docs/Isolation.md). 0 turns a limit off.
public struct WorkerSettings: Sendable, Equatable {
    /// Address space (RLIMIT_AS) of one worker, in MiB. Default 1024.
    public var memoryLimitMB = 1024
    /// Open file descriptors (RLIMIT_NOFILE) of one worker. Default 256.
    public var openFiles = 256
    /// CPU seconds one call may use (RLIMIT_CPU, moved forward at each call). Default 60.
    public var cpuSecondsPerCall = 60
    /// After a deadline passes, how long a worker gets between SIGTERM and SIGKILL. Default 200 ms.
    public var killGraceMs = 200
    /// Start every worker when the host opens, instead of on each skill's first call. Default false:
    /// worth it for a long-running host, a waste for a one-shot `skillhost` command.
    public var eager = false
    /// Not configurable: `skillhost validate` sets it so that a worker runs a thread-safe skill's
    /// invoke() calls on several threads at once (workers normally run them on the thread that read
    /// them), which is how a false SKH_SKILL_THREAD_SAFE claim shows up.
    var parallelInvokes = false
    /// Not configurable: the host's zone (IANA name), given to each worker as its `TZ`, so that skill
    /// code calling the C library's localtime() reads the zone the call's context names.
    var timeZone = ""

    public init() {}

    init(_ j: JSON, file: String) throws(SkillError) {
        guard case .object(let o) = j else {
            throw SkillError(.invalidInput, "config file \"\(file)\": \"workers\" must be an object, e.g. {\"memoryLimitMB\": 1024}")
        }
        for m in o {
            if m.key == "eager" {
                guard let b = m.value.boolValue else {
                    throw SkillError(.invalidInput, "config file \"\(file)\": \"workers.eager\" must be true or false, found \(m.value.serialized)")
                }
                eager = b
                continue
            }
            guard let v = m.value.intValue, v >= 0, v <= 1 << 30 else {
                throw SkillError(.invalidInput, "config file \"\(file)\": \"workers.\(m.key)\" must be a non-negative integer (0 turns the limit off), found \(m.value.serialized)")
            }
            switch m.key {
            case "memoryLimitMB": memoryLimitMB = Int(v)
            case "openFiles": openFiles = Int(v)
            case "cpuSecondsPerCall": cpuSecondsPerCall = Int(v)
            case "killGraceMs": killGraceMs = Int(v)
            default: HostLog.warning("config file \"\(file)\": unknown setting \"workers.\(m.key)\" ignored")
            }
        }
    }
}
