/// Whether a text is exactly one JSON object (RFC 8259), checked without building it: the manifest
/// export (`Manifest.build`) asks this of every schema and example input of every intent, and it runs
/// in `skillhost_entry`, so once per skill per scan. Foundation's `JSONSerialization` built whole
/// object trees for the same answer (a tenth of a cold scan of 200 Swift skills). What it accepts:
/// optional JSON whitespace, one object, optional JSON whitespace; strings without control
/// characters, valid escapes, `\u` surrogates only in pairs; numbers as the RFC writes them; at most
/// `maxDepth` levels of nested objects and arrays. The host checks the same texts again when it reads
/// the manifest, so this is the skill author's early warning (and what keeps a broken example input out
/// of the manifest), not the gate.
enum JSONObjectCheck {
    static let maxDepth = 512

    /// True when `text` is one JSON object, with nothing but JSON whitespace around it.
    static func isObject(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            var r = Reader(bytes: bytes)
            r.skipSpace()
            guard r.peek == UInt8(ascii: "{"), r.value(depth: 0) else { return false }
            r.skipSpace()
            return r.at == bytes.count
        }
    }

    /// `text` without the JSON whitespace (space, tab, line feed, carriage return) at either end.
    static func trimmed(_ text: String) -> String {
        let u = text.utf8
        guard let first = u.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = u.lastIndex(where: { !isSpace($0) })!
        return String(text[first...last])
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() { while let c = peek, JSONObjectCheck.isSpace(c) { at += 1 } }

        mutating func take(_ c: UInt8) -> Bool {
            guard peek == c else { return false }
            at += 1
            return true
        }

        mutating func value(depth: Int) -> Bool {
            skipSpace()
            guard let c = peek else { return false }
            switch c {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return word("true")
            case UInt8(ascii: "f"): return word("false")
            case UInt8(ascii: "n"): return word("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        mutating func object(depth: Int) -> Bool {
            guard depth <= JSONObjectCheck.maxDepth else { return false }
            at += 1  // {
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\""), string() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")), value(depth: depth) else { return false }
                skipSpace()
                if take(UInt8(ascii: "}")) { return true }
                guard take(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func array(depth: Int) -> Bool {
            guard depth <= JSONObjectCheck.maxDepth else { return false }
            at += 1  // [
            skipSpace()
            if take(UInt8(ascii: "]")) { return true }
            while true {
                guard value(depth: depth) else { return false }
                skipSpace()
                if take(UInt8(ascii: "]")) { return true }
                guard take(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func word(_ w: StaticString) -> Bool {
            let n = w.utf8CodeUnitCount
            guard at + n <= bytes.count else { return false }
            for k in 0..<n where bytes[at + k] != w.utf8Start[k] { return false }
            at += n
            return true
        }

        mutating func number() -> Bool {
            guard let end = JSONGrammar.numberEnd(bytes, from: at) else { return false }
            at = end
            return true
        }

        /// Four hex digits after `\u`, as a number.
        mutating func hex4() -> UInt16? {
            guard let v = JSONGrammar.hex4(bytes, at: at) else { return nil }
            at += 4
            return v
        }

        mutating func string() -> Bool {
            at += 1  // "
            while let c = peek {
                at += 1
                switch c {
                case UInt8(ascii: "\""): return true
                case 0..<0x20: return false
                case UInt8(ascii: "\\"):
                    guard let e = peek else { return false }
                    at += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        guard let u = hex4() else { return false }
                        if u >= 0xDC00 && u <= 0xDFFF { return false }  // a low surrogate alone
                        if u >= 0xD800 && u <= 0xDBFF {
                            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
                                  low >= 0xDC00 && low <= 0xDFFF else { return false }
                        }
                    default:
                        return false
                    }
                default:
                    continue
                }
            }
            return false
        }
    }
}
