import Foundation
import SkillKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure of the store itself (not of the input). `ReminderStore` throws these; the skill maps them to
/// `SkillError.unavailable` (I/O) or `.invalidInput` (unknown id).
enum ReminderStoreError: Error, Equatable, CustomStringConvertible {
    /// A system call failed: `what` names the operation and the path, `reason` is `strerror(errno)`.
    case io(what: String, reason: String)
    /// No reminder has this id.
    case notFound(id: String)

    var description: String {
        switch self {
        case .io(let what, let reason): "\(what): \(reason)"
        case .notFound(let id): "no reminder with id \"\(id)\""
        }
    }
}

/// The reminders of one user: a JSON-lines event log at `path` (one `ReminderEvent` per line), folded on
/// every read. Survives restarts by construction: the log is the only state.
///
/// Concurrency (threads and processes alike): every append opens its own descriptor with
/// `O_APPEND|O_CREAT`, takes `flock(LOCK_EX)`, writes the whole line with one `write()`, `fsync`s and
/// closes; readers take `LOCK_SH`. `flock` locks belong to the open file description, so two descriptors
/// in one process exclude each other just as two processes do. `complete` reads and appends under one
/// exclusive lock, so it is atomic. Calls block while another writer holds the lock (milliseconds).
///
/// A line that does not parse is skipped and reported through `warn` with the file and line number.
struct ReminderStore: Sendable {
    let path: String

    init(path: String) { self.path = path }

    /// Appends a create event and returns the new reminder (`completed == false`).
    func create(title: String, due: String?, notes: String?, now: Date, timeZone: TimeZone) throws -> Reminder {
        let reminder = Reminder(id: Self.newID(), title: title, due: due, notes: notes,
                                createdAt: SkillDates.format(now, timeZone: timeZone), completed: false, completedAt: nil)
        try withLockedFile { fd in try append(.create(reminder), fd: fd) }
        return reminder
    }

    /// All reminders in log order, completed ones included.
    func all(warn: (String) -> Void = { _ in }) throws -> [Reminder] {
        guard let bytes = try readShared() else { return [] }
        return fold(bytes, warn: warn)
    }

    /// The reminders `reminder.list` returns, in its order.
    func list(includeCompleted: Bool, warn: (String) -> Void = { _ in }) throws -> [Reminder] {
        try all(warn: warn)
            .filter { includeCompleted || !$0.completed }
            .enumerated()
            .sorted { Reminder.listOrder($0.element, $1.element) || (!Reminder.listOrder($1.element, $0.element) && $0.offset < $1.offset) }
            .map(\.element)
    }

    /// Marks `id` completed and returns it. Idempotent: completing a completed reminder changes nothing
    /// (and appends nothing). Throws `ReminderStoreError.notFound` for an unknown id.
    func complete(id: String, now: Date, timeZone: TimeZone, warn: (String) -> Void = { _ in }) throws -> Reminder {
        try withLockedFile { fd in
            guard var reminder = fold(try readAll(fd), warn: warn).first(where: { $0.id == id }) else {
                throw ReminderStoreError.notFound(id: id)
            }
            if reminder.completed { return reminder }
            let at = SkillDates.format(now, timeZone: timeZone)
            try append(.complete(id: id, at: at), fd: fd)
            reminder.completed = true
            reminder.completedAt = at
            return reminder
        }
    }

    /// Creates the store's directory if needed and checks that the log can be opened for appending.
    /// Throws `ReminderStoreError.io` naming the path and the reason.
    func checkWritable() throws {
        try createDirectory()
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw io("cannot open \(path) for appending") }
        close(fd)
    }

    // MARK: Folding

    func fold(_ bytes: [UInt8], warn: (String) -> Void) -> [Reminder] {
        var reminders: [Reminder] = []
        var index: [String: Int] = [:]
        let decoder = JSONDecoder()
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) { continue }
            guard let event = try? decoder.decode(ReminderEvent.self, from: Data(line)) else {
                warn("reminders store \(path) line \(lineNumber): skipped a line that is not a valid event")
                continue
            }
            switch event.op {
            case "create":
                guard let title = event.title, let createdAt = event.createdAt else {
                    warn("reminders store \(path) line \(lineNumber): skipped a create event without title or createdAt")
                    continue
                }
                guard index[event.id] == nil else {
                    warn("reminders store \(path) line \(lineNumber): skipped a second create of id \(event.id)")
                    continue
                }
                index[event.id] = reminders.count
                reminders.append(Reminder(id: event.id, title: title, due: event.due, notes: event.notes,
                                          createdAt: createdAt, completed: false, completedAt: nil))
            case "complete":
                guard let i = index[event.id] else {
                    warn("reminders store \(path) line \(lineNumber): skipped a complete event for unknown id \(event.id)")
                    continue
                }
                if !reminders[i].completed {
                    reminders[i].completed = true
                    reminders[i].completedAt = event.at
                }
            default:
                warn("reminders store \(path) line \(lineNumber): skipped an event with unknown op \"\(event.op)\"")
            }
        }
        return reminders
    }

    // MARK: File access

    /// Opens the log for reading and appending (creating it and its directory), holds `flock(LOCK_EX)` for `body`.
    private func withLockedFile<R>(_ body: (Int32) throws -> R) throws -> R {
        try createDirectory()
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw io("cannot open \(path)") }
        defer { close(fd) }   // closing the descriptor releases the lock
        try lock(fd, LOCK_EX)
        return try body(fd)
    }

    /// The whole log under `LOCK_SH`, or `nil` if it does not exist yet.
    private func readShared() throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw io("cannot open \(path)")
        }
        defer { close(fd) }
        try lock(fd, LOCK_SH)
        return try readAll(fd)
    }

    private func readAll(_ fd: Int32) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw io("cannot read \(path)")
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<n])
            offset += off_t(n)
        }
    }

    /// Appends one event as one line with one `write()` (looping only on a short write), then `fsync`s.
    /// The caller holds `LOCK_EX` on `fd`. If the log does not end with a newline (a torn last line), the
    /// new line starts with one, so the torn line stays one corrupt line and ours stays whole.
    private func append(_ event: ReminderEvent, fd: Int32) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = Array(try encoder.encode(event))
        line.append(UInt8(ascii: "\n"))
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw io("cannot stat \(path)") }
        if st.st_size > 0 {
            var last: UInt8 = 0
            if pread(fd, &last, 1, st.st_size - 1) == 1, last != UInt8(ascii: "\n") { line.insert(UInt8(ascii: "\n"), at: 0) }
        }
        var written = 0
        while written < line.count {
            let n = line.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw io("cannot write \(path)")
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw io("cannot fsync \(path)") }
        if st.st_size == 0 { syncDirectory() }   // a new file: make its directory entry durable too
    }

    private func lock(_ fd: Int32, _ operation: Int32) throws {
        while flock(fd, operation) != 0 {
            if errno != EINTR { throw io("cannot lock \(path)") }
        }
    }

    private var directory: String { (path as NSString).deletingLastPathComponent }

    private func createDirectory() throws {
        let dir = directory
        if !dir.isEmpty { try makeDirectories(dir) }
    }

    /// `mkdir -p`, reporting the first directory that cannot be made and why.
    private func makeDirectories(_ dir: String) throws {
        var st = stat()
        if stat(dir, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFDIR { return }
            throw ReminderStoreError.io(what: "cannot create directory \(dir)", reason: "a file of that name exists")
        }
        let parent = (dir as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != dir { try makeDirectories(parent) }
        if mkdir(dir, 0o755) != 0, errno != EEXIST { throw io("cannot create directory \(dir)") }
    }

    private func syncDirectory() {
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { _ = fsync(fd); close(fd) }
    }

    private func io(_ what: String) -> ReminderStoreError {
        .io(what: what, reason: String(cString: strerror(errno)))
    }

    /// A random UUID, lowercase: `"3f2c9a4e-…"`.
    static func newID() -> String { UUID().uuidString.lowercased() }
}
