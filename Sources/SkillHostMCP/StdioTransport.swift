import Glibc
import SkillHostCore
import Synchronization

/// MCP's stdio transport: newline-delimited messages read from fd 0 by blocking reads on a thread of
/// its own (no polling, no sleeps: a message is handled as soon as its line is complete), written to
/// the host's real stdout (`ProtectedOutput`, so skill output never reaches the protocol stream) one
/// whole line at a time under a lock.
final class StdioTransport: Sendable {
    /// Longest line accepted; a longer one is answered with an error and skipped to its newline.
    let maxLine: Int
    private let writeLock = Mutex(())

    init(maxLine: Int = 64 << 20) { self.maxLine = maxLine }

    /// Sends one message (a line).
    func send(_ message: JSON) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        message.write(to: &bytes)
        bytes.append(0x0a)
        writeLock.withLock { _ in ProtectedOutput.write(bytes: bytes) }
    }

    /// Reads lines from fd 0 until end of file, calling `line` for each (without its newline, CR
    /// stripped; `more`: another whole line has already been read after it) or `tooLong` for one over
    /// `maxLine`, then returns. Blocks the calling thread.
    func readLines(_ line: (_ bytes: [UInt8], _ more: Bool) -> Void, tooLong: () -> Void) {
        var buffer: [UInt8] = []
        var skipping = false
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            var start = 0
            chunk.withUnsafeBufferPointer { c in
                var last = n - 1
                while last >= 0 && c[last] != 0x0a { last -= 1 }
                for i in 0..<n where c[i] == 0x0a {
                    if skipping {
                        skipping = false
                    } else {
                        buffer.append(contentsOf: c[start..<i])
                        if buffer.last == 0x0d { buffer.removeLast() }
                        if !buffer.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { line(buffer, i < last) }
                    }
                    buffer.removeAll(keepingCapacity: buffer.count < 1 << 20)
                    start = i + 1
                }
                if !skipping { buffer.append(contentsOf: c[start..<n]) }
            }
            if !skipping && buffer.count > maxLine {
                buffer = []
                skipping = true
                tooLong()
            }
        }
        if !skipping && !buffer.isEmpty { line(buffer, false) }
    }
}
