import FoundationEssentials
import Glibc

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

    /// The skill search path, in order (the one rule, for every surface):
    /// 1. `explicit` (`--skills-dir`) alone, else
    /// 2. `$SKILLHOST_PATH` (colon-separated) alone, else
    /// 3. `./skills.d` when it exists, then `$XDG_DATA_HOME/skillhost/skills.d` (default
    ///    `~/.local/share/skillhost/skills.d`), then the system folder `PREFIX/lib/skillhost/skills.d`,
    ///    PREFIX being the folder above the one holding the running binary (`/proc/self/exe/../..`).
    /// Folders the user named (1, 2) are scanned whether or not they exist (a missing one is a
    /// problem to report); the default ones (3) only when they exist.
    public func skillSearchPath(explicit: String?, environment env: [String: String],
                                prefix: String = PathText.directory(of: executableDirectory())) -> [SkillFolder] {
        if let explicit { return [SkillFolder(path: explicit, origin: .option)] }
        if let p = env["SKILLHOST_PATH"], !p.isEmpty {
            return p.split(separator: ":").map(String.init).filter { !$0.isEmpty }.map { SkillFolder(path: $0, origin: .environment) }
        }
        var folders: [SkillFolder] = []
        if SkillFolder.isDirectory("./skills.d") { folders.append(SkillFolder(path: "./skills.d", origin: .current)) }
        folders.append(SkillFolder(path: dataDir + "/skills.d", origin: .user))
        folders.append(SkillFolder(path: prefix + "/lib/skillhost/skills.d", origin: .system))
        return folders
    }
}

/// One folder of the skill search path (`HostPaths.skillSearchPath`), and why it is on it.
public struct SkillFolder: Sendable, Equatable {
    public enum Origin: String, Sendable {
        /// `--skills-dir`
        case option = "--skills-dir"
        /// `$SKILLHOST_PATH`
        case environment = "SKILLHOST_PATH"
        /// `./skills.d` of the current folder
        case current = "current folder"
        /// `$XDG_DATA_HOME/skillhost/skills.d`
        case user = "user folder"
        /// `PREFIX/lib/skillhost/skills.d`
        case system = "system folder"
    }

    public var path: String
    public var origin: Origin

    /// Named by the user (`--skills-dir`, `$SKILLHOST_PATH`): scanned even when missing, which is
    /// then a problem; a default folder is scanned only when it exists.
    public var named: Bool { origin == .option || origin == .environment }
    public var exists: Bool { Self.isDirectory(path) }

    /// True when `install` can put a file here: the folder is writable, or it does not exist yet
    /// and the nearest folder above it that does is writable (install creates it).
    public var writable: Bool {
        var dir = PathText.absolute(path)
        while !Self.isDirectory(dir) {
            var st = stat()
            if lstat(dir, &st) == 0 { return false }  // something that is not a folder is in the way
            let up = PathText.directory(of: dir)
            if up == dir { return false }
            dir = up
        }
        return access(dir, W_OK) == 0
    }

    /// {"path","origin","exists","writable"}, as `doctor --json` prints it.
    public var json: JSON {
        .object(JSONObject([("path", .string(PathText.absolute(path))), ("origin", .string(origin.rawValue)),
                            ("exists", .bool(exists)), ("writable", .bool(writable))]))
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }
}

/// Creates `path` and its parents with mode 0700 if they do not exist.
func makeDirectories(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o700])
}
