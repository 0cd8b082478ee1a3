import FoundationEssentials
import Glibc

/// Keeps the host's standard output for the host alone.
///
/// In-process skill code can write to file descriptor 1 at any time (a stray `printf`, a library's
/// banner). `reserve()` moves the real stdout to a private descriptor and points fd 1 at stderr, so
/// skill noise lands in the log stream and the host's results (JSON for scripts, the MCP protocol)
/// stay clean. Call it once, early, before any skill is loaded; then write results with `write`.
public enum ProtectedOutput {
    nonisolated(unsafe) private static var fd: Int32 = 1

    /// Moves the real stdout aside. Idempotent.
    public static func reserve() {
        guard fd == 1 else { return }
        fflush(nil)
        let saved = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0 else { return }
        fd = saved
        dup2(2, 1)
    }

    /// Writes `text` to the host's real standard output.
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = StateFile.writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` (UTF-8) to the host's real standard output.
    public static func write(bytes: [UInt8]) {
        _ = StateFile.writeAll(fd, bytes)
    }

    /// The descriptor of the host's real standard output (for terminal queries such as its width).
    public static var descriptor: Int32 { fd }

    /// Whether the host's real standard output is a terminal.
    public static var isTerminal: Bool { isatty(fd) == 1 }
}
