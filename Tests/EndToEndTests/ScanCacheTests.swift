import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The scan cache ($XDG_STATE_HOME/skillhost/scan-cache): an unchanged file is not read again by
/// a scan process, a changed one is.
final class ScanCacheTests: EndToEndTestCase {
    func testSecondListAnswersFromCacheWithoutRerunningTheHangingScan() throws {
        try addSkill("echo_c.so")
        let hang = try addSkill("init_hang.so")

        let first = try listAll(["--scan-timeout", "1000"])
        XCTAssertGreaterThanOrEqual(first.result.elapsed, 1.0, "the first list waits out the 1 s scan deadline: \(first.result.summary)")
        XCTAssertEqual(first.refused.first("file", hang)?["reason"] as? String, "timed_out", first.result.summary)

        let second = try listAll(["--scan-timeout", "1000"])
        XCTAssertLessThan(second.result.elapsed, 0.9, "the second list must answer from the cache: \(second.result.summary)")
        XCTAssertEqual(second.refused.first("file", hang)?["reason"] as? String, "timed_out", "the verdict is cached: \(second.result.summary)")
        XCTAssertEqual(second.skills.compactMap { $0["id"] as? String }, ["test.fixture.echo"], second.result.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/.local/state/skillhost/scan-cache"),
                      "the cache lives under $XDG_STATE_HOME/skillhost")
    }

    func testTouchingAFileMakesItBeScannedAgain() throws {
        try addSkill("echo_c.so")
        let hang = try addSkill("init_hang.so")
        _ = try listAll(["--scan-timeout", "1000"])
        let cached = try listAll(["--scan-timeout", "1000"])
        XCTAssertLessThan(cached.result.elapsed, 0.9, cached.result.summary)

        // A new modification time: the file is read again, so the deadline is waited out again.
        XCTAssertEqual(utimensat(AT_FDCWD, hang, nil, 0), 0, "touch")
        let again = try listAll(["--scan-timeout", "1000"])
        XCTAssertGreaterThanOrEqual(again.result.elapsed, 1.0, "a touched file is rescanned: \(again.result.summary)")
        XCTAssertEqual(again.refused.first("file", hang)?["reason"] as? String, "timed_out", again.result.summary)
    }

    func testReplacingAFileInPlaceUnderTheSameNameRegistersTheNewSkill() throws {
        let path = try addSkill("echo_c.so")
        let before = try listAll()
        XCTAssertEqual(before.skills.compactMap { $0["id"] as? String }, ["test.fixture.echo"], before.result.summary)

        // Overwrite the same inode with another skill's bytes (what `cp new.so skills.d/echo_c.so` does).
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: fixtures + "/slow.so")))
        try handle.close()

        let after = try listAll()
        XCTAssertEqual(after.skills.compactMap { $0["id"] as? String }, ["test.fixture.slow"], after.result.summary)
        XCTAssertEqual(after.skills.first?["path"] as? String, path, after.result.summary)
        XCTAssertEqual(after.refused.count, 0, after.result.summary)
        let r = try assertInvokeOK(invoke("fixture.slow", #"{"ms":1}"#), skill: "test.fixture.slow")
        XCTAssertEqual((r as? [String: Any])?["sleptMs"] as? Int, 1)
        try assertInvokeError(invoke("fixture.echo", #"{"text":"gone"}"#), kind: "no_skill", exitCode: 11)
    }

    func testReplacingAFileByRenameUnderTheSameNameRegistersTheNewSkill() throws {
        let path = try addSkill("echo_c.so")
        _ = try listAll()
        // A new file renamed over the old one (a new inode), as installers do.
        let tmp = try copy(fixtures + "/progress.so", into: skills, as: ".progress.tmp")
        XCTAssertEqual(rename(tmp, path), 0)
        let after = try listAll()
        XCTAssertEqual(after.skills.compactMap { $0["id"] as? String }, ["test.fixture.progress"], after.result.summary)
        XCTAssertEqual(after.skills.first?["path"] as? String, path)
    }

    func testFixingARefusedFileMakesItRegister() throws {
        // A truncated copy first (refused), then the complete file under the same name.
        let path = try addSkill("truncated.so", as: "echo_c.so")
        let before = try listAll()
        XCTAssertEqual(before.refused.first("file", path)?["reason"] as? String, "truncated", before.result.summary)
        try addSkill("echo_c.so")
        let after = try listAll()
        XCTAssertEqual(after.refused.count, 0, after.result.summary)
        XCTAssertEqual(after.skills.compactMap { $0["id"] as? String }, ["test.fixture.echo"], after.result.summary)
        try assertEchoStillServes()
    }
}
