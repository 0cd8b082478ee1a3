/// JSON text under construction, byte by byte, straight from C strings and numbers: the one writer
/// of frames for both sides of the wire (`frame(_:)`), of the worker's manifest lines, and of the
/// host's text written straight from values (the scan cache's manifests, `list --json`'s members).
/// Not thread-safe (a value type: each builder owns its own).
public struct Line: Sendable {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func raw(_ s: StaticString) { JSONText.append(s, to: &bytes) }

    /// The integer's decimal digits (no String in between: frames carry several numbers each).
    /// Inlinable, so that callers get it specialized for their integer type (unspecialized, the
    /// conversion through `BinaryInteger`'s witnesses cost more than writing the digits).
    @inlinable
    public mutating func number<T: BinaryInteger>(_ n: T) {
        guard let v = Int64(exactly: n) else { return bytes.append(contentsOf: String(n).utf8) }
        JSONText.appendInteger(v, to: &bytes)
    }

    public mutating func bool(_ b: Bool) { b ? raw("true") : raw("false") }

    /// `"key":`, with a comma before it unless it opens the object, written in one piece (each
    /// `Array.append` checks uniqueness and room, and lines are mostly keys).
    public mutating func key(_ k: StaticString) {
        appendKeyed(k, room: 0) { _ in 0 }
    }

    /// `"key":` (with a comma before it unless it opens the object) and what `value` writes after it
    /// (at most `room` bytes; it returns how many), written in one piece (`JSONText.write`): how
    /// every key, and a key with its short value, goes into a line.
    @inline(__always)
    mutating func appendKeyed(_ k: StaticString, room: Int, _ value: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = bytes.last.map { $0 != UInt8(ascii: "{") } ?? false
        JSONText.write(into: &bytes, room: k.utf8CodeUnitCount + 4 + room) { p in
            let i = Self.writeKey(k, comma: comma, to: p)
            return i + value(p + i)
        }
    }

    /// The longest value `quoted` and the keyed writers (`key(_:rawJSON:)`, `key(_:quoted:)`) write in
    /// one piece (longer ones go apart: room for them would be reserved for nothing).
    static var onePieceLimit: Int { 256 }

    /// Writes `,"k":` (the comma only when `comma`) at `t`, which has room for `k`'s length + 4;
    /// returns how many bytes it wrote.
    @usableFromInline @inline(__always)
    static func writeKey(_ k: StaticString, comma: Bool, to t: UnsafeMutablePointer<UInt8>) -> Int {
        var i = 0
        if comma { t[0] = UInt8(ascii: ","); i = 1 }
        t[i] = UInt8(ascii: "\"")
        UnsafeMutableRawPointer(t + i + 1).copyMemory(from: k.utf8Start, byteCount: k.utf8CodeUnitCount)
        i += k.utf8CodeUnitCount + 1
        t[i] = UInt8(ascii: "\"")
        t[i + 1] = UInt8(ascii: ":")
        return i + 2
    }

    /// A JSON string of `u`'s bytes, escaped as `JSONText` says.
    public mutating func quoted(_ u: UnsafeBufferPointer<UInt8>) {
        // The usual case, short text that needs no escaping: quotes and text appended at once.
        if u.count <= Self.onePieceLimit, JSONText.isPlain(u) {
            return JSONText.write(into: &bytes, room: u.count + 2) { p in
                p[0] = UInt8(ascii: "\"")
                if let base = u.baseAddress { (p + 1).update(from: base, count: u.count) }
                p[u.count + 1] = UInt8(ascii: "\"")
                return u.count + 2
            }
        }
        bytes.append(UInt8(ascii: "\""))
        JSONText.append(u, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func quoted(_ s: String) {
        var s = s
        s.withUTF8 { quoted($0) }
    }

    /// `quoted(s)`, or `null` for nil.
    public mutating func quoted(orNull s: String?) {
        if let s { quoted(s) } else { raw("null") }
    }

    /// `["a","b",…]`: each string as `quoted(_:)` writes it.
    public mutating func strings(_ items: [String]) {
        raw("[")
        for (k, s) in items.enumerated() {
            if k > 0 { raw(",") }
            quoted(s)
        }
        raw("]")
    }
}
