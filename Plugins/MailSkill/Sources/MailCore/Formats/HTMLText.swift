import Foundation

/// Plain text from an HTML body, for summaries and to-dos when a message has no text/plain part.
///
/// Contract: the content of `<head>`, `<script>` and `<style>` is dropped; block ends (`</p>`, `<br>`,
/// `</div>`, `</li>`, `</tr>`, `</h1>`…`</h6>`) become line breaks; other tags vanish; the common named
/// entities and numeric ones (`&#39;`, `&#x2014;`) are decoded; runs of blanks collapse to one space.
/// Not an HTML parser: good enough for reading, never for rendering.
public enum HTMLText {
    public static func plain(_ html: String) -> String {
        var out = ""
        var i = html.startIndex
        var skipUntil: String?
        while i < html.endIndex {
            let c = html[i]
            guard c == "<" else {
                if skipUntil == nil { out.append(c) }
                i = html.index(after: i)
                continue
            }
            guard let close = html[i...].firstIndex(of: ">") else {
                if skipUntil == nil { out += html[i...] }   // no tag can close any more
                break
            }
            let tag = html[html.index(after: i)..<close].lowercased()
            let name = String(tag.prefix { $0.isLetter || $0.isNumber || $0 == "/" })
            if let end = skipUntil {
                if name == end { skipUntil = nil }
            } else if ["head", "script", "style"].contains(name) {
                skipUntil = "/" + name
            } else if ["br", "br/", "/p", "/div", "/li", "/tr", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6", "/table"].contains(name) {
                out.append("\n")
            }
            i = html.index(after: close)
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false)
            .map { decodeEntities(String($0)).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{A0}" }).joined(separator: " ") }
            .joined(separator: "\n")
    }

    static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
                                          "mdash": "—", "ndash": "–", "hellip": "…", "rsquo": "’", "lsquo": "‘",
                                          "rdquo": "”", "ldquo": "“", "euro": "€", "yen": "¥", "copy": "©"]

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == "&", let semi = s[i...].prefix(12).firstIndex(of: ";") {
                let entity = s[s.index(after: i)..<semi]
                var replacement: String?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    replacement = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if entity.hasPrefix("#") {
                    replacement = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    replacement = named[entity.lowercased()]
                }
                if let replacement {
                    out += replacement
                    i = s.index(after: semi)
                    continue
                }
            }
            out.append(s[i])
            i = s.index(after: i)
        }
        return out
    }
}
