import FoundationEssentials
import Glibc

/// How one skill's worker is confined, decided by the host when it starts the worker: the extra
/// `skillhost-worker serve` arguments (see the worker's `SandboxPlan`) and the worker's whole
/// environment. Nil from `make` means the sandbox is off for that skill (config `"sandbox": false`,
/// globally or in its grant): the worker then starts as before, with the host's environment.
struct WorkerSandbox: Sendable, Equatable {
    var arguments: [String]
    var environment: [String: String]
    /// The data folder the host creates before the worker starts.
    var dataDir: String
    /// Granted entries that resolved to nothing (shown by `doctor`).
    var unresolved: [String]

    /// Variables every sandboxed worker gets from the host, when set: the locale (names, not data) and
    /// the time zone the host runs in (`HostTimeZone` sets TZ), the library path the host itself was
    /// started with (so the worker finds the same runtime).
    static let passedThrough = ["LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH"]

    static func make(for skill: RegisteredSkill, config: HostConfig, paths: HostPaths,
                     environment env: [String: String] = ProcessInfo.processInfo.environment) -> WorkerSandbox? {
        guard config.sandboxEnabled(for: skill.id) else { return nil }
        let dataDir = paths.dataDir + "/" + skill.id
        let resolver = PermissionResolver(home: paths.home, environment: env, dataDir: dataDir, config: config.skills[skill.id])
        let r = resolver.resolve(config.grants[skill.id]?.permissions ?? .none)
        var args = ["--sandbox", "--allow-write", dataDir]
        for p in r.read { args += ["--allow-read", p] }
        for p in r.write { args += ["--allow-write", p] }
        for p in r.ports { args += ["--allow-connect", String(p)] }
        if r.programs { args.append("--allow-programs") }

        var e: [String: String] = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": dataDir, "TMPDIR": dataDir,
                                   "SWIFT_BACKTRACE": "enable=no"]
        for (k, v) in env where passedThrough.contains(k) || k.hasPrefix("LC_") { e[k] = v }
        for k in r.environment { if let v = env[k] { e[k] = v } }
        return WorkerSandbox(arguments: args, environment: e, dataDir: dataDir, unresolved: r.unresolved)
    }

    /// The environment of a scan process (`skillhost-scan`, where skills' static
    /// initializers and entry functions run): the fixed list without HOME and TMPDIR, and no granted
    /// variables (a skill is not yet granted anything while it is read).
    static func scanEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var e: [String: String] = ["PATH": "/usr/local/bin:/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no"]
        for (k, v) in env where passedThrough.contains(k) || k.hasPrefix("LC_") { e[k] = v }
        return e
    }

    /// What the worker is allowed, as one text (the resolved grants: paths, ports, programs): a stored
    /// report of a partial sandbox counts only for the plan it was reported under (`SandboxReports`).
    var plan: String { arguments.joined(separator: "\n") }

    /// Creates the data folder (and its parents) with mode 0700 if missing: Landlock can allow writing
    /// inside a folder, not creating exactly that one. Nil on success, else why not.
    func prepare() -> String? {
        do { try makeDirectories(dataDir) } catch { return "cannot create the data folder \"\(dataDir)\": \(error)" }
        return nil
    }
}

extension HostConfig {
    /// Whether `id`'s worker is sandboxed: the top-level `"sandbox"` and the skill's grant both allow it.
    public func sandboxEnabled(for id: String) -> Bool {
        sandbox && (grants[id]?.sandbox ?? true) && !trusted.contains(id)
    }
}
