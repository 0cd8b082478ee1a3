/// The two pieces of RFC 8259's grammar that SkillKit's JSON readers share: the check of a manifest's
/// texts (`JSONObjectCheck`) and the quick decoder's parser (`JSONTree`). Pure functions over bytes.
enum JSONGrammar {
    /// Where the number starting at `start` ends (one past its last byte), or nil if no number as
    /// the RFC writes it starts there: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    static func numberEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var at = start
        func digit() -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard digit() else { return nil }
        if bytes[at] == UInt8(ascii: "0") { at += 1 } else { while digit() { at += 1 } }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digit() else { return nil }
            while digit() { at += 1 }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digit() else { return nil }
            while digit() { at += 1 }
        }
        return at
    }

    /// The four hex digits at `at` (after a `\u`) as a UTF-16 unit, or nil.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> UInt16? {
        guard at + 4 <= bytes.count else { return nil }
        var v: UInt16 = 0
        for c in bytes[at..<(at + 4)] {
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt16(d)
        }
        return v
    }
}
