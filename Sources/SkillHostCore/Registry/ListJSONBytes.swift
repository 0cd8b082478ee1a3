/// Small byte writers for `list --json`, which writes each skill's members straight into one buffer
/// (no JSON tree per skill). Each writes exactly what `JSON.write` writes for the same value; the
/// tests compare the output with the tree writer's text byte for byte.
enum ListJSONBytes {
    /// `,"key":`, or `{"key":` for the first member (the key is a literal without characters to escape).
    static func key(_ key: StaticString, first: Bool = false, to out: inout [UInt8]) {
        out.append(contentsOf: [first ? 0x7b : 0x2c, 0x22])
        out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        out.append(contentsOf: [0x22, 0x3a])
    }

    /// `["a","b",…]`
    static func strings(_ items: [String], to out: inout [UInt8]) {
        out.append(0x5b)
        for (k, s) in items.enumerated() {
            if k > 0 { out.append(0x2c) }
            JSON.writeString(s, to: &out)
        }
        out.append(0x5d)
    }

    static func bool(_ b: Bool, to out: inout [UInt8]) { out.append(contentsOf: (b ? "true" : "false").utf8) }

    static func int(_ n: Int, to out: inout [UInt8]) { out.append(contentsOf: String(n).utf8) }
}
