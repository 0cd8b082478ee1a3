import Glibc

/// A small state file shared by separate `skillhost` processes (health, rate-limit buckets,
/// idempotency records): read without a lock (writers replace the file with an atomic `rename`, so a
/// reader sees the old or the new file, never half of one), changed under an exclusive `flock` on
/// `PATH.lock` so two processes' read-modify-writes both count. `read`, `locked` and `replace` log
/// failures and go on; the throwing forms (`load`, `lockedOrFail`, `store`) serve the guarantees that
/// fail closed (idempotency, rate limits, health) and say why the state could not be read or recorded.
struct StateFile: Sendable {
    let path: String

    /// Why a state file could not be read or written: the path, what was being done, and `errno`'s text.
    struct Failure: Error, Sendable, CustomStringConvertible {
        let path: String
        let action: String
        let reason: String

        init(_ action: String, _ path: String, errno code: Int32 = errno) {
            self.action = action
            self.path = path
            reason = String(cString: strerror(code))
        }

        init(_ action: String, _ path: String, reason: String) {
            self.action = action
            self.path = path
            self.reason = reason
        }

        var description: String { "cannot \(action) \(path): \(reason)" }

        /// The refusal of a call whose guarantee needs this state: `unavailable`, naming the file, its
        /// folder, the reason, and the space left there.
        func refusal(_ guarantee: String, skillID: String? = nil) -> SkillError {
            let folder = PathText.directory(of: path)
            return SkillError(.unavailable, "the host cannot record \(guarantee), so the call was refused (guarantees fail closed): \(description)" + StateFile.spaceNote(folder),
                              hint: "make room in \(folder) (or fix the file named), then try again", skillID: skillID)
        }
    }

    /// " (the state folder F: N bytes free of M, I inodes free)" from the nearest existing folder's
    /// file system, or "" when none can be asked.
    static func spaceNote(_ folder: String) -> String {
        var vfs = statvfs()
        var dir = folder
        while statvfs(dir, &vfs) != 0 {
            let up = PathText.directory(of: dir)
            if up == dir || up.isEmpty { return "" }
            dir = up
        }
        let free = UInt64(vfs.f_bavail) * UInt64(vfs.f_frsize), total = UInt64(vfs.f_blocks) * UInt64(vfs.f_frsize)
        return " (the state folder \(folder): \(free) bytes free of \(total), \(vfs.f_favail) inodes free)"
    }

    /// The whole file; nil when it does not exist. Any other failure (a folder where the file should
    /// be, EIO, EACCES, a file where a folder should be) is thrown, never read as "no file".
    func load() throws(Failure) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure("read", path)
        }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Failure("read", path) }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    /// `locked`, but a lock that cannot be taken (its folder cannot be made, the lock file cannot be
    /// opened) is thrown instead of running `body` unlocked.
    func lockedOrFail<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        let lock = try lockOrFail()
        defer { unlock(lock) }
        return try body()
    }

    /// Takes the lock `lockedOrFail` takes and returns its descriptor, or throws why it cannot;
    /// `unlock` releases it. For callers that suspend while holding it.
    func lockOrFail() throws(Failure) -> Int32 {
        try Self.makeFolder(PathText.directory(of: path))
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw Failure("lock", path + ".lock") }
        while flock(lock, LOCK_EX) != 0 {
            if errno != EINTR {
                let failure = Failure("lock", path + ".lock")
                close(lock)
                throw failure
            }
        }
        return lock
    }

    /// `mkdir -p` (mode 0700), naming the folder and `errno` when one cannot be made.
    static func makeFolder(_ dir: String) throws(Failure) {
        var st = stat()
        if stat(dir, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw Failure("use the folder", dir, reason: "it is not a folder") }
            return
        }
        guard errno == ENOENT else { throw Failure("use the folder", dir) }
        let up = PathText.directory(of: dir)
        if up != dir && !up.isEmpty { try makeFolder(up) }
        if mkdir(dir, 0o700) != 0 && errno != EEXIST { throw Failure("create the folder", dir) }
    }

    /// Replaces the file with `bytes` (a temporary file next to it, then `rename`), or throws why not;
    /// the old file is then unchanged. (No `fsync`: the guarantees are about other processes and a
    /// killed host, not power loss; a full disk shows at `write`.)
    func store(_ bytes: [UInt8]) throws(Failure) {
        let tmp = path + ".tmp.\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure("write", tmp) }
        if !Self.writeAll(fd, bytes) {
            let failure = Failure("write", path)
            close(fd)
            unlink(tmp)
            throw failure
        }
        close(fd)
        if rename(tmp, path) != 0 {
            let failure = Failure("replace", path)
            unlink(tmp)
            throw failure
        }
    }

    /// The whole file, or nil when it does not exist or cannot be read.
    func read() -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return Self.readAll(fd)
    }

    /// Runs `body` holding the exclusive lock of this file (creating its folder when missing).
    func locked<T>(_ body: () -> T) -> T {
        let lock = lock()
        defer { unlock(lock) }
        return body()
    }

    /// Takes the lock `locked` takes and returns its descriptor (-1 when the lock file cannot be
    /// opened); `unlock` releases it. For callers that suspend while holding it.
    func lock() -> Int32 {
        let dir = PathText.directory(of: path)
        if access(dir, F_OK) != 0 { try? makeDirectories(dir) }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if lock >= 0 {
            while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        }
        return lock
    }

    func unlock(_ lock: Int32) {
        if lock >= 0 { close(lock) }  // closing releases the lock
    }

    /// Replaces the file with `bytes`: a temporary file next to it, then `rename`.
    func replace(with bytes: [UInt8]) {
        let tmp = path + ".tmp.\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            HostLog.warning("cannot write \(tmp): \(String(cString: strerror(errno)))")
            return
        }
        let ok = Self.writeAll(fd, bytes)
        close(fd)
        if !ok || rename(tmp, path) != 0 {
            HostLog.warning("cannot write \(path): \(String(cString: strerror(errno)))")
            unlink(tmp)
        }
    }

    /// Writes all of `bytes` to `fd`, retrying on EINTR and short writes; false on an error.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Writes all of `buf` to `fd`, retrying on EINTR and short writes; false on an error.
    static func writeAll(_ fd: Int32, _ buf: UnsafeRawBufferPointer) -> Bool {
        var off = 0
        while off < buf.count {
            let n = write(fd, buf.baseAddress! + off, buf.count - off)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    /// The rest of `fd`'s file. Read in one go into a buffer of the size `fstat` gives (a warm
    /// `list` reads a 300 KB scan cache: growing an array chunk by chunk copied it three times), then
    /// by chunks if the file grew meanwhile.
    static func readAll(_ fd: Int32) -> [UInt8] {
        var st = stat()
        let expected = fstat(fd, &st) == 0 && st.st_size > 0 ? Int(st.st_size) : 0
        var out = [UInt8](unsafeUninitializedCapacity: expected + 1) { buf, count in
            count = 0
            while count < buf.count {
                let n = Glibc.read(fd, buf.baseAddress! + count, buf.count - count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                count += n
            }
        }
        guard out.count == expected + 1 else { return out }  // the end of the file came first
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}
