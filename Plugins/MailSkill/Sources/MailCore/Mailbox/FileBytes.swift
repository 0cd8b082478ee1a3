import Glibc

/// Reads a whole regular file with POSIX calls, so a failure names the errno reason precisely.
///
/// Contract: throws `FileBytes.Failure` with a short reason ("No such file or directory", "Permission
/// denied", "not a regular file", "larger than 32 MB"); never reads more than `limit` bytes.
enum FileBytes {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: errnoText()) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure(description: errnoText()) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw Failure(description: "not a regular file") }
        guard Int(st.st_size) <= limit else { throw Failure(description: "larger than \(limit / 1_048_576) MB") }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf in Glibc.read(fd, buf.baseAddress! + done, buf.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: errnoText())
            }
            if n == 0 { break }   // the file shrank while reading: keep what is there
            done += n
        }
        return Array(bytes[0..<done])
    }

    /// At most `count` bytes from `offset` (fewer at the end of the file).
    static func read(_ path: String, offset: Int, count: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: errnoText()) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf in pread(fd, buf.baseAddress! + done, buf.count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: errnoText())
            }
            if n == 0 { break }
            done += n
        }
        return Array(bytes[0..<done])
    }

    /// Reads a regular file front to back in chunks of `chunk` bytes, handing each to `body` with its
    /// offset; returns the size read. Memory: one chunk.
    static func stream(_ path: String, chunk: Int, _ body: (ArraySlice<UInt8>, Int) -> Void) throws(Failure) -> Int {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: errnoText()) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure(description: errnoText()) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw Failure(description: "not a regular file") }
        var buffer = [UInt8](repeating: 0, count: chunk)
        var offset = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: errnoText())
            }
            if n == 0 { return offset }
            body(buffer[0..<n], offset)
            offset += n
        }
    }

    /// What `stat` says about `path`: a directory, a regular file, something else, or nil with the reason.
    enum Kind { case directory, file(size: Int), other }

    static func kind(_ path: String) -> Result<Kind, Failure> {
        var st = stat()
        guard stat(path, &st) == 0 else { return .failure(Failure(description: errnoText())) }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .success(.directory)
        case S_IFREG: return .success(.file(size: Int(st.st_size)))
        default: return .success(.other)
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
