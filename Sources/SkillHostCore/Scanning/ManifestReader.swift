import FoundationEssentials
import Glibc
import SkillLoading

/// Reads what skills declare by running `skillhost-scan -` in a child
/// process, so that a skill whose static initializer crashes or hangs costs only that child.
///
/// The child loads the descriptors the host opened and checked (`CheckedSkillFile`), handed to it
/// over a socket (SCM_RIGHTS), never the paths; it checks each against the identity the host recorded first.
/// One child reads a batch of up to `batchSize` files (one process start for N files), in two passes
/// (see skillhost-scan's ScanMode.swift for why): it loads every file in order; a refusal is the file's
/// answer; an image with Swift gets a `"status":"loaded"` line; an image without Swift has its entry
/// called at once and its answer written, the entry's start stored in a progress word both processes
/// map (skh_progress_entry; a child without one writes a loaded line with `"entry":"now"` instead);
/// then the child calls the entries of the Swift images in order, writing each file's answer. Each
/// step (one load, one entry) has `deadline` to finish. If the child dies, the step it was on is known
/// from those lines (see `Progress.current`) and the progress word (see `ScanProcess`), and that file alone is
/// recorded as crashed (with the signal, the step, and the child's last stderr lines); a new child goes
/// on with every file still without an answer. A step that overruns the deadline is handled the same
/// way, as timed out, after the child is killed.
///
/// A child is started with the first file of its batch and gets the files over a socket as the host
/// checks them (`skillhost-scan -`), so its own start overlaps the host's opens and checks
/// (`Session`). Not thread-safe; call from one thread.
struct ManifestReader {
    /// The scan program, `skillhost-scan`.
    var scanPath: String
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
        /// The worker's answer for the file (status ok, or a loader error it caught).
        case report(ScanAnswer)
        case refused(Refusal)
    }

    /// Reads every file's manifest; the answers are also returned.
    func read(_ files: [Item]) -> [String: Outcome] {
        final class Answers { var byPath: [String: Outcome] = [:] }
        let answers = Answers()
        read(files) { answers.byPath[$0] = $1 }
        return answers.byPath
    }

    /// Reads every file's manifest and hands each answer to `deliver` as soon as it arrives (on the
    /// calling thread), so the caller's work on one answer overlaps the scan process reading the next.
    func read(_ items: [Item], deliver: @escaping (String, Outcome) -> Void) {
        let session = Session(self, deliver: deliver)
        for item in items { session.add(item) }
        session.finish()
    }

    /// Files handed to scan processes one by one as the caller checks them (`add`): a process is
    /// started with the first file of its batch, so its start and its sandbox overlap the caller's
    /// work on the next files, and it loads once it has `batchSize` files (or at `finish`). One
    /// process loads at a time (two at once on two cores cost 8–15 % more CPU — each its own start,
    /// and for Swift skills its own load of the Swift runtime and Foundation — and were not faster on
    /// a loaded machine). The caller holds at most `batchSize` descriptors for it (RLIMIT_NOFILE is
    /// often 1024). Every file gets exactly one answer through `deliver`. Not thread-safe.
    final class Session {
        private let reader: ManifestReader
        private let deliver: (String, Outcome) -> Void
        private var batches: [ScanProcess] = []
        /// The process that is still being handed files.
        private var open: ScanProcess?
        private var chunk = [UInt8](repeating: 0, count: 65536)

        init(_ reader: ManifestReader, deliver: @escaping (String, Outcome) -> Void) {
            self.reader = reader
            self.deliver = deliver
        }

        /// Hands `item` to the open process, first starting one if there is none (after handling the
        /// answers of the one loading, if any, until it is done).
        func add(_ item: Item) {
            if open == nil {
                while batches.contains(where: \.running) { step() }
                let started = ScanProcess(scanPath: reader.scanPath, deadline: reader.deadline)
                batches.append(started)
                open = started
            }
            open!.hand(item, deliver: deliver)
            if open!.count >= ManifestReader.batchSize { seal() }
        }

        /// Handles answers until every file handed over so far has one.
        func finish() {
            seal()
            while batches.contains(where: \.running) { step() }
        }

        private func seal() {
            open?.seal(deliver)
            open = nil
        }

        /// The running processes and their descriptors of the current `step` (kept, not made per poll).
        private var running: [ScanProcess] = []
        private var fds: [pollfd] = []

        /// One poll of the running processes, then the deadline of each one's current step.
        private func step() {
            running.removeAll(keepingCapacity: true)
            fds.removeAll(keepingCapacity: true)
            var timeout = Int32.max
            for b in batches where b.running {
                running.append(b)
                b.appendPollFDs(to: &fds)
                timeout = min(timeout, b.msLeft)
            }
            let r = poll(&fds, nfds_t(fds.count), running.isEmpty ? 0 : timeout)
            if r < 0 && errno == EINTR { return }
            if r > 0 {
                for (k, b) in running.enumerated() where fds[2 * k].revents != 0 || fds[2 * k + 1].revents != 0 {
                    b.handle(result: fds[2 * k].revents, stderr: fds[2 * k + 1].revents, chunk: &chunk, deliver: deliver)
                }
            }
            for b in running { b.checkDeadline(deliver) }
        }
    }

    /// Whether `line` is, byte for byte, the loaded line skillhost-scan (ScanMode.swift) writes for `path` —
    /// `{"file":PATH,"status":"loaded"}` (false) or the same with `,"entry":"now"` (true) — checked
    /// without building a JSON tree (one such line per file); nil for anything else, which is then
    /// parsed as JSON and judged like any other line.
    static func loadedMark(_ line: [UInt8], path: String) -> Bool? {
        // An answer (most lines: an image without Swift is answered with no loaded line before it)
        // ends otherwise: it is told apart by its last bytes, before the path is escaped to compare.
        let ending = #","status":"loaded"}"#.utf8, endingNow = #","status":"loaded","entry":"now"}"#.utf8
        guard line.count > ending.count, line.last == UInt8(ascii: "}"),
              line.suffix(ending.count).elementsEqual(ending) || line.suffix(endingNow.count).elementsEqual(endingNow) else { return nil }
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
