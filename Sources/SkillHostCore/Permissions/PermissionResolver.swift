/// Turns granted entries into what a worker enforces: placeholders filled in from the host's paths,
/// environment and the skill's own config section, network entries reduced to ports.
///
/// `{config:KEY}` reads the skill's config section (already `~`-expanded and made absolute by
/// `HostConfig`); KEY may be dotted ("mail.maildir"). A string gives one entry, an array of strings
/// several; an absent or non-string member gives none and is listed in `unresolved`.
struct PermissionResolver {
    let home: String
    let environment: [String: String]
    /// The skill's data folder.
    let dataDir: String
    /// The skill's config section.
    let config: JSON?

    struct Resolved: Equatable {
        var read: [String] = []
        var write: [String] = []
        var ports: [UInt16] = []
        var environment: [String] = []
        var programs = false
        /// Entries that resolved to nothing, as "read {config:calendars}".
        var unresolved: [String] = []
    }

    func resolve(_ p: Permissions) -> Resolved {
        var r = Resolved()
        r.programs = p.programs
        r.environment = p.environment
        for e in p.read { let v = paths(e); if v.isEmpty { r.unresolved.append("read \(e)") }; r.read += v }
        for e in p.write { let v = paths(e); if v.isEmpty { r.unresolved.append("write \(e)") }; r.write += v }
        for e in p.network {
            let v = ports(e)
            if v.isEmpty { r.unresolved.append("network \(e)") }
            for port in v where !r.ports.contains(port) { r.ports.append(port) }
        }
        return r
    }

    func xdg(_ name: String, _ fallback: String) -> String {
        if let v = environment[name], v.hasPrefix("/") { return v }
        return home + "/" + fallback
    }

    /// The paths of one path entry.
    func paths(_ entry: String) -> [String] {
        if Permissions.isConfigPlaceholder(entry) {
            return configStrings(entry).filter { $0.hasPrefix("/") }
        }
        let bases = [("{home}", home), ("{data}", dataDir), ("{config_home}", xdg("XDG_CONFIG_HOME", ".config")),
                     ("{data_home}", xdg("XDG_DATA_HOME", ".local/share")), ("{cache_home}", xdg("XDG_CACHE_HOME", ".cache")),
                     ("{state_home}", xdg("XDG_STATE_HOME", ".local/state"))]
        for (placeholder, value) in bases where entry == placeholder || entry.hasPrefix(placeholder + "/") {
            return [value + entry.dropFirst(placeholder.count)]
        }
        return entry.hasPrefix("/") ? [entry] : []
    }

    /// The ports of one network entry.
    func ports(_ entry: String) -> [UInt16] {
        let texts = Permissions.isConfigPlaceholder(entry) ? configStrings(entry) : [entry]
        return texts.compactMap(Self.port(ofAddress:))
    }

    /// The strings at `{config:KEY}` in the skill's config section.
    func configStrings(_ entry: String) -> [String] {
        let key = entry.dropFirst("{config:".count).dropLast()
        var v: JSON? = config
        for part in key.split(separator: ".") { v = v?[String(part)] }
        switch v {
        case .string(let s)?: return [s]
        case .array(let a)?: return a.compactMap(\.stringValue)
        default: return []
        }
    }

    /// The TCP port of "https://host[:port]/…", "http://…", "HOST:PORT", "[v6]:PORT", "*:PORT".
    static func port(ofAddress text: String) -> UInt16? {
        var rest = Substring(text)
        var defaultPort: UInt16? = nil
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            let scheme = (lowerBound: colon, upperBound: rest.index(colon, offsetBy: 3))
            switch rest[..<scheme.lowerBound].lowercased() {
            case "http", "ws": defaultPort = 80
            case "https", "wss": defaultPort = 443
            default: break
            }
            rest = rest[scheme.upperBound...]
            if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<slash] }
            if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        }
        // The authority: a port follows the last ":" unless that ":" is inside [v6].
        if let colon = rest.lastIndex(of: ":"), !rest[colon...].contains("]") {
            guard let p = UInt16(rest[rest.index(after: colon)...]), p > 0 else { return nil }
            return p
        }
        return defaultPort
    }
}
