import Glibc
import SkillHostCore

/// Who may use the HTTP endpoint: the bearer token (when one is set), and two checks against DNS
/// rebinding (a web page whose name an attacker points at 127.0.0.1 makes the browser send requests
/// there with the attacker's name in `Host` and `Origin`):
/// - `Host`: on a server bound to a loopback address, the request's `Host` must be a loopback name or
///   address with the bound port (`127.0.0.1:P`, `localhost:P`, `[::1]:P`) or a name given with
///   `--allow-host` (a reverse proxy's); a server bound beyond loopback (which needs a token) checks
///   `Host` only when `--allow-host` names are given, against those and the loopback ones.
/// - `Origin`: an allowed one is a loopback origin, any port, or one given with `--allow-origin`. A
///   request without `Origin` (not from a browser) passes that check.
public struct HTTPAccess: Sendable {
    /// The token every request must carry as `Authorization: Bearer TOKEN`; nil: no token (then the
    /// server listens on loopback only).
    let token: [UInt8]?
    /// Origins allowed besides the loopback ones, normalized (lowercase, no trailing "/").
    let allowedOrigins: Set<String>
    /// `Host` values allowed besides the loopback ones: a name (lowercase) with a port, or with nil
    /// for any port.
    let allowedHosts: [(name: String, port: Int?)]

    /// `allowedHosts`: each `HOST` or `HOST:PORT` (check them first with `parseHost`; one that does
    /// not parse allows nothing).
    public init(token: String?, allowedOrigins: [String], allowedHosts: [String] = []) {
        self.token = token.map { Array($0.utf8) }
        self.allowedOrigins = Set(allowedOrigins.map(Self.normalized))
        self.allowedHosts = allowedHosts.compactMap(Self.parseHost)
    }

    /// Whether a request with this `Host` header may be served by a server bound to `boundPort` on a
    /// loopback address (`loopback`) or beyond. Nil `host` (HTTP/1.0 without one) counts as allowed
    /// only where `Host` is not checked.
    func hostAllowed(_ host: String?, boundPort: Int, loopback: Bool) -> Bool {
        guard loopback || !allowedHosts.isEmpty else { return true }
        guard let host, let (name, port) = Self.parseHost(host) else { return false }
        if allowedHosts.contains(where: { $0.name == name && ($0.port == nil || $0.port == port) }) { return true }
        return Self.isLoopback(name) && (port ?? 80) == boundPort
    }

    /// `HOST` or `HOST:PORT` as in a `Host` header (`[v6]:PORT` for IPv6): the name lowercased (IPv6 in
    /// brackets) and the port, or nil when it is not one (empty, a bad port, stray characters).
    public static func parseHost(_ text: String) -> (name: String, port: Int?)? {
        let t = text.lowercased()
        var name = Substring(t), portText: Substring?
        if t.hasPrefix("[") {
            guard let close = t.firstIndex(of: "]") else { return nil }
            name = t[...close]
            let after = t[t.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = t.firstIndex(of: ":") {
            name = t[..<colon]
            portText = t[t.index(after: colon)...]
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._[]:".contains($0)) }) else { return nil }
        guard let portText else { return (String(name), nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isWholeNumber), let port = Int(portText), port <= 65535 else { return nil }
        return (String(name), port)
    }

    /// Whether `authorization` (the header's value) carries the token; always true without a token.
    /// The comparison takes the same time wherever the first difference is.
    func authorized(_ authorization: String?) -> Bool {
        guard let token else { return true }
        guard let a = authorization, a.count > 7, a.prefix(7).lowercased() == "bearer " else { return false }
        let given = Array(a.dropFirst(7).utf8)
        var difference = UInt8(truncatingIfNeeded: given.count ^ token.count)
        for i in 0..<token.count { difference |= token[i] ^ (i < given.count ? given[i] : 0) }
        return difference == 0
    }

    /// Whether a request with this `Origin` header may be served.
    func originAllowed(_ origin: String?) -> Bool {
        guard let origin else { return true }
        let o = Self.normalized(origin)
        if allowedOrigins.contains(o) { return true }
        for scheme in ["http://", "https://"] where o.hasPrefix(scheme) {
            guard let (name, _) = Self.parseHost(String(o.dropFirst(scheme.count))) else { return false }
            return Self.isLoopback(name)
        }
        return false
    }

    static func normalized(_ origin: String) -> String {
        var o = origin.lowercased()
        while o.hasSuffix("/") { o.removeLast() }
        return o
    }

    /// Whether `host` names this machine only: localhost, 127.0.0.0/8, ::1 (bracketed or not).
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if h == "localhost" || h == "::1" { return true }
        let octets = h.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// The token in `path`: the file's first line, trimmed. Refuses a file others may read (the token
    /// is a password), an empty one, and one that cannot be read, with a message saying the fix.
    public static func token(fromFile path: String) throws(HTTPServerError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HTTPServerError("cannot read the token file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw HTTPServerError("the token file \(path) is not a regular file")
        }
        guard st.st_mode & 0o077 == 0 else {
            throw HTTPServerError("the token file \(path) may be read by others (mode \(String(st.st_mode & 0o777, radix: 8))); expected only its owner; fix: chmod 600 \(path)")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 16 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: " \t\r") } ?? ""
        guard !line.isEmpty else { throw HTTPServerError("the token file \(path) is empty; expected the token on its first line (e.g. from: head -c 32 /dev/urandom | base64 > \(path))") }
        return line
    }
}
