/// What a skill needs beyond computing: network, files, environment variables, programs
/// (`skh_permissions`, ABI 1.2). A request, shown to the host's owner at install; the owner grants it
/// (or less, or more), and the host's worker enforces only what was granted, with the kernel. Anything
/// not granted fails as the operating system makes it fail (`EACCES`, `ECONNREFUSED`, …): catch those
/// and throw `SkillError.unavailable` naming what was missing.
///
///     var permissions: SkillPermissions {
///         SkillPermissions(network: [.host("api.open-meteo.com", port: 443), .config("baseURL")],
///                          read: [.config("calendars")], environment: ["HTTPS_PROXY"])
///     }
///
/// Always allowed without declaring: the skill's data folder (`SkillContext.dataDirectory`, read-write),
/// its own file, system libraries, the Swift runtime, time zone data, threads.
public struct SkillPermissions: Sendable, Equatable {
    /// Outbound TCP connections. Enforced by port: the host name is shown to the owner, not checked.
    public var network: [NetworkPermission]
    /// Files and folders to read (a folder covers everything below it).
    public var read: [PathPermission]
    /// Files and folders to create, write, rename and remove in. They must exist.
    public var write: [PathPermission]
    /// Environment variables to read; every other variable of the host is absent.
    public var environment: [String]
    /// Whether the skill runs programs (execve, fork, `Process`).
    public var runsPrograms: Bool

    public init(network: [NetworkPermission] = [], read: [PathPermission] = [], write: [PathPermission] = [],
                environment: [String] = [], runsPrograms: Bool = false) {
        (self.network, self.read, self.write, self.environment, self.runsPrograms) = (network, read, write, environment, runsPrograms)
    }

    /// Nothing beyond the baseline (the default).
    public static let none = SkillPermissions()

    public var isEmpty: Bool { self == .none }
}

/// One network entry of `SkillPermissions`: its text is what `skh_permissions.network` carries.
public struct NetworkPermission: Sendable, Equatable, ExpressibleByStringLiteral {
    public let text: String
    /// `"HOST:PORT"` or `"*:PORT"`, as written.
    public init(stringLiteral value: String) { text = value }
    /// TCP to `host` on `port`.
    public static func host(_ host: String, port: Int) -> NetworkPermission {
        NetworkPermission(stringLiteral: (host.contains(":") ? "[\(host)]" : host) + ":\(port)")
    }
    /// TCP to `port` on any host.
    public static func anyHost(port: Int) -> NetworkPermission { NetworkPermission(stringLiteral: "*:\(port)") }
    /// The host and port of a URL (or `HOST:PORT`) in the skill's config section at `key` (dotted).
    public static func config(_ key: String) -> NetworkPermission { NetworkPermission(stringLiteral: "{config:\(key)}") }
}

/// One path entry of `SkillPermissions`: an absolute path or one that starts with a placeholder
/// (`{home}`, `{data}`, `{config_home}`, `{data_home}`, `{cache_home}`, `{state_home}`), or the paths in
/// the skill's config section (`.config("calendars")`: a string or an array of strings there).
public struct PathPermission: Sendable, Equatable, ExpressibleByStringLiteral {
    public let text: String
    public init(stringLiteral value: String) { text = value }
    /// The path (or paths) at `key` (dotted) in the skill's config section.
    public static func config(_ key: String) -> PathPermission { PathPermission(stringLiteral: "{config:\(key)}") }
    /// `relative` under the user's home folder.
    public static func home(_ relative: String) -> PathPermission { PathPermission(stringLiteral: "{home}/\(relative)") }
}
