import FoundationEssentials
import Glibc
import SkillLoading

/// Reads what skills declare by running `skillhost-worker manifest FD:IDENTITY FILE…` in a child
/// process, so that a skill whose static initializer crashes or hangs costs only that child.
///
/// The child loads the descriptors the host opened and checked (`CheckedSkillFile`), handed to it as
/// fd 4, 5, …, never the paths; it checks each against the identity the host recorded first.
/// One child reads a batch of up to `batchSize` files (one process start for N files). The child answers in order, one
/// line per file; if it dies, the file it was reading is the one after the last answer: that file
/// is recorded as crashed (with the signal and the child's last stderr lines) and a new child goes
/// on with the rest. If no answer arrives within `deadline` for one file, the child is killed and the
/// file recorded as timed out. Not thread-safe; call from one thread.
struct ManifestReader {
    var workerPath: String
    /// How long one file may take to load and describe itself.
    var deadline: Duration

    /// A file to read: its path (for messages and answers) and the checked descriptor to load.
    struct Item {
        var path: String
        var file: CheckedSkillFile
    }

    /// Files (descriptors) handed to one scan process at most.
    static let batchSize = 256

    enum Outcome {
        /// The worker's JSON report for the file (status ok, or a loader error it caught).
        case report(JSON)
        case refused(Refusal)
    }

    /// Reads every file's manifest; the answers are also returned.
    func read(_ files: [Item]) -> [String: Outcome] {
        var results: [String: Outcome] = [:]
        read(files) { results[$0] = $1 }
        return results
    }

    /// Reads every file's manifest and hands each answer to `deliver` as soon as it arrives (on the
    /// calling thread), so the caller's work on one answer overlaps the scan process reading the next.
    func read(_ items: [Item], deliver: (String, Outcome) -> Void) {
        var rest = items[...]
        while !rest.isEmpty {
            let batch = rest.prefix(Self.batchSize)
            rest = rest.dropFirst(batch.count)
            read(batch: Array(batch), deliver: deliver)
        }
    }

    /// One batch: a scan process, and a new one for the files after a crash or a timeout.
    private func read(batch: [Item], deliver: (String, Outcome) -> Void) {
        var pending = batch[...]
        while !pending.isEmpty {
            let child: ChildProcess
            // File k of the batch is the child's fd 4 + k.
            var arguments = ["manifest"]
            for (k, item) in pending.enumerated() { arguments += ["\(4 + k):\(item.file.identity.text)", item.path] }
            do { child = try ChildProcess(executable: workerPath, arguments: arguments, passing: pending.map(\.file.fd)) } catch {
                for f in pending { deliver(f.path, .refused(Refusal(file: f.path, reason: .loadFailed, message: error.message, hint: error.hint))) }
                return
            }
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            var fileStart = ContinuousClock.now
            var ended = false
            while !pending.isEmpty && !ended {
                let remaining = deadline - (ContinuousClock.now - fileStart)
                let ms = max(0, Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
                var fds = [pollfd(fd: child.resultFD, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: child.stderrFD, events: Int16(POLLIN), revents: 0)]
                let r = poll(&fds, 2, ms)
                if r < 0 && errno == EINTR { continue }
                if r == 0 {
                    // Deadline for pending.first passed.
                    let f = pending.removeFirst().path
                    child.signal(SIGKILL)
                    child.wait()
                    let secs = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
                    deliver(f, .refused(Refusal(
                        file: f, reason: .timedOut,
                        message: "\"\(f)\" did not finish loading within \(TimeText.oneDecimal(secs)) s while its manifest was read (its initializer hangs or is very slow)",
                        hint: "fix the skill's static initializers; on a slow machine raise the deadline with --scan-timeout MS and `touch` the file to have it read again")))
                    ended = true
                    break
                }
                if fds[1].revents != 0 { child.drainStderr() }
                if fds[0].revents == 0 { continue }
                let n = Glibc.read(child.resultFD, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    let status = child.wait()
                    if let f = pending.first?.path {
                        pending.removeFirst()
                        let tail = child.lastStderrLines()
                        deliver(f, .refused(Refusal(
                            file: f, reason: .crashedDuringScan,
                            message: "\"\(f)\" crashed while loading (its static initializer or skillhost_entry): the scan process was \(waitStatusDescription(status))" + (tail.isEmpty ? "" : "; it last wrote: \(tail)"),
                            hint: "fix the skill's static initializers or skillhost_entry; to see where it crashes, load it under a debugger: gdb --args python3 -c 'import ctypes; ctypes.CDLL(\"\(f)\")'")))
                    }
                    ended = true
                    break
                }
                buffer.append(contentsOf: chunk[0..<n])
                // Take every complete line, then drop them from the buffer in one move.
                var consumed = 0
                defer { buffer.removeFirst(consumed) }
                while let nl = buffer[consumed...].firstIndex(of: 0x0a) {
                    let line = Array(buffer[consumed..<nl])
                    consumed = nl + 1
                    guard let f = pending.first?.path else { break }
                    pending.removeFirst()
                    fileStart = .now
                    if let json = try? JSON.parse(line), json["file"]?.stringValue == f {
                        deliver(f, .report(json))
                    } else {
                        deliver(f, .refused(Refusal(file: f, reason: .loadFailed,
                                                      message: "the scan process answered something unreadable for \"\(f)\"")))
                    }
                }
            }
            if !ended { child.wait() }
        }
    }
}
