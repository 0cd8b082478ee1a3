import SkillWire

extension JSON {
    /// Compact JSON text (no spaces), members in their stored order. Strings are escaped per RFC 8259;
    /// non-ASCII characters are written as UTF-8, not escaped.
    public var serialized: String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented JSON text for people (two spaces).
    public var pretty: String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writePretty(to: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact JSON text as UTF-8 bytes (the fast path: no intermediate Strings).
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: JSONText.append("null", to: &out)
        case .bool(let b): JSONText.append(b ? "true" : "false", to: &out)
        case .int(let i): JSONText.appendInteger(i, to: &out)
        case .double(let d): out.append(contentsOf: JSON.format(d).utf8)
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let a):
            out.append(0x5b)
            for k in a.indices {
                if k > 0 { out.append(0x2c) }
                a[k].write(to: &out)
            }
            out.append(0x5d)
        case .object(let o):
            out.append(0x7b)
            o.members.withUnsafeBufferPointer { ms in
                for k in ms.indices {
                    if k > 0 { out.append(0x2c) }
                    JSON.writeString(ms[k].key, to: &out)
                    out.append(0x3a)
                    ms[k].value.write(to: &out)
                }
            }
            out.append(0x7d)
        }
    }

    func writePretty(to out: inout [UInt8], indent: Int) {
        func pad(_ n: Int) { out.append(contentsOf: repeatElement(0x20, count: 2 * n)) }
        switch self {
        case .array(let a) where !a.isEmpty:
            out.append(contentsOf: [0x5b, 0x0a])
            for (k, v) in a.enumerated() {
                pad(indent + 1)
                v.writePretty(to: &out, indent: indent + 1)
                if k < a.count - 1 { out.append(0x2c) }
                out.append(0x0a)
            }
            pad(indent)
            out.append(0x5d)
        case .object(let o) where o.count > 0:
            out.append(contentsOf: [0x7b, 0x0a])
            for (k, m) in o.members.enumerated() {
                pad(indent + 1)
                JSON.writeString(m.key, to: &out)
                out.append(contentsOf: [0x3a, 0x20])
                m.value.writePretty(to: &out, indent: indent + 1)
                if k < o.count - 1 { out.append(0x2c) }
                out.append(0x0a)
            }
            pad(indent)
            out.append(0x7d)
        default:
            write(to: &out)
        }
    }

    static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// Appends `s` as a quoted JSON string, escaped as `JSONText` says (SkillWire: the one rule
    /// for both sides of the wire).
    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        // Native strings are contiguous; a bridged one is copied once by the fallback.
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { u in JSONText.append(u, to: &out) }
        if done == nil { Array(s.utf8).withUnsafeBufferPointer { JSONText.append($0, to: &out) } }
        out.append(0x22)
    }

    /// `s` as a JSON string literal, quotes included.
    public static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        writeString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
