import Glibc

/// A small state file shared by separate `skillhost` processes (health, rate-limit buckets,
/// idempotency records): read without a lock (writers replace the file with an atomic `rename`, so a
/// reader sees the old or the new file, never half of one), changed under an exclusive `flock` on
/// `PATH.lock` so two processes' read-modify-writes both count. Failures are logged, never thrown.
struct StateFile: Sendable {
    let path: String

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

    static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}
