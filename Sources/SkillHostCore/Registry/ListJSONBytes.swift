import SkillWire

/// Small byte writers for `list --json`, which writes each skill's members straight into one buffer
/// (no JSON tree per skill), over SkillWire's `JSONText` (the one rule for JSON text). Each writes exactly what `JSON.write` writes for the same value; the
/// tests compare the output with the tree writer's text byte for byte.
enum ListJSONBytes {
    /// The literal's bytes as they are: JSON text the caller wrote out, such as `,"key":` (one
    /// append per member name, not one per byte).
    static func raw(_ text: StaticString, to out: inout [UInt8]) { JSONText.append(text, to: &out) }

    /// `["a","b",…]`
    static func strings(_ items: [String], to out: inout [UInt8]) {
        out.append(0x5b)
        for (k, s) in items.enumerated() {
            if k > 0 { out.append(0x2c) }
            JSON.writeString(s, to: &out)
        }
        out.append(0x5d)
    }

    static func bool(_ b: Bool, to out: inout [UInt8]) { raw(b ? "true" : "false", to: &out) }

    /// `"text"`, or `null` for nil.
    static func string(_ s: String?, to out: inout [UInt8]) {
        if let s { JSON.writeString(s, to: &out) } else { raw("null", to: &out) }
    }

    static func int(_ n: Int, to out: inout [UInt8]) { JSONText.appendInteger(Int64(n), to: &out) }
}
