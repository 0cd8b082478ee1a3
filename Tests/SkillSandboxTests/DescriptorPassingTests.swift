import Foundation
import Glibc
import SkillSandboxC
import XCTest

/// `skh_send_fds` / `skh_recv_fds`: how the host hands checked files to `skillhost-scan` (several
/// descriptors per message, in order), and what a message that does not fit leaves behind.
final class DescriptorPassingTests: XCTestCase {
    var pair: [Int32] = [-1, -1]

    override func setUpWithError() throws {
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair), 0)
    }

    override func tearDown() {
        for fd in pair where fd >= 0 { close(fd) }
    }

    /// Sends descriptors of `count` distinct files (/dev/null, /dev/zero, /dev/urandom) with `bytes`; returns them.
    func send(_ count: Int, bytes: [UInt8]) -> [Int32] {
        let files: [String] = ["/dev/null", "/dev/zero", "/dev/urandom"]
        let fds = files.prefix(count).map { open($0, O_RDONLY | O_CLOEXEC) }
        let n = bytes.withUnsafeBytes { b in fds.withUnsafeBufferPointer { skh_send_fds(pair[0], $0.baseAddress, Int32(count), b.baseAddress, b.count) } }
        XCTAssertEqual(n, bytes.count)
        return fds
    }

    func receive(capacity: Int) -> (n: Int, fds: [Int32], truncated: Bool, bytes: [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: capacity)
        var fds = [Int32](repeating: -1, count: Int(SKH_MAX_FDS_PER_MESSAGE))
        var count: Int32 = 0, truncated: Int32 = 0
        let n = buffer.withUnsafeMutableBytes { b in
            fds.withUnsafeMutableBufferPointer { skh_recv_fds(pair[1], $0.baseAddress, &count, &truncated, b.baseAddress, b.count) }
        }
        return (n, Array(fds[0..<Int(count)]), truncated != 0, Array(buffer[0..<max(0, min(n, capacity))]))
    }

    func identity(_ fd: Int32) -> (UInt, UInt) {
        var st = stat()
        XCTAssertEqual(fstat(fd, &st), 0)
        return (UInt(st.st_dev), UInt(st.st_ino))
    }

    /// The same files come out, in order, as new close-on-exec descriptors, with the bytes.
    func testDescriptorsArriveInOrderWithTheBytes() {
        let sent = send(3, bytes: Array("3\0a\0b\0".utf8))
        defer { sent.forEach { close($0) } }
        let got = receive(capacity: 64)
        XCTAssertEqual(got.n, 6)
        XCTAssertFalse(got.truncated)
        XCTAssertEqual(got.bytes, Array("3\0a\0b\0".utf8))
        XCTAssertEqual(got.fds.count, 3)
        for (s, r) in zip(sent, got.fds) {
            XCTAssertNotEqual(s, r)
            XCTAssertTrue(identity(s) == identity(r))
            XCTAssertEqual(fcntl(r, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC, "close-on-exec")
            close(r)
        }
    }

    /// A message longer than the buffer: truncated, its descriptors closed, the bytes that fit kept.
    func testATruncatedMessageClosesItsDescriptors() {
        let before = openDescriptors()
        let sent = send(2, bytes: Array("2\0xxxxxxxxxxxxxxxx".utf8))
        sent.forEach { close($0) }
        let got = receive(capacity: 4)
        XCTAssertTrue(got.truncated)
        XCTAssertEqual(got.fds, [])
        XCTAssertEqual(got.bytes, Array("2\0xx".utf8))
        XCTAssertEqual(openDescriptors(), before, "nothing received stays open")
    }

    func testACountOutOfRangeIsRefused() {
        var fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        XCTAssertEqual(skh_send_fds(pair[0], &fd, 0, nil, 0), -1)
        XCTAssertEqual(errno, EINVAL)
        let many = [Int32](repeating: fd, count: Int(SKH_MAX_FDS_PER_MESSAGE) + 1)
        XCTAssertEqual(many.withUnsafeBufferPointer { skh_send_fds(pair[0], $0.baseAddress, Int32($0.count), nil, 0) }, -1)
        XCTAssertEqual(errno, EINVAL)
    }

    func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }
}
