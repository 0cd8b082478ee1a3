import FoundationEssentials
import Glibc
import SkillLoading
import SkillSandboxC

/// One batch of files read by `skillhost-scan -` (see `ManifestReader` for the protocol):
/// the scan process, started before its files are known so that its own start overlaps the host's
/// opens and checks; the files, handed over on a socket as they are checked (`hand`: each file's
/// descriptor and identity, SCM_RIGHTS, up to `SKH_MAX_FDS_PER_MESSAGE` files per message); where
/// the process is (`ManifestReader.Progress`, from its lines, and the progress word for the entry it
/// calls right after a load, see `step`); and the replacement process it starts for the files still
/// without an answer after a crash or a timeout. Driven by `ManifestReader.Session`, which
/// polls it once it is sealed (no more files). Not thread-safe.
final class ScanProcess {
    private let scanPath: String
    private let deadline: Duration
    /// The files handed to the current process, in order.
    private var pending: [ManifestReader.Item] = []
    /// Files handed over that wait for the next message (`flush`), and the bytes of their paths.
    private var unsent: [ManifestReader.Item] = []
    private var unsentBytes = 0
    private var child: ChildProcess?
    /// The host's end of the socket the files go over; -1 once sealed.
    private var socket: Int32 = -1
    /// Why the current process could not be started (every file handed to it is answered with it).
    private var startFailure: SkillError?
    private var progress = ManifestReader.Progress(paths: [])
    private var buffer: [UInt8] = []
    private var stepStart = ContinuousClock.now
    /// The progress word (skh_progress_entry) every process of this batch gets as its fd 5, and its
    /// memfd; nil and -1 when it could not be made (the process then writes a loaded line instead).
    private var progressWord: UnsafeMutablePointer<UInt64>?
    private var progressFD: Int32 = -1

    /// Starts a scan process that waits for its files.
    init(scanPath: String, deadline: Duration) {
        self.scanPath = scanPath
        self.deadline = deadline
        progressFD = skh_progress_create(&progressWord)
        spawn()
    }

    deinit {
        skh_progress_unmap(progressWord)
        if progressFD >= 0 { close(progressFD) }
    }

    /// How many files were handed over.
    var count: Int { pending.count + unsent.count }

    /// Hands `item` to the process (or answers it at once if the process could not start). Files go
    /// over the socket a message of up to `SKH_MAX_FDS_PER_MESSAGE` at a time (one sendmsg per file
    /// cost the host's loop over the files a system call each; the process loads nothing before it
    /// has every file, see `seal`); a file that could not be handed over is answered so then.
    func hand(_ item: ManifestReader.Item, deliver: (String, ManifestReader.Outcome) -> Void) {
        if let e = startFailure {
            return deliver(item.path, .refused(Refusal(file: item.path, reason: .loadFailed, message: e.message, hint: e.hint)))
        }
        unsent.append(item)
        unsentBytes += item.path.utf8.count
        if unsent.count >= Int(SKH_MAX_FDS_PER_MESSAGE) || unsentBytes >= Self.messageBytes { flush(deliver) }
    }

    /// A message is sent once its paths reach this many bytes (so it stays far below a socket's send
    /// buffer, and within skillhost-scan's receive buffer with one more path of PATH_MAX bytes).
    static let messageBytes = 16384

    /// No more files: the last message goes, and the process goes on to load them; from now on it is polled.
    func seal(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        flush(deliver)
        if socket >= 0 { close(socket); socket = -1 }
        progress = ManifestReader.Progress(pending[...])
        buffer.removeAll()
        stepStart = .now
    }

    /// True while a sealed process is reading files of this batch.
    var running: Bool { child != nil && socket < 0 }

    /// Appends the descriptors to poll: the result pipe, then stderr (none once the batch is done). Once
    /// stderr has ended (a skill's initializer may close fd 2) it is not polled (-1): its hangup would
    /// end every poll at once, and the host would spin on it while the process loads.
    func appendPollFDs(to fds: inout [pollfd]) {
        guard let child else { return }
        fds.append(pollfd(fd: child.resultFD, events: Int16(POLLIN), revents: 0))
        fds.append(pollfd(fd: child.stderrEnded ? -1 : child.stderrFD, events: Int16(POLLIN), revents: 0))
    }

    /// The entry start of the file at `index`, as the host first read it from the progress word.
    private var entryStart: (index: Int, since: ContinuousClock.Instant)?

    /// The step the process is on: `progress.current`, except that the file it says is loading is in
    /// its entry when the progress word says so (an image without Swift, whose entry is called right
    /// after its load with no line between), since the word's time.
    /// The word is in memory the scan process's code can write (a skill's initializer or entry too):
    /// its time is read once per step and only trusted between the load's start and now (a time after
    /// now counts as the load's start), so rewriting it cannot push a hang's deadline on more than once
    /// — as with a line, which also moves a step's start once.
    private var step: (path: String, loading: Bool, since: ContinuousClock.Instant)? {
        guard let (index, path, loading) = progress.current else { return nil }
        guard loading, let word = progressWord else { return (path, loading, stepStart) }
        if let e = entryStart, e.index == index { return (path, false, e.since) }
        let value = skh_progress_load(word)
        guard Int(value & 0xffff) == index + 1 else { return (path, true, stepStart) }
        let now = skh_progress_now(), at = value >> 16
        let since = at <= now && now - at <= UInt64(Int64.max) ? max(ContinuousClock.now - .microseconds(Int64(now - at)), stepStart) : stepStart
        entryStart = (index, since)
        return (path, false, since)
    }

    /// Milliseconds until the current step's deadline (0 when it has passed).
    var msLeft: Int32 {
        let remaining = deadline - (ContinuousClock.now - (step?.since ?? stepStart))
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
                // Every file has its answer: the process's exit (unmapping every image it loaded)
                // and its reaping go on beside the host's work on the answers.
                child.reapInBackground()
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

    // MARK: - Internals

    /// Starts a process that waits for its files on a socket (its fd 4). If it cannot start, the
    /// files handed to it are answered with the reason.
    private func spawn() {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            startFailure = SkillError(.internal, "cannot create a socket for a scan process: \(String(cString: strerror(errno)))")
            return
        }
        defer { close(fds[1]) }
        if let word = progressWord { skh_progress_reset(word) }
        entryStart = nil  // positions start over with the new process's files
        do {
            child = try ChildProcess(executable: scanPath, arguments: ["-"], passing: progressFD >= 0 ? [fds[1], progressFD] : [fds[1]])
            socket = fds[0]
            startFailure = nil
        } catch {
            close(fds[0])
            child = nil
            startFailure = error
        }
    }

    /// Sends the unsent files in one message; each one that could not be sent is answered so.
    private func flush(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        guard !unsent.isEmpty else { return }
        let batch = unsent
        unsent.removeAll(keepingCapacity: true)
        unsentBytes = 0
        if let code = send(batch) {
            for item in batch {
                deliver(item.path, .refused(Refusal(file: item.path, reason: .loadFailed,
                                                    message: "\"\(item.path)\" could not be handed to the scan process: \(String(cString: strerror(code)))",
                                                    hint: "raise the open-file limit (ulimit -n) if it is low, and run the command again")))
            }
        } else {
            pending.append(contentsOf: batch)
        }
    }

    /// Sends `batch` as one message: `COUNT` NUL, then per file `DEV:INO:SIZE:MTIME` NUL `PATH` NUL,
    /// with the files' descriptors in the same order; the errno when the process is alive but the
    /// message could not be sent (too many descriptors in flight, say). A process that is gone (EPIPE)
    /// reads nothing more: its end shows on the result pipe once sealed, and a new process gets the
    /// files still without an answer.
    private func send(_ batch: [ManifestReader.Item]) -> Int32? {
        guard socket >= 0 else { return nil }
        var message: [UInt8] = []
        message.reserveCapacity(16 + batch.reduce(0) { $0 + $1.path.utf8.count + 64 })
        message.append(contentsOf: String(batch.count).utf8)
        message.append(0)
        for item in batch {
            message.append(contentsOf: item.file.identity.text.utf8)
            message.append(0)
            message.append(contentsOf: item.path.utf8)
            message.append(0)
        }
        let fds = batch.map(\.file.fd)
        while message.withUnsafeBytes({ m in fds.withUnsafeBufferPointer { skh_send_fds(socket, $0.baseAddress, Int32($0.count), m.baseAddress, m.count) } }) < 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EPIPE || code == ECONNRESET { return nil }
            return code
        }
        return nil
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
            // Which file, and whether this is a loaded line (with "entry":"now" or not), or an answer.
            let read = ScanAnswer(line).map { answer in
                answer.read { a -> (answer: ScanAnswer, file: String?, loadedEntryNow: Bool?) in
                    let file = a.string("file")
                    guard a.string("status") == "loaded" else { return (answer, file, nil) }
                    return (answer, file, a.string("entry") == "now")
                }
            }
            guard let read, read.file == f else {
                progress.answer()
                deliver(f, .refused(ManifestValidator.unreadable(f)))
                continue
            }
            let answer = read.answer
            if loading, let entryNow = read.loadedEntryNow {
                progress.loaded(entryNow: entryNow)
            } else {
                progress.answer()
                deliver(f, .report(answer))
            }
        }
    }

    /// The process closed its result pipe (it ended) before answering every file: the current step's
    /// file crashed it. That file alone is answered so; a new process reads the rest.
    private func ended(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        guard let child else { return }
        let status = child.wait()
        if let (f, loading, _) = step {
            progress.answer()
            let tail = child.lastStderrLines()
            let during = loading ? "while loading (its static initializers)" : "in skillhost_entry (after its static initializers had run)"
            deliver(f, .refused(Refusal(
                file: f, reason: .crashedDuringScan,
                message: "\"\(f)\" crashed \(during): the scan process was \(waitStatusDescription(status))" + (tail.isEmpty ? "" : "; it last wrote: \(tail)"),
                hint: "fix the skill's \(loading ? "static initializers" : "skillhost_entry"); to see where it crashes, load it under a debugger: gdb --args python3 -c 'import ctypes; ctypes.CDLL(\"\(f)\")\(loading ? "" : ".skillhost_entry()")'")))
        }
        next(deliver)
    }

    private func timedOut(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        guard let child, let (f, loading, _) = step else { return }
        progress.answer()
        child.signal(SIGKILL)
        child.wait()
        let secs = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        let what = loading ? "finish loading" : "return from skillhost_entry"
        deliver(f, .refused(Refusal(
            file: f, reason: .timedOut,
            message: "\"\(f)\" did not \(what) within \(TimeText.oneDecimal(secs)) s while its manifest was read (its \(loading ? "initializer hangs" : "entry function hangs") or is very slow)",
            hint: "fix the skill's \(loading ? "static initializers" : "skillhost_entry"); on a slow machine raise the deadline with --scan-timeout MS and `touch` the file to have it read again")))
        next(deliver)
    }

    /// After a process ended early: a new one for the files still without an answer, if any.
    private func next(_ deliver: (String, ManifestReader.Outcome) -> Void) {
        child = nil
        let rest = pending.enumerated().filter { !progress.answered.contains($0.offset) }.map(\.element)
        pending = []
        guard !rest.isEmpty else { return }
        spawn()
        for item in rest { hand(item, deliver: deliver) }
        seal(deliver)
    }
}
