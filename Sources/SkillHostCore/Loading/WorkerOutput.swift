import Synchronization

/// What a worker's skill writes to its stdout and stderr (one pipe): kept as the skill's log, never
/// shown on the host's stdout.
///
/// Keeps the last 64 KiB for error messages ("it last wrote: …"), and passes complete lines on to the
/// host's skill log at level info (`SKILLHOST_LOG=info` shows them on stderr), at most 64 KiB per call
/// so that a skill printing megabytes cannot flood the host's stderr. Lines the worker itself writes
/// when a fatal signal arrives (`skillhost-worker: fatal signal=N vmpeak_kb=K`) are taken out and
/// kept as `fatalNote`. Thread-safe: bytes come from the worker's reader thread and its finalizer.
final class WorkerOutput: Sendable {
    /// What the worker's fatal-signal handler reported.
    struct FatalNote: Sendable, Equatable {
        var signal: Int32
        var vmPeakKB: Int
    }

    static let keptBytes = 64 * 1024
    static let relayBytesPerCall = 64 * 1024
    /// A line longer than this is cut into pieces.
    static let maxLine = 4096

    private struct State {
        var tail: [UInt8] = []
        var partial: [UInt8] = []
        var relayBudget = WorkerOutput.relayBytesPerCall
        var truncatedNoticeGiven = false
        var note: FatalNote?
    }

    let skillID: String
    private let state = Mutex(State())

    init(skillID: String) { self.skillID = skillID }

    /// A new call starts: the relay budget is refilled.
    func callStarted() {
        state.withLock { $0.relayBudget = Self.relayBytesPerCall; $0.truncatedNoticeGiven = false }
    }

    /// Takes bytes the worker wrote.
    func ingest(_ bytes: UnsafeBufferPointer<UInt8>) {
        var relay: [String] = []
        state.withLock { s in
            var start = 0
            for i in 0..<bytes.count where bytes[i] == 0x0a {
                s.partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                Self.line(&s, &relay)
                start = i + 1
            }
            s.partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
            while s.partial.count > Self.maxLine {
                let rest = Array(s.partial[Self.maxLine...])
                s.partial.removeLast(s.partial.count - Self.maxLine)
                Self.line(&s, &relay)
                s.partial = rest
            }
        }
        for l in relay { SkillLog.shared.write(skill: skillID, level: 1, l) }
    }

    /// One complete line is in `s.partial`: keep it (or take it as the fatal note) and maybe relay it.
    private static func line(_ s: inout State, _ relay: inout [String]) {
        defer { s.partial.removeAll(keepingCapacity: true) }
        let prefix = Array("skillhost-worker: fatal ".utf8)
        if s.partial.starts(with: prefix) {
            var sig: Int32 = 0, peak = 0
            for field in String(decoding: s.partial[prefix.count...], as: UTF8.self).split(separator: " ") {
                let kv = field.split(separator: "=")
                guard kv.count == 2 else { continue }
                if kv[0] == "signal" { sig = Int32(kv[1]) ?? 0 }
                if kv[0] == "vmpeak_kb" { peak = Int(kv[1]) ?? 0 }
            }
            s.note = FatalNote(signal: sig, vmPeakKB: peak)
            return
        }
        if s.partial.isEmpty { return }
        s.tail.append(contentsOf: s.partial)
        s.tail.append(0x0a)
        if s.tail.count > 2 * keptBytes { s.tail.removeFirst(s.tail.count - keptBytes) }
        if s.relayBudget > 0 {
            s.relayBudget -= s.partial.count + 1
            relay.append("output: " + String(decoding: s.partial, as: UTF8.self))
        } else if !s.truncatedNoticeGiven {
            s.truncatedNoticeGiven = true
            relay.append("output: … (more output during this call; not shown, the last \(keptBytes / 1024) KiB are kept)")
        }
    }

    /// The last `count` lines written (an unfinished last line included), each cut to 300 characters.
    /// The last `count` lines the skill wrote. When the Swift runtime printed a stack trace after a
    /// fatal error ("Current stack trace:" and frames), the lines before the trace are the ones that say
    /// what happened ("…: Fatal error: …"), so those are returned instead of the frames.
    func lastLines(_ count: Int = 5) -> [String] {
        state.withLock { s in
            var bytes = Array(s.tail.suffix(Self.keptBytes))
            bytes.append(contentsOf: s.partial)
            var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            if let trace = lines.lastIndex(where: { $0.hasPrefix("Current stack trace:") }), trace > lines.startIndex {
                lines = Array(lines[..<trace])
            }
            return lines.suffix(count).map { $0.count > 300 ? String($0.prefix(300)) + "…" : String($0) }
        }
    }

    var fatalNote: FatalNote? { state.withLock { $0.note } }
}
