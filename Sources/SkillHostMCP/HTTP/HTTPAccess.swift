import Glibc
import SkillHostCore

/// Who may use the HTTP endpoint: the bearer token (when one is set) and the `Origin` check against
/// DNS rebinding (a web page in a browser sends its origin; an allowed one is a loopback origin, any
/// port, or one given with `--allow-origin`). A request without `Origin` (not from a browser) passes
/// that check.
public struct HTTPAccess: Sendable {
    /// The token every request must carry as `Authorization: Bearer TOKEN`; nil: no token (then the
    /// server listens on loopback only).
    let token: [UInt8]?
    /// Origins allowed besides the loopback ones, normalized (lowercase, no trailing "/").
    let allowedOrigins: Set<String>

    public init(token: String?, allowedOrigins: [String]) {
        self.token = token.map { Array($0.utf8) }
        self.allowedOrigins = Set(allowedOrigins.map(Self.normalized))
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
            let rest = o.dropFirst(scheme.count)
            let host: Substring
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return false }
                host = rest[...close]
                let after = rest[rest.index(after: close)...]
                guard after.isEmpty || (after.hasPrefix(":") && after.dropFirst().allSatisfy(\.isNumber)) else { return false }
            } else {
                let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                host = parts[0]
                guard parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy(\.isNumber)) else { return false }
            }
            return Self.isLoopback(String(host))
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
