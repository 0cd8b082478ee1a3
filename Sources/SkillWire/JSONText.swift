/// How JSON text is written: the one rule for both sides of the wire (`Line`) and the host's JSON
/// writer (`JSON.write`). In strings, a quote, a backslash and the control bytes below 0x20 are
/// escaped (`\"`, `\\`, `\n`, `\r`, `\t`, else `\u00XX`); every other byte, UTF-8 of non-ASCII
/// characters included, is copied as it is. Integers are plain decimal digits. Stateless.
public enum JSONText {
    /// Writes up to `room` bytes straight into `out`'s spare capacity (grown first when short):
    /// `body` gets where to write and returns how many bytes it wrote (at most `room`). How every
    /// writer of JSON text appends: one room check per piece, no copy through a temporary buffer
    /// and no generic `append(contentsOf:)` (which cost twice the instructions for the short pieces
    /// lines are made of).
    @inline(__always)
    public static func write(into out: inout [UInt8], room: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        out.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { buffer, count in
                count = body(buffer.baseAddress!)
            }
        }
    }

    /// Appends `u`'s bytes escaped (without the quotes around them). Runs that need no escaping are
    /// found eight bytes at a time (`plainRun`) and copied whole.
    public static func append(_ u: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard let base = u.baseAddress, !u.isEmpty else { return }
        // Most text needs no escape: room for exactly its bytes (room for six times as many would
        // grow a full buffer for nothing). Short text with escapes: room for the longest escape of
        // every byte, in one piece. Else run by run.
        var i = plainRun(base, from: 0, count: u.count)
        if i == u.count {
            return write(into: &out, room: u.count) { p in
                p.update(from: base, count: u.count)
                return u.count
            }
        }
        if u.count <= 256 { return write(into: &out, room: 6 * u.count) { write(u, escapedTo: $0) } }
        if i > 0 { out.append(contentsOf: UnsafeBufferPointer(start: base, count: i)) }
        while i < u.count {
            let end = plainRun(base, from: i, count: u.count)
            if end > i { out.append(contentsOf: UnsafeBufferPointer(start: base + i, count: end - i)) }
            guard end < u.count else { return }
            write(into: &out, room: 6) { writeEscape(of: base[end], to: $0) }
            i = end + 1
        }
    }

    /// Writes `u`'s bytes escaped (without the quotes around them) at `to`, which has room for
    /// `6 * u.count` bytes (the longest escape, `\u00XX`, per byte), and returns how many it wrote.
    public static func write(_ u: UnsafeBufferPointer<UInt8>, escapedTo to: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = u.baseAddress else { return 0 }
        var i = 0, n = 0
        while i < u.count {
            let end = plainRun(base, from: i, count: u.count)
            if end > i { (to + n).update(from: base + i, count: end - i); n += end - i }
            guard end < u.count else { break }
            n += writeEscape(of: base[end], to: to + n)
            i = end + 1
        }
        return n
    }

    /// The index of the first byte at or after `i` (and before `count`) that needs an escape, or
    /// `count` when none does.
    @inline(__always)
    static func plainRun(_ base: UnsafePointer<UInt8>, from i: Int, count: Int) -> Int {
        var i = i
        while i + 8 <= count {
            let marks = escapeBytes(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            if marks == 0 { i += 8; continue }
            i += marks.trailingZeroBitCount >> 3
            if needsEscape(base[i]) { return i }
            i += 1
        }
        while i < count {
            if needsEscape(base[i]) { return i }
            i += 1
        }
        return count
    }

    /// True when no byte of `u` needs an escape.
    public static func isPlain(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = u.baseAddress else { return true }
        return plainRun(base, from: 0, count: u.count) == u.count
    }

    @inline(__always)
    static func needsEscape(_ c: UInt8) -> Bool { c < 0x20 || c == 0x22 || c == 0x5c }

    /// Writes the escape of one byte that needs one at `to` (room for 6 bytes); returns its length.
    @inline(__always)
    static func writeEscape(of c: UInt8, to t: UnsafeMutablePointer<UInt8>) -> Int {
        let hex: StaticString = "0123456789abcdef"
        t[0] = 0x5c
        switch c {
        case 0x22, 0x5c: t[1] = c
        case 0x0a: t[1] = UInt8(ascii: "n")
        case 0x0d: t[1] = UInt8(ascii: "r")
        case 0x09: t[1] = UInt8(ascii: "t")
        default:
            t[1] = UInt8(ascii: "u"); t[2] = UInt8(ascii: "0"); t[3] = UInt8(ascii: "0")
            t[4] = hex.utf8Start[Int(c >> 4)]; t[5] = hex.utf8Start[Int(c & 15)]
            return 6
        }
        return 2
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

    /// Appends `v`'s decimal digits (with a minus sign when negative), written in one piece: no
    /// String in between (frames and JSON trees carry numbers on every call).
    public static func appendInteger(_ v: Int64, to out: inout [UInt8]) {
        write(into: &out, room: 20) { writeInteger(v, to: $0) }  // 20: "-9223372036854775808"
    }

    /// Writes `v`'s decimal digits (with a minus sign when negative) at `to`, which has room for 20
    /// bytes; returns how many it wrote.
    public static func writeInteger(_ v: Int64, to: UnsafeMutablePointer<UInt8>) -> Int {
        var m = v.magnitude, digits = 1
        while m >= 10 { m /= 10; digits += 1 }
        let sign = v < 0 ? 1 : 0
        if sign == 1 { to[0] = UInt8(ascii: "-") }
        m = v.magnitude
        var at = sign + digits
        repeat {
            at -= 1
            to[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
            m /= 10
        } while m != 0
        return sign + digits
    }

    /// Appends a literal word (`true`, `null`, …).
    @inline(__always)
    public static func append(_ word: StaticString, to out: inout [UInt8]) {
        let n = word.utf8CodeUnitCount
        write(into: &out, room: n) { p in
            p.update(from: word.utf8Start, count: n)
            return n
        }
    }
}
