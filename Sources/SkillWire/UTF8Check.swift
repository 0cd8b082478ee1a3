/// Where bytes stop being UTF-8: both sides name the byte offset when a skill hands over text that is
/// not (a result, a message), instead of repairing it silently. Stateless.
public enum UTF8Check {
    /// The offset of the first byte that does not start or continue a valid UTF-8 sequence, or nil
    /// when all of `bytes` is valid UTF-8.
    public static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var it = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
