import SkillWire

extension Frame {
    /// `body` with its length header in front (the host and the worker build frames in place: `seal`).
    static func encode(_ body: [UInt8]) -> [UInt8] {
        let h = header(body.count)
        return [h.0, h.1, h.2, h.3] + body
    }
}

/// The tests' way to feed a `FrameReader` and take frames out as copies (the host and the worker
/// read into it with `receive` and take frames in place with `withNext`).
extension FrameReader {
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        _ = receive(room: bytes.count) { room in
            bytes.withUnsafeBytes { room.copyMemory(from: $0) }
            return bytes.count
        }
    }

    /// The next complete frame's body, copied; nil if more bytes are needed.
    mutating func next() throws(FrameError) -> [UInt8]? {
        try withNext { Array($0) }
    }
}
