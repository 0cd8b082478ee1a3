import Glibc

/// Path arithmetic on strings (the host links FoundationEssentials only, which has no NSString paths).
public enum PathText {
    /// `p` made absolute (against the current directory) with `.`, `..` and repeated slashes resolved
    /// lexically (symlinks are not followed).
    public static func absolute(_ p: String) -> String {
        let full = p.hasPrefix("/") ? p : currentDirectory() + "/" + p
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Everything before the last slash ("/" for a file in the root, "." for a bare name).
    public static func directory(of p: String) -> String {
        guard let slash = p.lastIndex(of: "/") else { return "." }
        let d = String(p[..<slash])
        return d.isEmpty ? "/" : d
    }

    /// Everything after the last slash.
    public static func fileName(of p: String) -> String {
        guard let slash = p.lastIndex(of: "/") else { return p }
        return String(p[p.index(after: slash)...])
    }

    public static func currentDirectory() -> String {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buf, buf.count) != nil else { return "/" }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The current user's home directory from the password database (when $HOME is not set).
    public static func homeDirectory() -> String {
        if let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }
}

/// Writes `text` to standard error in one write(2) (lines from several threads do not interleave).
public func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { _ = StateFile.writeAll(2, UnsafeRawBufferPointer($0)) }
}
