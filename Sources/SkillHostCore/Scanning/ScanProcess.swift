import FoundationEssentials
import Glibc
import SkillLoading

/// One batch of files read by `skillhost-worker manifest` (see `ManifestReader` for the protocol):
/// the scan process, where it is (`ManifestReader.Progress`), and the replacement process it starts
/// for the files still without an answer after a crash or a timeout. Driven by
/// `ManifestReader.Session`, which polls several of these at once; each has its own step deadline.
/// Not thread-safe.
final class ScanProcess {
    private let workerPath: String
    private let deadline: Duration
    /// The files of the current process, in the order it was given them (file k is its fd 4 + k).
    private var pending: ArraySlice<ManifestReader.Item>
    private var child: ChildProcess?
    private var progress: ManifestReader.Progress
    private var buffer: [UInt8] = []
    private var stepStart = ContinuousClock.now
    /// Processes that answered every file: their exit (unmapping every image they loaded) is waited
    /// for in `reap()`, after the host has done its own work on the answers, not before.
    private var answeredAll: [ChildProcess] = []

    /// Starts the first process for `items`; every outcome goes to `deliver`.
    init(_ items: [ManifestReader.Item], workerPath: String, deadline: Duration, deliver: (String, ManifestReader.Outcome) -> Void) {
        self.workerPath = workerPath
        self.deadline = deadline
        pending = items[...]
        progress = ManifestReader.Progress(pending)
        spawn(deliver)
    }

    /// True while a process is reading files of this batch.
    var running: Bool { child != nil }

    /// The descriptors to poll: the result pipe, then stderr (empty once the batch is done).
    var pollFDs: [pollfd] {
        guard let child else { return [] }
        return [pollfd(fd: child.resultFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.stderrFD, events: Int16(POLLIN), revents: 0)]
    }

    /// Milliseconds until the current step's deadline (0 when it has passed).
    var msLeft: Int32 {
        let remaining = deadline - (ContinuousClock.now - stepStart)
        let ms = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }

    /// Handles what `poll` reported for this batch's two descriptors (`result`, `stderr`).
    func handle(result: Int16, stderr: Int16, chunk: inout [UInt8], deliver: (String, ManifestReader.Outcome) -> Void) {
        guard let child else { return }
        if stderr != 0 { child.drainStderr() }
        if result != 0 {
            let n = Glibc.read(child.resultFD, &chunk, chunk.count)
            if n < 0 && errno == EINTR { return }
            if n <= 0 { return ended(deliver) }
            buffer.append(contentsOf: chunk[0..<n])
            takeLines(deliver)
            if progress.finished {
                answeredAll.append(child)
                self.child = nil
                pending = []  // closes the host's copies of the descriptors
            }
        }
    }

    /// When the current step overran the deadline: the process is killed, the step's file answered
    /// as timed out, and a new process reads the rest.
    func checkDeadline(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        if child != nil && msLeft == 0 { timedOut(deliver) }
    }

    /// Waits for the processes that answered every file to end.
    func reap() {
        for c in answeredAll { c.wait() }
        answeredAll.removeAll()
    }

    // MARK: - Internals

    /// Starts a process for `pending`; if it cannot start, every pending file gets that as its answer.
    private func spawn(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        var arguments = ["manifest"]
        arguments.reserveCapacity(1 + 2 * pending.count)
        for (k, item) in pending.enumerated() { arguments += ["\(4 + k):\(item.file.identity.text)", item.path] }
        do {
            child = try ChildProcess(executable: workerPath, arguments: arguments, passing: pending.map(\.file.fd))
        } catch {
            for f in pending { deliver(f.path, .refused(Refusal(file: f.path, reason: .loadFailed, message: error.message, hint: error.hint))) }
            pending = []
            child = nil
            return
        }
        progress = ManifestReader.Progress(pending)
        buffer.removeAll()
        stepStart = .now
    }

    /// Takes every complete line of the buffer, then drops them from it in one move.
    private func takeLines(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        var consumed = 0
        defer { buffer.removeFirst(consumed) }
        while let nl = buffer[consumed...].firstIndex(of: 0x0a) {
            let line = Array(buffer[consumed..<nl])
            consumed = nl + 1
            guard let (_, f, loading) = progress.current else { break }
            stepStart = .now
            if loading, let entryNow = ManifestReader.loadedMark(line, path: f) {
                progress.loaded(entryNow: entryNow)
                continue
            }
            guard let json = try? JSON.parse(line), json["file"]?.stringValue == f else {
                progress.answer()
                deliver(f, .refused(Refusal(file: f, reason: .loadFailed,
                                              message: "the scan process answered something unreadable for \"\(f)\"")))
                continue
            }
            if loading && json["status"]?.stringValue == "loaded" {
                progress.loaded(entryNow: json["entry"]?.stringValue == "now")
            } else {
                progress.answer()
                deliver(f, .report(json))
            }
        }
    }

    /// The process closed its result pipe (it ended) before answering every file: the current step's
    /// file crashed it. That file alone is answered so; a new process reads the rest.
    private func ended(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        guard let child else { return }
        let status = child.wait()
        if let (_, f, loading) = progress.current {
            progress.answer()
            let tail = child.lastStderrLines()
            let step = loading ? "while loading (its static initializers)" : "in skillhost_entry (after its static initializers had run)"
            deliver(f, .refused(Refusal(
                file: f, reason: .crashedDuringScan,
                message: "\"\(f)\" crashed \(step): the scan process was \(waitStatusDescription(status))" + (tail.isEmpty ? "" : "; it last wrote: \(tail)"),
                hint: "fix the skill's \(loading ? "static initializers" : "skillhost_entry"); to see where it crashes, load it under a debugger: gdb --args python3 -c 'import ctypes; ctypes.CDLL(\"\(f)\")\(loading ? "" : ".skillhost_entry()")'")))
        }
        next(deliver)
    }

    private func timedOut(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        guard let child, let (_, f, loading) = progress.current else { return }
        progress.answer()
        child.signal(SIGKILL)
        child.wait()
        let secs = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        let step = loading ? "finish loading" : "return from skillhost_entry"
        deliver(f, .refused(Refusal(
            file: f, reason: .timedOut,
            message: "\"\(f)\" did not \(step) within \(TimeText.oneDecimal(secs)) s while its manifest was read (its \(loading ? "initializer hangs" : "entry function hangs") or is very slow)",
            hint: "fix the skill's \(loading ? "static initializers" : "skillhost_entry"); on a slow machine raise the deadline with --scan-timeout MS and `touch` the file to have it read again")))
        next(deliver)
    }

    /// After a process ended early: a new one for the files still without an answer, if any.
    private func next(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        child = nil
        pending = pending.enumerated().filter { !progress.answered.contains($0.offset) }.map(\.element)[...]
        if !pending.isEmpty { spawn(deliver) }
    }
}
