/// Text for a terminal, made harmless: what skills and skill folders supply (file names, ids,
/// messages, results) must not move the cursor, recolour, retitle or clear a person's terminal, nor
/// forge a line of output. The one function every human-mode printer goes through.
public enum TerminalText {
    /// `s` with every control character shown as an escape: C0 controls (`\n`, `\r`, `\t`, ESC as
    /// `\e`, others as `\xNN`), DEL, the C1 controls U+0080–U+009F (`\u{9b}` is a CSI on some
    /// terminals) and the bidirectional overrides and isolates U+202A–U+202E, U+2066–U+2069 (which
    /// reorder what a person reads) as `\u{…}`. With `keepingNewlines`, `\n` stays a line break (for
    /// text whose lines are the printer's own).
    public static func escaped(_ s: String, keepingNewlines: Bool = false) -> String {
        guard s.unicodeScalars.contains(where: { needsEscape($0, keepingNewlines) }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for c in s.unicodeScalars {
            guard needsEscape(c, keepingNewlines) else { out.unicodeScalars.append(c); continue }
            switch c.value {
            case 0x0a: out += "\\n"
            case 0x0d: out += "\\r"
            case 0x09: out += "\\t"
            case 0x1b: out += "\\e"
            case 0..<0x20, 0x7f: out += "\\x" + (c.value < 16 ? "0" : "") + String(c.value, radix: 16)
            default: out += "\\u{" + String(c.value, radix: 16) + "}"
            }
        }
        return out
    }

    private static func needsEscape(_ c: Unicode.Scalar, _ keepingNewlines: Bool) -> Bool {
        switch c.value {
        case 0x0a: return !keepingNewlines
        case 0..<0x20, 0x7f, 0x80...0x9f, 0x202a...0x202e, 0x2066...0x2069: return true
        default: return false
        }
    }
}
