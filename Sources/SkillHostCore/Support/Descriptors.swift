import Glibc

/// File descriptors created close-on-exec from the start, so that a child another thread starts at
/// the same moment never inherits them (a worker that inherited another worker's pipe end would keep
/// it open, and that worker would then not see its host go away).
public enum Descriptors {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    /// pipe2(2), looked up with dlsym: Swift's Glibc module hides it (it needs _GNU_SOURCE). Not variadic.
    private static let pipe2: Pipe2? = {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    }()

    /// A pipe (read end, write end), both close-on-exec; nil with errno set on failure.
    public static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard let pipe2, pipe2(&fds, O_CLOEXEC) == 0 else { return nil }
        return (fds[0], fds[1])
    }
}
