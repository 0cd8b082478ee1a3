extension JSON {
    /// Compact JSON text (no spaces), members in their stored order. Strings are escaped per RFC 8259;
    /// non-ASCII characters are written as UTF-8, not escaped.
    public var serialized: String {
        var out = ""
        out.reserveCapacity(64)
        write(to: &out)
        return out
    }

    /// Indented JSON text for people (two spaces).
    public var pretty: String {
        var out = ""
        writePretty(to: &out, indent: 0)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSON.format(d)
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let a):
            out += "["
            for (k, v) in a.enumerated() {
                if k > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (k, m) in o.members.enumerated() {
                if k > 0 { out += "," }
                JSON.writeString(m.key, to: &out)
                out += ":"
                m.value.write(to: &out)
            }
            out += "}"
        }
    }

    func writePretty(to out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let end = String(repeating: "  ", count: indent)
        switch self {
        case .array(let a) where !a.isEmpty:
            out += "[\n"
            for (k, v) in a.enumerated() {
                out += pad
                v.writePretty(to: &out, indent: indent + 1)
                out += k == a.count - 1 ? "\n" : ",\n"
            }
            out += end + "]"
        case .object(let o) where o.count > 0:
            out += "{\n"
            for (k, m) in o.members.enumerated() {
                out += pad
                JSON.writeString(m.key, to: &out)
                out += ": "
                m.value.writePretty(to: &out, indent: indent + 1)
                out += k == o.count - 1 ? "\n" : ",\n"
            }
            out += end + "}"
        default:
            write(to: &out)
        }
    }

    static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        var needsEscape = false
        for u in s.utf8 where u < 0x20 || u == 0x22 || u == 0x5c { needsEscape = true; break }
        if !needsEscape {
            out += s
        } else {
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if u.value < 0x20 {
                        let h = String(u.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                    } else {
                        out.unicodeScalars.append(u)
                    }
                }
            }
        }
        out += "\""
    }

    /// `s` as a JSON string literal, quotes included.
    public static func quote(_ s: String) -> String {
        var out = ""
        writeString(s, to: &out)
        return out
    }
}
