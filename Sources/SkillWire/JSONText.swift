/// How JSON text is written: the one rule for both sides of the wire (`Line`) and the host's JSON
/// writer (`JSON.write`). In strings, a quote, a backslash and the control bytes below 0x20 are
/// escaped (`\"`, `\\`, `\n`, `\r`, `\t`, else `\u00XX`); every other byte, UTF-8 of non-ASCII
/// characters included, is copied as it is. Integers are plain decimal digits. Stateless.
public enum JSONText {
    /// Appends `u`'s bytes escaped (without the quotes around them). Runs that need no escaping are
    /// found eight bytes at a time and copied whole.
    public static func append(_ u: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard let base = u.baseAddress else { return }
        var start = 0, i = 0
        while i < u.count {
            if i + 8 <= u.count {
                let marks = escapeBytes(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                if marks == 0 { i += 8; continue }
                i += marks.trailingZeroBitCount >> 3
            }
            let c = u[i]
            guard c < 0x20 || c == 0x22 || c == 0x5c else { i += 1; continue }
            if i > start { out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start)) }
            appendEscape(of: c, to: &out)
            i += 1
            start = i
        }
        if start < u.count { out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: u.count - start)) }
    }

    /// True when no byte of `u` needs an escape.
    public static func isPlain(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = u.baseAddress else { return true }
        var i = 0
        while i + 8 <= u.count {
            if escapeBytes(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) != 0 { return false }
            i += 8
        }
        while i < u.count {
            let c = u[i]
            if c < 0x20 || c == 0x22 || c == 0x5c { return false }
            i += 1
        }
        return true
    }

    /// The escape of one byte that needs one.
    @inline(__always)
    static func appendEscape(of c: UInt8, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        switch c {
        case 0x22: out.append(0x5c); out.append(0x22)
        case 0x5c: out.append(0x5c); out.append(0x5c)
        case 0x0a: out.append(0x5c); out.append(UInt8(ascii: "n"))
        case 0x0d: out.append(0x5c); out.append(UInt8(ascii: "r"))
        case 0x09: out.append(0x5c); out.append(UInt8(ascii: "t"))
        default:
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { t in
                t[0] = 0x5c; t[1] = UInt8(ascii: "u"); t[2] = UInt8(ascii: "0"); t[3] = UInt8(ascii: "0")
                t[4] = hex.utf8Start[Int(c >> 4)]; t[5] = hex.utf8Start[Int(c & 15)]
                out.append(contentsOf: UnsafeBufferPointer(t))
            }
        }
    }

    /// The top bit of each byte of `w` (little-endian: the first byte is the lowest) that is `"`, `\`
    /// or below 0x20, at least for the first such byte; bytes above 0x7f are never marked (UTF-8 is
    /// written as it is). SWAR, as `JSONScan.specialBytes`: a byte that is zero after the xor, or below
    /// the bound, borrows into its top bit; a borrow only marks bytes above a marked one, so the lowest
    /// mark is always right, and the word is zero only when no byte needs an escape.
    @inline(__always)
    static func escapeBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5c)
        return (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w)) & tops
    }

    /// Appends `v`'s decimal digits (with a minus sign when negative), assembled on the stack and
    /// appended once: no String in between (frames and JSON trees carry numbers on every call).
    public static func appendInteger(_ v: Int64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { t in
            var m = v.magnitude, at = 20
            repeat {
                at -= 1
                t[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
                m /= 10
            } while m != 0
            if v < 0 { at -= 1; t[at] = UInt8(ascii: "-") }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: t[at..<20]))
        }
    }

    /// Appends a literal word (`true`, `null`, …).
    @inline(__always)
    public static func append(_ word: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }
}
