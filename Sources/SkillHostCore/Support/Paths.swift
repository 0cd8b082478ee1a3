import FoundationEssentials

/// Where skillhost keeps its per-user files (XDG Base Directory spec) and where it looks for skills.
public struct HostPaths: Sendable {
    /// `$XDG_CONFIG_HOME/skillhost` (default `~/.config/skillhost`): config.json.
    public var configDir: String
    /// `$XDG_DATA_HOME/skillhost` (default `~/.local/share/skillhost`): skills' data, one folder per skill id.
    public var dataDir: String
    /// `$XDG_STATE_HOME/skillhost` (default `~/.local/state/skillhost`): scan cache, health, traces, audit.
    public var stateDir: String
    public var home: String

    public init(environment env: [String: String] = ProcessInfo.processInfo.environment) {
        let home = env["HOME"] ?? PathText.homeDirectory()
        self.home = home
        func xdg(_ name: String, _ fallback: String) -> String {
            if let v = env[name], v.hasPrefix("/") { return v }
            return home + "/" + fallback
        }
        configDir = xdg("XDG_CONFIG_HOME", ".config") + "/skillhost"
        dataDir = xdg("XDG_DATA_HOME", ".local/share") + "/skillhost"
        stateDir = xdg("XDG_STATE_HOME", ".local/state") + "/skillhost"
    }

    /// The skill folders to scan, in order: `explicit` (from `--skills-dir`), else `$SKILLHOST_PATH`
    /// (colon-separated), else `./skills.d`.
    public static func skillDirectories(explicit: String?, environment env: [String: String]) -> [String] {
        if let explicit { return [explicit] }
        if let p = env["SKILLHOST_PATH"], !p.isEmpty {
            return p.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        return ["./skills.d"]
    }
}

/// Creates `path` and its parents with mode 0700 if they do not exist.
func makeDirectories(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o700])
}
