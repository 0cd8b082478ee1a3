import FoundationEssentials
import Glibc
import SkillLoading

/// Reads what skills declare by running `skillhost-worker manifest FD:IDENTITY FILE…` in a child
/// process, so that a skill whose static initializer crashes or hangs costs only that child.
///
/// The child loads the descriptors the host opened and checked (`CheckedSkillFile`), handed to it as
/// fd 4, 5, …, never the paths; it checks each against the identity the host recorded first.
/// One child reads a batch of up to `batchSize` files (one process start for N files), in two passes
/// (see ManifestMode.swift for why): it loads every file in order, writing `"status":"loaded"` after
/// each load (or the file's refusal, which is its answer); a file whose loaded line adds
/// `"entry":"now"` (an image without Swift) has its entry called and its answer written next; then the
/// child calls the entries of the other loaded files in order, writing each file's answer. Each step
/// (one load, one entry) has `deadline` to finish. If the child dies, the step it was on is known from
/// those lines (see `Progress.current`) and that file alone is
/// recorded as crashed (with the signal, the step, and the child's last stderr lines); a new child goes
/// on with every file still without an answer. A step that overruns the deadline is handled the same
/// way, as timed out, after the child is killed. Not thread-safe; call from one thread.
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
            var progress = Progress(pending)
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            var stepStart = ContinuousClock.now
            var ended = false
            while !progress.finished && !ended {
                let remaining = deadline - (ContinuousClock.now - stepStart)
                let ms = max(0, Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
                var fds = [pollfd(fd: child.resultFD, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: child.stderrFD, events: Int16(POLLIN), revents: 0)]
                let r = poll(&fds, 2, ms)
                if r < 0 && errno == EINTR { continue }
                if r == 0 {
                    // The deadline of the current step passed.
                    let (_, f, loading) = progress.current!
                    progress.answer()
                    child.signal(SIGKILL)
                    child.wait()
                    let secs = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
                    let step = loading ? "finish loading" : "return from skillhost_entry"
                    deliver(f, .refused(Refusal(
                        file: f, reason: .timedOut,
                        message: "\"\(f)\" did not \(step) within \(TimeText.oneDecimal(secs)) s while its manifest was read (its \(loading ? "initializer hangs" : "entry function hangs") or is very slow)",
                        hint: "fix the skill's \(loading ? "static initializers" : "skillhost_entry"); on a slow machine raise the deadline with --scan-timeout MS and `touch` the file to have it read again")))
                    ended = true
                    break
                }
                if fds[1].revents != 0 { child.drainStderr() }
                if fds[0].revents == 0 { continue }
                let n = Glibc.read(child.resultFD, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
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
                    guard let (_, f, loading) = progress.current else { break }
                    stepStart = .now
                    if loading, let entryNow = Self.loadedMark(line, path: f) {
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
            if !ended { child.wait() }
            pending = pending.enumerated().filter { !progress.answered.contains($0.offset) }.map(\.element)[...]
        }
    }

    /// Whether `line` is, byte for byte, the loaded line ManifestMode writes for `path` —
    /// `{"file":PATH,"status":"loaded"}` (false) or the same with `,"entry":"now"` (true) — checked
    /// without building a JSON tree (one such line per file); nil for anything else, which is then
    /// parsed as JSON and judged like any other line.
    static func loadedMark(_ line: [UInt8], path: String) -> Bool? {
        var expected: [UInt8] = Array(#"{"file":"#.utf8)
        expected.reserveCapacity(path.utf8.count + 48)
        JSON.writeString(path, to: &expected)
        expected.append(contentsOf: #","status":"loaded""#.utf8)
        guard line.count > expected.count, line.starts(with: expected) else { return nil }
        let rest = line[expected.count...]
        if rest.elementsEqual("}".utf8) { return false }
        if rest.elementsEqual(#","entry":"now"}"#.utf8) { return true }
        return nil
    }

    /// Where one scan process is, by position in its batch: which files it has loaded (pass one) and
    /// which have their answer. Its `current` step is the entry of a file whose loaded line said
    /// `"entry":"now"` until that file's answer comes; otherwise, while pass one lasts, the first file
    /// neither loaded nor answered; then the first file loaded for pass two without an answer.
    struct Progress {
        private let paths: [String]
        private var nextLoad = 0
        /// A file loaded in pass one whose entry runs now, before the next load.
        private var enteringNow: Int?
        private var loadedOrder: [Int] = []
        private var nextAnswer = 0
        private(set) var answered: Set<Int> = []

        init(_ items: ArraySlice<Item>) { self.init(paths: items.map(\.path)) }
        init(paths: [String]) { self.paths = paths }

        /// The file the process is working on (position, path), and whether it is being loaded or
        /// asked for its entry; nil when every file has its answer.
        var current: (index: Int, path: String, loading: Bool)? {
            if let k = enteringNow { return (k, paths[k], false) }
            if nextLoad < paths.count { return (nextLoad, paths[nextLoad], true) }
            if nextAnswer < loadedOrder.count { return (loadedOrder[nextAnswer], paths[loadedOrder[nextAnswer]], false) }
            return nil
        }

        var finished: Bool { current == nil }

        /// The current file of pass one is loaded; `entryNow`: its entry is called next (else in pass two).
        mutating func loaded(entryNow: Bool = false) {
            if entryNow { enteringNow = nextLoad } else { loadedOrder.append(nextLoad) }
            nextLoad += 1
        }

        /// The current file has its answer.
        mutating func answer() {
            guard let c = current else { return }
            answered.insert(c.index)
            if enteringNow == c.index {
                enteringNow = nil
            } else if c.loading {
                nextLoad += 1
            } else {
                nextAnswer += 1
            }
        }
    }
}
