import Foundation

/// RFC 2045 Content-Transfer-Encoding and the RFC 2047 B/Q encodings of header words.
///
/// Contract: decoders are lenient and total, as mail in the wild needs: base64 skips characters outside
/// its alphabet (line breaks, spaces) and stops at padding; quoted-printable keeps a malformed `=` escape
/// as is, drops trailing whitespace of each line (RFC 2045 §6.7 rule 3) and joins soft line breaks
/// (`=` at the end of a line). Decoded quoted-printable text uses LF line breaks.
public enum TransferEncoding {
    /// Decodes a part body by its Content-Transfer-Encoding value (nil = 7bit).
    /// - Returns: the bytes, and a problem sentence for an encoding this reader does not know (the body is
    ///   then returned as is).
    public static func decode(_ body: ArraySlice<UInt8>, encoding: String?) -> (bytes: [UInt8], problem: String?) {
        let name = (encoding ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " \t\""))
        switch name {
        case "base64": return (base64(body), nil)
        case "quoted-printable": return (quotedPrintable(body), nil)
        case "", "7bit", "8bit", "binary": return (Array(body), nil)
        default: return (Array(body), "unknown Content-Transfer-Encoding \"\(name)\"; the part is shown undecoded")
        }
    }

    /// Base64 (RFC 4648 alphabet), ignoring everything outside it; stops at the first `=`.
    public static func base64<C: Collection>(_ text: C) -> [UInt8] where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var acc: UInt32 = 0, bits = 0
        for c in text {
            let v: UInt32
            switch c {
            case 65...90: v = UInt32(c - 65)
            case 97...122: v = UInt32(c - 71)
            case 48...57: v = UInt32(c + 4)
            case 43, 45: v = 62   // '+' (and '-' of the URL-safe alphabet)
            case 47, 95: v = 63   // '/' (and '_')
            case ASCII.equals: return out
            default: continue
            }
            acc = (acc << 6) | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
            }
        }
        return out
    }

    /// Quoted-printable body text (RFC 2045 §6.7).
    public static func quotedPrintable(_ body: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        let lines = body.lines()
        for (n, line) in lines.enumerated() {
            var end = line.content.upperBound
            while end > line.content.lowerBound, ASCII.isBlank(body[end - 1]) { end -= 1 }
            var soft = false
            var i = line.content.lowerBound
            while i < end {
                let b = body[i]
                if b == ASCII.equals {
                    if i + 1 == end { soft = true; break }
                    if i + 2 < end, let h = ASCII.hex(body[i + 1]), let l = ASCII.hex(body[i + 2]) {
                        out.append(h << 4 | l)
                        i += 3
                        continue
                    }
                }
                out.append(b)
                i += 1
            }
            let lastLine = n == lines.count - 1
            let hadBreak = line.next > line.content.upperBound
            if !soft && (!lastLine || hadBreak) { out.append(ASCII.lf) }
        }
        return out
    }

    /// The Q encoding of RFC 2047 encoded words: quoted-printable where `_` is a space and there are no lines.
    public static func qEncoding<C: Collection>(_ text: C) -> [UInt8] where C.Element == UInt8 {
        let b = Array(text)
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            if b[i] == 95 {
                out.append(ASCII.space)
            } else if b[i] == ASCII.equals, i + 2 < b.count, let h = ASCII.hex(b[i + 1]), let l = ASCII.hex(b[i + 2]) {
                out.append(h << 4 | l)
                i += 3
                continue
            } else {
                out.append(b[i])
            }
            i += 1
        }
        return out
    }
}
