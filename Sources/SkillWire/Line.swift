/// JSON text under construction, byte by byte, straight from C strings and numbers: the one writer
/// of frames for both sides of the wire (`frame(_:)`), and of the worker's manifest lines.
/// Not thread-safe (a value type: each builder owns its own).
public struct Line: Sendable {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The integer's decimal digits (no String in between: frames carry several numbers each).
    public mutating func number<T: BinaryInteger>(_ n: T) {
        guard let v = Int64(exactly: n) else { return bytes.append(contentsOf: String(n).utf8) }
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        let m = v.magnitude
        var scale: UInt64 = 1
        while m / scale >= 10 { scale *= 10 }
        while scale > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((m / scale) % 10))
            scale /= 10
        }
    }

    /// A non-negative amount given in hundredths ("1234" → 12.34, "1230" → 12.3, "1200" → 12), as
    /// a JSON number.
    public mutating func hundredths(_ n: Int) {
        number(n / 100)
        let fraction = abs(n % 100)
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
        if fraction % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
    }

    public mutating func bool(_ b: Bool) { b ? raw("true") : raw("false") }

    /// `"key":`, with a comma before it unless it opens the object. Assembled on the stack and
    /// appended once: each `Array.append` checks uniqueness and room, and lines are mostly keys.
    public mutating func key(_ k: StaticString) {
        let n = k.utf8CodeUnitCount
        let comma = bytes.last.map { $0 != UInt8(ascii: "{") } ?? false
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n + 4) { t in
            var i = 0
            if comma { t[0] = UInt8(ascii: ","); i = 1 }
            t[i] = UInt8(ascii: "\"")
            UnsafeMutableRawPointer(t.baseAddress! + i + 1).copyMemory(from: k.utf8Start, byteCount: n)
            i += n + 1
            t[i] = UInt8(ascii: "\"")
            t[i + 1] = UInt8(ascii: ":")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: t[0..<(i + 2)]))
        }
    }

    /// A JSON string of `u`'s bytes, escaped; runs that need no escaping are copied whole.
    public mutating func quoted(_ u: UnsafeBufferPointer<UInt8>) {
        // The usual case, short text that needs no escaping: quotes and text appended at once.
        if u.count <= 256, !u.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5c }) {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: u.count + 2) { t in
                t[0] = UInt8(ascii: "\"")
                if let base = u.baseAddress { UnsafeMutableRawPointer(t.baseAddress! + 1).copyMemory(from: base, byteCount: u.count) }
                t[u.count + 1] = UInt8(ascii: "\"")
                bytes.append(contentsOf: UnsafeBufferPointer(t))
            }
        }
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        for i in 0..<u.count {
            let c = u[i]
            guard c < 0x20 || c == 0x22 || c == 0x5c else { continue }
            if i > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[start..<i])) }
            switch c {
            case 0x22: raw("\\\"")
            case 0x5c: raw("\\\\")
            case 0x0a: raw("\\n")
            case 0x0d: raw("\\r")
            case 0x09: raw("\\t")
            default:
                let hex: StaticString = "0123456789abcdef"
                raw("\\u00")
                bytes.append(hex.utf8Start[Int(c >> 4)])
                bytes.append(hex.utf8Start[Int(c & 15)])
            }
            start = i + 1
        }
        if start < u.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[start..<u.count])) }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func quoted(_ s: String) {
        var s = s
        s.withUTF8 { quoted($0) }
    }
}
