import Glibc
import XCTest
@testable import SkillHostCore

/// A started child (a worker, the scan process) holds exactly its layout's descriptors and the files
/// passed to it: nothing else the host holds, not even a descriptor someone left without close-on-exec.
final class ChildProcessTests: XCTestCase {
    func testAChildInheritsOnlyItsLayoutAndThePassedFiles() throws {
        // What a careless parent of the host leaves behind: no O_CLOEXEC, at a number far above the rest.
        let opened = open("/dev/null", O_RDONLY)
        let leaked = fcntl(opened, F_DUPFD, 200)
        close(opened)
        XCTAssertGreaterThanOrEqual(leaked, 200)
        defer { close(leaked) }
        let passed = open("/dev/zero", O_RDONLY | O_CLOEXEC)
        defer { close(passed) }
        var err: [Int32] = [-1, -1], result: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&err), 0)
        XCTAssertEqual(pipe(&result), 0)
        for fd in err + result { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(err[0]); close(result[0]) }

        let pid = try ChildProcess.spawn(executable: "/bin/sh", arguments: ["-c", "ls /proc/self/fd >&2"],
                                         layout: .scan(stderr: err[1], fd3: result[1]), passing: [passed])
        close(err[1])
        close(result[1])
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(err[0], &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            text += chunk[0..<n]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}

        let listed = String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        // ls opens the folder it lists: one descriptor more, the lowest free one (5).
        XCTAssertEqual(listed.sorted(), [0, 1, 2, 3, 4, 5], "the child's descriptors: \(listed)")
        XCTAssertFalse(listed.contains(Int(leaked)), "a descriptor without close-on-exec reached the child: \(listed)")
    }
}
