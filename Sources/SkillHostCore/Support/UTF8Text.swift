import SkillWire

/// Checks on bytes that must be UTF-8 text before they become a `String` (which would silently turn
/// bad bytes into U+FFFD).
public enum UTF8Text {
    /// The offset of the first byte that does not start a valid UTF-8 sequence, or nil when all of
    /// `bytes` is valid UTF-8.
    public static func firstInvalidByte(in bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        return bytes.withUnsafeBufferPointer { UTF8Check.firstInvalidOffset($0) }
    }
}
