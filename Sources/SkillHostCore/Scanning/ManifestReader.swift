import FoundationEssentials
import Glibc

/// Reads what skills declare by running `skillhost-worker manifest FILE…` in a child process, so
/// that a skill whose static initializer crashes or hangs costs only that child.
///
/// One child reads a whole batch (one process start for N files). The child answers in order, one
/// line per file; if it dies, the file it was reading is the one after the last answer: that file
/// is recorded as crashed (with the signal and the child's last stderr lines) and a new child goes
/// on with the rest. If no answer arrives within `deadline` for one file, the child is killed and the
/// file recorded as timed out. Not thread-safe; call from one thread.
struct ManifestReader {
    var workerPath: String
    /// How long one file may take to load and describe itself.
    var deadline: Duration

    enum Outcome {
        /// The worker's JSON report for the file (status ok, or a loader error it caught).
        case report(JSON)
        case refused(Refusal)
    }

    /// Reads every file's manifest; the answers are also returned.
    func read(_ files: [String]) -> [String: Outcome] {
        var results: [String: Outcome] = [:]
        read(files) { results[$0] = $1 }
        return results
    }

    /// Reads every file's manifest and hands each answer to `deliver` as soon as it arrives (on the
    /// calling thread), so the caller's work on one answer overlaps the scan process reading the next.
    func read(_ files: [String], deliver: (String, Outcome) -> Void) {
        var pending = files[...]
        while !pending.isEmpty {
            let child: ChildProcess
            do { child = try ChildProcess(executable: workerPath, arguments: ["manifest"] + pending) } catch {
                for f in pending { deliver(f, .refused(Refusal(file: f, reason: .loadFailed, message: error.message, hint: error.hint))) }
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
                    let f = pending.removeFirst()
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
                    if let f = pending.first {
                        pending.removeFirst()
                        let tail = child.lastStderrLines()
                        deliver(f, .refused(Refusal(
                            file: f, reason: .crashedDuringScan,
                            message: "\"\(f)\" crashed while loading (its static initializer or skillhost_entry): the scan process was \(waitStatusDescription(status))" + (tail.isEmpty ? "" : "; it last wrote: \(tail)"),
                            hint: "run the skill's initializer under a debugger (gdb --args .build/debug/skillhost-worker manifest \(f)) and fix the crash")))
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
                    guard let f = pending.first else { break }
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
