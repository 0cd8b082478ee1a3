import SkillWire

/// What a skill may reach beyond computing: the `skh_permissions` a skill declares (requested, ABI 1.2)
/// and the config's `grants` (granted) have this one shape. Entries are kept as written, placeholders
/// included (`{config:calendars}`, `{home}/Mail`); `PermissionResolver` turns granted entries into
/// paths and ports when a worker starts.
public struct Permissions: Sendable, Equatable {
    /// "HOST:PORT", "*:PORT" or "{config:KEY}" (a URL or HOST:PORT there).
    public var network: [String] = []
    public var read: [String] = []
    public var write: [String] = []
    /// Environment variable names.
    public var environment: [String] = []
    /// SKH_PERMISSION_PROGRAMS: execve and fork.
    public var programs = false

    public init(network: [String] = [], read: [String] = [], write: [String] = [], environment: [String] = [], programs: Bool = false) {
        (self.network, self.read, self.write, self.environment, self.programs) = (network, read, write, environment, programs)
    }

    public static let none = Permissions()
    public var isEmpty: Bool { self == .none }

    /// `{"network":[…],"read":[…],"write":[…],"environment":[…],"programs":B}`
    public var json: JSON {
        .object(JSONObject([("network", .array(network.map(JSON.string))), ("read", .array(read.map(JSON.string))),
                            ("write", .array(write.map(JSON.string))), ("environment", .array(environment.map(JSON.string))),
                            ("programs", .bool(programs))]))
    }

    /// Appends `json`'s text, written straight from the values.
    func writeJSON(to line: inout Line) {
        line.raw("{")
        line.key("network"); line.strings(network)
        line.key("read"); line.strings(read)
        line.key("write"); line.strings(write)
        line.key("environment"); line.strings(environment)
        line.key("programs"); line.bool(programs)
        line.raw("}")
    }

    /// From `json` (missing members are empty); nil when it is not an object.
    init?(json j: JSON) {
        guard case .object = j else { return nil }
        func strings(_ k: String) -> [String] { j[k]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        self.init(network: strings("network"), read: strings("read"), write: strings("write"),
                  environment: strings("environment"), programs: j["programs"]?.boolValue ?? false)
    }

    /// Each entry of `self` that `granted` does not contain, as "network api.open-meteo.com:443",
    /// "read {config:calendars}", "environment HTTPS_PROXY", "programs".
    public func missing(from granted: Permissions) -> [String] {
        if isEmpty { return [] }  // most skills ask for nothing: no tables built
        var out: [String] = []
        for (kind, mine, theirs) in [("network", network, granted.network), ("read", read, granted.read + granted.write),
                                     ("write", write, granted.write), ("environment", environment, granted.environment)] {
            for e in mine where !theirs.contains(e) && !(kind == "network" && theirs.contains("*:" + Self.port(of: e))) {
                out.append("\(kind) \(e)")
            }
        }
        if programs && !granted.programs { out.append("programs") }
        return out
    }

    /// Lines for a person: "network: api.open-meteo.com:443 (TCP, by port)", "read: {config:calendars}", …;
    /// ["nothing beyond its data folder"] when empty.
    public var lines: [String] {
        var out: [String] = []
        if !network.isEmpty { out.append("network: " + network.joined(separator: ", ") + " (outbound TCP; enforced by port)") }
        if !read.isEmpty { out.append("read: " + read.joined(separator: ", ")) }
        if !write.isEmpty { out.append("write: " + write.joined(separator: ", ")) }
        if !environment.isEmpty { out.append("environment: " + environment.joined(separator: ", ")) }
        if programs { out.append("programs: may run programs (execve, fork)") }
        return out.isEmpty ? ["nothing beyond its data folder"] : out
    }

    /// The union of two sets of permissions.
    public func adding(_ o: Permissions) -> Permissions {
        func merge(_ a: [String], _ b: [String]) -> [String] { a + b.filter { !a.contains($0) } }
        return Permissions(network: merge(network, o.network), read: merge(read, o.read), write: merge(write, o.write),
                           environment: merge(environment, o.environment), programs: programs || o.programs)
    }

    static func port(of entry: String) -> String {
        entry.lastIndex(of: ":").map { String(entry[entry.index(after: $0)...]) } ?? ""
    }

    // MARK: - Checking entries

    /// Placeholders a path may start with.
    static let pathPlaceholders = ["{home}", "{data}", "{config_home}", "{data_home}", "{cache_home}", "{state_home}"]

    /// Why `entry` is not a valid network entry, or nil.
    static func networkProblem(_ entry: String) -> String? {
        if isConfigPlaceholder(entry) { return nil }
        guard let colon = entry.lastIndex(of: ":"), colon != entry.startIndex else {
            return "expected \"HOST:PORT\", \"*:PORT\" or \"{config:KEY}\""
        }
        guard let p = Int(entry[entry.index(after: colon)...]), p > 0, p < 65536 else { return "expected a port from 1 to 65535 after the last \":\"" }
        return nil
    }

    /// Why `entry` is not a valid path entry, or nil.
    static func pathProblem(_ entry: String) -> String? {
        if isConfigPlaceholder(entry) { return nil }
        if entry.hasPrefix("/") { return entry.contains("{") ? "placeholders only at the start" : nil }
        for p in pathPlaceholders where entry == p || entry.hasPrefix(p + "/") { return nil }
        return "expected an absolute path, a path starting with one of \(pathPlaceholders.joined(separator: " ")), or \"{config:KEY}\""
    }

    static func environmentProblem(_ name: String) -> String? {
        guard let f = name.unicodeScalars.first, f == "_" || (f.isASCII && f.properties.isAlphabetic),
              name.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }) else {
            return "expected a variable name ([A-Za-z_][A-Za-z0-9_]*)"
        }
        return nil
    }

    static func isConfigPlaceholder(_ e: String) -> Bool { e.hasPrefix("{config:") && e.hasSuffix("}") && e.count > 9 }

    /// Checks every entry; the first problem as "network[1] \"x\": expected …".
    func problem() -> String? {
        for (k, e) in network.enumerated() { if let p = Self.networkProblem(e) { return "network[\(k)] \"\(e)\": \(p)" } }
        for (k, e) in read.enumerated() { if let p = Self.pathProblem(e) { return "read[\(k)] \"\(e)\": \(p)" } }
        for (k, e) in write.enumerated() { if let p = Self.pathProblem(e) { return "write[\(k)] \"\(e)\": \(p)" } }
        for (k, e) in environment.enumerated() { if let p = Self.environmentProblem(e) { return "environment[\(k)] \"\(e)\": \(p)" } }
        return nil
    }
}
