// The host ↔ worker wire protocol, shared by SkillHostCore (the host side) and skillhost-worker.
// Pure Swift: no Foundation, so the worker stays small and fast to start.

/// Constants of the protocol between the host and `skillhost-worker serve`.
///
/// A frame is a 4-byte big-endian length N followed by N bytes: one UTF-8 JSON object with an `"op"`
/// member. The worker's first frame is `hello` (carrying `protocol`), or `load_failed`. Frames of
/// length 0 or larger than `maxFrameBytes` are protocol errors.
public enum WireProtocol {
    /// The version this build speaks. A host refuses a worker that says hello with another one.
    /// (2: the channel is two pipes, `workerSendFD` and `workerReceiveFD`, instead of one socketpair.)
    public static let version = 2
    /// The largest frame body either side accepts (64 MiB): a bigger announced length means the
    /// stream is not this protocol (for example, a skill wrote to file descriptor 3).
    public static let maxFrameBytes = 64 << 20
    /// The worker's channel is two pipes, one per direction: a pipe's reader asleep in `read` is woken
    /// only by data (or the last writer's close), whereas a socket's is also woken each time the peer
    /// reads what this side sent (the kernel wakes the socket's sleepers when send space frees up).
    /// With pipes, each side blocks in `read` with no `poll` before it, and a round trip costs about
    /// half what a socketpair's does (measured on this project's machines).
    ///
    /// The file descriptor the worker writes its frames to (the write end of the host's reply pipe).
    public static let workerSendFD: Int32 = 3
    /// The file descriptor the worker reads the host's frames from (the read end of the request pipe).
    public static let workerReceiveFD: Int32 = 4
    /// The file descriptor the worker finds its checked skill file on.
    public static let workerSkillFD: Int32 = 5
}

/// Why bytes could not be read as frames.
public struct FrameError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Encodes frames.
public enum Frame {
    /// The 4-byte big-endian length header of a body of `count` bytes.
    @inlinable
    public static func header(_ count: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let n = UInt32(truncatingIfNeeded: count)
        return (UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff))
    }

    /// Turns a body that was built after 4 placeholder bytes into a frame in place: writes the
    /// length of `bytes[4...]` into `bytes[0..<4]`. Saves a copy on hot paths.
    public static func sealInPlace(_ bytes: inout [UInt8]) {
        precondition(bytes.count >= 4, "a frame needs its 4 header bytes")
        let h = header(bytes.count - 4)
        // Through one pointer: four subscripts checked the buffer's uniqueness four times.
        bytes.withUnsafeMutableBufferPointer { b in b[0] = h.0; b[1] = h.1; b[2] = h.2; b[3] = h.3 }
    }
}

/// An incremental frame decoder: append bytes as they arrive from a stream, take whole frames out.
///
/// Not thread-safe (one reader owns it). Once `withNext` has thrown, the stream is broken for good:
/// every later call throws the same error.
public struct FrameReader: Sendable {
    /// Received bytes in `0..<end`, room for more after them (`receive` reads straight into it).
    @usableFromInline var buffer: [UInt8] = []
    /// Where the unread bytes start in `buffer`.
    private var start = 0
    /// Where the received bytes end in `buffer`.
    private var end = 0
    private var broken: FrameError?
    public let maxFrameBytes: Int

    public init(maxFrameBytes: Int = WireProtocol.maxFrameBytes) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// Bytes received but not yet returned as a frame.
    public var bufferedByteCount: Int { end - start }

    /// Receives bytes straight into the buffer (no copy through a chunk of the caller's): calls `fill`
    /// with at least `room` free bytes after those received, for it to write the next bytes of the
    /// stream into (a `read(2)`); `fill` returns how many it wrote (at most the room's count), or 0
    /// or less for none, and `receive` returns what `fill` returned. Frames read before are moved
    /// out of the way first: the unread bytes go to the front of the buffer when there is no room
    /// after them, so the buffer holds at most one partial frame plus `room` bytes.
    public mutating func receive(room: Int = 65536, _ fill: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        if start == end {
            (start, end) = (0, 0)
        } else if buffer.count - end < room && start > 0 {
            let unread = end - start
            buffer.withUnsafeMutableBytes { b in b.baseAddress!.copyMemory(from: b.baseAddress! + start, byteCount: unread) }
            (start, end) = (0, unread)
        }
        if buffer.count - end < room {
            buffer.append(contentsOf: repeatElement(0, count: end + room - buffer.count))
        }
        let n = buffer.withUnsafeMutableBytes { b in fill(UnsafeMutableRawBufferPointer(rebasing: b[end...])) }
        if n > 0 { end += min(n, buffer.count - end) }
        return n
    }

    /// Calls `body` with the next complete frame's body, in place (no copy: the bytes are valid only
    /// during the call, and `body` must not keep them), and returns what it returns; nil if more
    /// bytes are needed. Throws when the stream announces an empty or oversized frame. Inlinable,
    /// so that it is specialized for the caller's `R` (unspecialized, its optional result went
    /// through value witnesses).
    @inlinable
    public mutating func withNext<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) throws(FrameError) -> R? {
        guard let range = try nextBody() else { return nil }
        return buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Where the next complete frame's body is in `buffer` (and steps past it), nil if more bytes are
    /// needed.
    @usableFromInline
    mutating func nextBody() throws(FrameError) -> Range<Int>? {
        if let broken { throw broken }
        let available = end - start
        guard available >= 4 else { return nil }
        let n = Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
        guard n > 0 else {
            let e = FrameError("an empty frame (length 0)")
            broken = e
            throw e
        }
        guard n <= maxFrameBytes else {
            let e = FrameError("a frame of \(n) bytes was announced (bytes \(Self.hex(buffer[start..<start + 4]))); the limit is \(maxFrameBytes)")
            broken = e
            throw e
        }
        guard available >= 4 + n else { return nil }
        defer { start += 4 + n }
        return (start + 4)..<(start + 4 + n)
    }

    /// The first bytes still buffered, for error messages ("what did it send?").
    public func preview(_ count: Int = 48) -> [UInt8] { Array(buffer[start..<min(end, start + count)]) }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined(separator: " ")
    }
}
