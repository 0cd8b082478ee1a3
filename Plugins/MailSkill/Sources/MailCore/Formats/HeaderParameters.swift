import Foundation

/// A structured header value such as `Content-Type: text/plain; charset="gbk"` or
/// `Content-Disposition: attachment; filename*=UTF-8''%E5%8F%91%E7%A5%A8.pdf` (RFC 2045 §5.1, RFC 2231).
///
/// Contract: `value` is the part before the first `;`, lowercased and trimmed. Parameter names are
/// lowercased; values are unquoted (backslash escapes removed). RFC 2231 continuations (`name*0`,
/// `name*1`, …) are joined in order, and extended values (`name*=charset'lang'%XX…`) are percent-decoded
/// and charset-decoded. Semicolons inside quoted strings do not split. Malformed pieces are ignored.
public struct HeaderParameters: Sendable, Equatable {
    public let value: String
    public let parameters: [String: String]

    public subscript(_ name: String) -> String? { parameters[name.lowercased()] }

    public init(_ raw: String) {
        let segments = Self.split(raw)
        value = (segments.first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        var plain: [String: String] = [:]
        var sections: [String: [(index: Int, encoded: Bool, text: String)]] = [:]
        for segment in segments.dropFirst() {
            guard let eq = segment.firstIndex(of: "=") else { continue }
            var name = segment[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            let text = Self.unquote(segment[segment.index(after: eq)...].trimmingCharacters(in: .whitespaces))
            guard !name.isEmpty else { continue }
            guard name.contains("*") else { plain[name] = text; continue }
            var encoded = false
            if name.hasSuffix("*") { encoded = true; name.removeLast() }
            var index = 0
            if let star = name.firstIndex(of: "*") {
                index = Int(name[name.index(after: star)...]) ?? 0
                name = String(name[..<star])
            }
            sections[name, default: []].append((index, encoded, text))
        }
        for (name, parts) in sections {
            plain[name] = Self.extended(parts.sorted { $0.index < $1.index })
        }
        parameters = plain
    }

    /// Joins RFC 2231 sections; the first encoded section names the charset (`utf-8'en'…`).
    private static func extended(_ parts: [(index: Int, encoded: Bool, text: String)]) -> String {
        var charset: String?
        var bytes: [UInt8] = []
        for (n, part) in parts.enumerated() {
            var text = Substring(part.text)
            if part.encoded && n == 0 {
                let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3 { charset = String(pieces[0]); text = pieces[2] }
            }
            bytes += part.encoded ? percentDecoded(text) : Array(text.utf8)
        }
        return Charsets.decode(bytes, charset: charset ?? "utf-8").text
    }

    private static func percentDecoded(_ s: Substring) -> [UInt8] {
        let b = Array(s.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            if b[i] == 37, i + 2 < b.count, let h = ASCII.hex(b[i + 1]), let l = ASCII.hex(b[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return out
    }

    /// Splits on `;` outside double quotes.
    private static func split(_ raw: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false, escaped = false
        for c in raw {
            if escaped { current.append(c); escaped = false; continue }
            if c == "\\" && quoted { current.append(c); escaped = true; continue }
            if c == "\"" { quoted.toggle() }
            if c == ";" && !quoted { out.append(current); current = ""; continue }
            current.append(c)
        }
        out.append(current)
        return out
    }

    /// `"a \"b\""` → `a "b"`; an unquoted value is returned as is.
    static func unquote(_ s: String) -> String {
        guard s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") else { return s }
        var out = ""
        var escaped = false
        for c in s.dropFirst().dropLast() {
            if escaped { out.append(c); escaped = false } else if c == "\\" { escaped = true } else { out.append(c) }
        }
        return out
    }
}
