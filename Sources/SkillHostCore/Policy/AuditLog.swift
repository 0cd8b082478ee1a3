import Glibc
import Synchronization

/// The append-only audit log: one JSON line per call in `$XDG_STATE_HOME/skillhost/audit.jsonl` —
/// time, caller (and agentHost, and the MCP HTTP session), intent, skill id and version, decision (allowed, confirmed, denied) and the rule that
/// denied, outcome ("ok" or an error kind), duration, and the input with every field its schema marks
/// `"secret": true` or `"writeOnly": true` replaced by "[redacted]" (and long strings shortened).
///
/// Each line is one `write` to a descriptor opened with O_APPEND, so lines from concurrent calls and
/// from separate processes never interleave; a short write (a full disk) is not continued by a second
/// `write`, and every line starts on a new line: when the file does not end in a newline (a torn line
/// of this or another process), a newline goes first, so a torn line never swallows the next one
/// (the last byte is read only when the file's size is not where this process's last line ended).
/// Readers (`entries`) skip a torn line. When the file grows past `maxBytes` it is rotated under
/// `flock` (audit.jsonl → audit.jsonl.1 → … → audit.jsonl.KEEP, the oldest dropped). The size is counted
/// as lines are written and read back (the end offset), with the path's inode, at most once a second, so a
/// line costs two system calls (`lseek`, `write`) and no `fstat` (see `record`); a process that still holds a file another one rotated notices within a
/// second and reopens. A line is built by `AuditLine` on the calling thread's stack, outside the lock,
/// and is on disk (in the page cache) before `record` returns: nothing is buffered. Thread-safe.
final class AuditLog: Sendable {
    let path: String
    let settings: PolicyConfig.AuditSettings
    /// The open descriptor (-1 before the first line), its inode, its size as counted, and when the
    /// path and size were last checked (seconds, monotonic).
    private struct Open {
        var fd: Int32 = -1
        var inode: UInt64 = 0
        var size = 0
        var checkedAt = 0
        /// The file's size right after this process's last complete line (-1: unknown): while the
        /// file still has that size, it ends in a newline.
        var cleanEnd = -1
        /// Why the last line could not be appended (or the log opened), until a line is.
        var problem: StateFile.Failure?
    }
    private let state = Mutex(Open())

    init(stateDir: String, settings: PolicyConfig.AuditSettings) {
        path = stateDir + "/audit.jsonl"
        self.settings = settings
    }

    deinit { state.withLock { if $0.fd >= 0 { close($0.fd) } } }

    /// Appends `line` (one JSON object, without the newline; built on the caller's stack, see
    /// `AuditLine.onStack`, outside the lock).
    func record(_ line: inout AuditLine) {
        guard settings.enabled else { return }
        line.finish { append($0) }
    }

    /// Appends `buffer`: a spare newline, then the line and its newline. The spare newline goes
    /// out with the line only when the file does not end in one.
    private func append(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        state.withLock { s in
            let now = Self.seconds()
            if s.fd < 0 || (now != s.checkedAt && Self.inode(path) != s.inode) { reopen(&s) }
            guard s.fd >= 0 else { return }  // `problem` says why (reopen)
            // The last byte is read only when the file is not where this process left it (another
            // process appended, or a write of ours was short): a read per line would cost a system
            // call and an atime update.
            // `lseek(SEEK_END)`, not `fstat`: on Linux ≥ 6.13 an `fstat` marks the file's times as seen,
            // so the next `write` must stamp a fine-grained time and dirty the inode (a journal
            // transaction per line: 2.5 µs more per line, measured); the end offset is all we need.
            let end = lseek(s.fd, 0, SEEK_END)
            var from = 1
            if end > 0, Int(end) != s.cleanEnd {
                var last: UInt8 = 0
                if pread(s.fd, &last, 1, end - 1) == 1, last != 0x0a { from = 0 }
            }
            let line = UnsafeMutableBufferPointer(rebasing: buffer[from...])
            var n: Int
            repeat { n = write(s.fd, line.baseAddress!, line.count) } while n < 0 && errno == EINTR
            if n != line.count {
                let failure = n < 0 ? StateFile.Failure("append to", path)
                                    : StateFile.Failure("append to", path, reason: "only \(n) of \(line.count) bytes written (the next line starts on a new line)")
                HostLog.warning("\(failure); calls are refused until the audit log can be written")
                s.problem = failure
                s.cleanEnd = -1
            } else {
                s.problem = nil
                // O_APPEND: the line ends where the file ended (unless another process appended in
                // between, which the next `lseek` notices) plus the line.
                s.cleanEnd = Int(max(end, 0)) + n
            }
            s.size += max(n, 0)
            if now != s.checkedAt {
                s.checkedAt = now
                let size = lseek(s.fd, 0, SEEK_END)
                if size >= 0 { s.size = Int(size) }  // other processes append too
            }
            if s.size > settings.maxBytes { rotate(&s) }
        }
    }

    /// Why a call must not go ahead, if it must not: its audit line could not be written (the log
    /// cannot be opened, or the last line could not be appended and the folder still has less than
    /// 64 KiB free). Checked before every call while the log is on — a call nobody can account for is
    /// not made (guarantees fail closed). Costs a lock while the log works.
    func refusal() -> SkillError? {
        guard settings.enabled else { return nil }
        let problem = state.withLock { s -> StateFile.Failure? in
            if s.fd < 0 { reopen(&s) }
            guard s.fd >= 0 else { return s.problem }
            if s.problem != nil {
                var vfs = statvfs()
                let free = fstatvfs(s.fd, &vfs) == 0 ? UInt64(geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail) * UInt64(vfs.f_frsize) : 0
                if free >= 65_536 { s.problem = nil }  // room again: the next line will tell
            }
            return s.problem
        }
        return problem?.refusal("the call in the audit log")
    }

    private func reopen(_ s: inout Open) {
        if s.fd >= 0 { close(s.fd) }
        let dir = PathText.directory(of: path)
        if access(dir, F_OK) != 0 { try? makeDirectories(dir) }
        s.fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)  // read: the last byte, to start on a new line
        if s.fd < 0 {
            let code = errno
            var st = stat()
            s.problem = stat(dir, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR
                ? StateFile.Failure("write the audit log in", dir, reason: "it is not a folder")
                : StateFile.Failure("open the audit log", path, errno: code)
        } else {
            s.problem = nil
        }
        var st = stat()
        let ok = s.fd >= 0 && fstat(s.fd, &st) == 0
        (s.inode, s.size, s.checkedAt, s.cleanEnd) = (ok ? UInt64(st.st_ino) : 0, ok ? Int(st.st_size) : 0, Self.seconds(), -1)
    }

    private static func seconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
        return Int(ts.tv_sec)
    }

    /// Shifts the files up by one under the lock, unless another process already rotated this one.
    private func rotate(_ s: inout Open) {
        StateFile(path: path).locked {
            guard Self.inode(path) == s.inode else { return }
            unlink(path + ".\(settings.keep)")
            for i in stride(from: settings.keep - 1, through: 1, by: -1) { rename(path + ".\(i)", path + ".\(i + 1)") }
            rename(path, path + ".1")
        }
        reopen(&s)
    }

    /// The entries of the audit log at `path`, oldest first, skipping torn lines (a line cut short by a
    /// full disk or a killed process is not a JSON object) and blank lines.
    static func entries(at path: String) -> [JSON] {
        guard let bytes = StateFile(path: path).read() else { return [] }
        return bytes.split(separator: 0x0a).compactMap { line in
            guard let j = try? JSON.parse(Array(line)), case .object = j else { return nil }
            return j
        }
    }

    private static func inode(_ path: String) -> UInt64 {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_ino) : 0
    }
}
