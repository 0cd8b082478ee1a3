import Dispatch
import Glibc
import SkillHostCore
import SkillWire
import Synchronization

/// MCP's stdio transport: newline-delimited messages read from fd 0 by blocking reads on a thread of
/// its own (no polling, no sleeps: a message is handled as soon as its line is complete), written to
/// the host's real stdout (`ProtectedOutput`, so skill output never reaches the protocol stream) one
/// whole line at a time, in the order they were sent.
///
/// Answers are written by whichever thread finishes a call — the reader itself for a call that
/// completes at once, a worker channel's reader for a call its reply resumed (`InlineJobs`) — and
/// none of them may block on stdout: a client that stops reading while it still writes requests would
/// deadlock with the stdin reader, and a worker's reader would stop reading that worker's replies. So
/// a line is written only while the pipe has room (`poll` says writable; at most `PIPE_BUF` bytes a
/// `write`, which then cannot block); what does not fit goes to a writer thread of its own, which may
/// block, and lines sent meanwhile queue behind it.
final class StdioTransport: Sendable {
    /// Longest line accepted; a longer one is answered with an error and skipped to its newline.
    let maxLine: Int

    private struct Output {
        /// A thread is writing (lines sent meanwhile wait in `queue`).
        var writing = false
        var queue: [[UInt8]] = []
    }
    private let output = Mutex(Output())

    init(maxLine: Int = 64 << 20) { self.maxLine = maxLine }

    /// Sends one message (a line), from any thread; never blocks on a client slow to read.
    func send(_ message: JSON) { send(RPCMessage(message)) }

    /// Sends one message already written as JSON text (a line: the newline is added).
    func send(_ message: RPCMessage) {
        var bytes = message.bytes
        bytes.append(0x0a)
        let writer = output.withLock { o -> Bool in
            o.queue.append(bytes)
            if o.writing { return false }
            o.writing = true
            return true
        }
        if writer { drain(mayBlock: false) }
    }

    /// Writes the queued lines in order until none is left (the caller is the one writer). When it
    /// must not block (any thread but the writer thread), the rest of a line that does not fit now, and
    /// every line after it, go to a writer thread.
    private func drain(mayBlock: Bool) {
        while true {
            let lines = output.withLock { o -> [[UInt8]] in
                let lines = o.queue
                o.queue = []
                if lines.isEmpty { o.writing = false }
                return lines
            }
            if lines.isEmpty { return }
            for k in lines.indices {
                if mayBlock {
                    ProtectedOutput.write(bytes: lines[k])
                    continue
                }
                let written = Self.writeWhileRoom(lines[k])
                if written < lines[k].count {
                    let rest = [Array(lines[k][written...])] + lines[(k + 1)...]
                    output.withLock { $0.queue = rest + $0.queue }
                    if !startDetachedThread({ self.drain(mayBlock: true) }) { drain(mayBlock: true) }
                    return
                }
            }
        }
    }

    /// Waits until every line sent so far is written, or `seconds` passed (a client that stopped
    /// reading): before the process exits.
    func flush(within seconds: Double) {
        let end = MCPSession.monotonicSeconds() + seconds
        while output.withLock({ $0.writing || !$0.queue.isEmpty }) && MCPSession.monotonicSeconds() < end {
            usleep(1_000)
        }
    }

    /// Writes `line` to stdout while it has room, never blocking; returns how many bytes went out (all
    /// of them too when stdout is gone: the line is dropped, as `ProtectedOutput.write` drops it).
    private static func writeWhileRoom(_ line: [UInt8]) -> Int {
        let fd = ProtectedOutput.descriptor
        var sent = 0
        while sent < line.count {
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&p, 1, 0)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || p.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return line.count }
            if ready == 0 { return sent }
            let n = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + sent, min(line.count - sent, Int(PIPE_BUF))) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return line.count }
            sent += n
        }
        return sent
    }

    /// Reads lines from fd 0 until end of file, calling `line` for each (without its newline, CR
    /// stripped; `more`: another whole line has already been read after it) or `tooLong` for one over
    /// `maxLine`, then returns. Blocks the calling thread until the input ends, even when a line's
    /// work holds the thread reading: another thread then carries on reading (`ReaderRelay`).
    func readLines(_ line: @escaping @Sendable (_ bytes: [UInt8], _ more: Bool) -> Void, tooLong: @escaping @Sendable () -> Void) {
        let reader = LineReader(maxLine: maxLine, line: line, tooLong: tooLong)
        if !reader.read() { reader.ended.wait() }
    }
}

/// `StdioTransport.readLines`' state: the lines read and not yet handled, and the start of the next.
/// Used by one reader thread at a time; a reader held by a line's work hands it on through
/// `ReaderRelay` (whose lock orders the old reader's writes before the new one's reads), and the
/// reader that sees the end of the input signals `ended`.
private final class LineReader: @unchecked Sendable {
    let ended = DispatchSemaphore(value: 0)
    private let maxLine: Int
    private let line: @Sendable (_ bytes: [UInt8], _ more: Bool) -> Void
    private let tooLong: @Sendable () -> Void
    /// Lines read and not yet handled (nil: one was too long), from `next` on.
    private var lines: [[UInt8]?] = []
    private var next = 0
    /// The start of a line whose newline has not come yet.
    private var partial: [UInt8] = []
    /// Skipping the rest of a line over `maxLine`, up to its newline.
    private var skipping = false
    private var atEnd = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(maxLine: Int, line: @escaping @Sendable ([UInt8], Bool) -> Void, tooLong: @escaping @Sendable () -> Void) {
        (self.maxLine, self.line, self.tooLong) = (maxLine, line, tooLong)
    }

    /// Handles lines and reads more until the input ends (true) or another thread took over (false).
    func read() -> Bool {
        while true {
            while next < lines.count {
                let item = lines[next]
                next += 1
                guard let bytes = item else { tooLong(); continue }
                let more = next < lines.count
                let stillReading = ReaderRelay.shared.run({ line(bytes, more) }, takeOver: { [self] in
                    if read() { ended.signal() }
                })
                if !stillReading { return false }
            }
            lines.removeAll(keepingCapacity: true)
            next = 0
            if atEnd { return true }
            fill()
        }
    }

    /// Blocks until fd 0 has more bytes and splits them into `lines`; at the end of the input, the
    /// last line without a newline is one too.
    private func fill() {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { return }
        if n <= 0 {
            atEnd = true
            if !skipping && !partial.isEmpty { lines.append(partial) }
            return
        }
        var start = 0
        chunk.withUnsafeBufferPointer { c in
            for i in 0..<n where c[i] == 0x0a {
                if skipping {
                    skipping = false
                } else {
                    var whole: [UInt8]
                    if partial.isEmpty {
                        whole = Array(c[start..<i])
                    } else {
                        partial.append(contentsOf: c[start..<i])
                        whole = Array(partial[...])
                        partial.removeAll(keepingCapacity: partial.count < 1 << 20)
                    }
                    if whole.last == 0x0d { whole.removeLast() }
                    if !whole.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { lines.append(whole) }
                }
                start = i + 1
            }
            if !skipping { partial.append(contentsOf: c[start..<n]) }
        }
        if !skipping && partial.count > maxLine {
            partial = []
            skipping = true
            lines.append(nil)
        }
    }
}
