/// Where bytes stop being UTF-8: both sides name the byte offset when a skill hands over text that is
/// not (a result, a message), instead of repairing it silently. Stateless.
public enum UTF8Check {
    /// The offset of the first byte that does not start or continue a valid UTF-8 sequence (the start
    /// of the first ill-formed sequence), or nil when all of `bytes` is valid UTF-8 (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF).
    ///
    /// ASCII runs are skipped eight bytes at a time; every other sequence is checked byte by byte.
    /// (The standard library's scalar parser took ~20 instructions a byte, checked on every
    /// in-process call's result.)
    public static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let p = bytes.baseAddress else { return nil }
        let n = bytes.count
        var i = 0
        while i < n {
            while i + 8 <= n, UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
            guard i < n else { return nil }
            let c = p[i]
            if c < 0x80 { i += 1; continue }
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; second = 0xA0...0xBF  // no overlong forms
            case 0xED: length = 3; second = 0x80...0x9F  // no surrogates
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; second = 0x90...0xBF  // no overlong forms
            case 0xF4: length = 4; second = 0x80...0x8F  // nothing above U+10FFFF
            case 0xF1...0xF3: length = 4
            default: return i  // a continuation byte, C0/C1, or F5 and above
            }
            guard i + length <= n, second.contains(p[i + 1]) else { return i }
            for k in 2..<length where p[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }
}
