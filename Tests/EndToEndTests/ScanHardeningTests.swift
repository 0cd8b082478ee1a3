import Foundation
import XCTest

/// Issue 12, items 10, 11 and 16: the scan cache heals a damaged entry, sees a `chmod`, and every
/// candidate file the scan cannot use is listed with a reason.
final class ScanHardeningTests: EndToEndTestCase {
    var cachePath: String { home + "/.local/state/skillhost/scan-cache" }

    // MARK: - Item 10

    func testABitFlippedManifestInTheScanCacheIsDroppedAndRescanned() throws {
        try addSkill("echo_c.so")
        XCTAssertEqual(skillhost("list", "--json").exitCode, 0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cachePath)))
        // The manifests' texts come last; flip the top bit of a byte inside the last input schema,
        // which makes it invalid UTF-8 as well as another text.
        let needle = Array(#""type":"string""#.utf8)
        let at = try XCTUnwrap(stride(from: bytes.count - needle.count, through: 0, by: -1).first { Array(bytes[$0..<$0 + needle.count]) == needle })
        bytes[at + 9] ^= 0x80
        try Data(bytes).write(to: URL(fileURLWithPath: cachePath))

        let list = skillhost("list", "--json")
        XCTAssertEqual(list.exitCode, 0, list.summary)
        XCTAssertNotNil(String(validating: Data(list.stdout.utf8), as: UTF8.self))
        let skills = try list.listedSkills()
        XCTAssertEqual(skills.first("id", "test.fixture.echo").flatMap { ($0["intents"] as? [Any])?.count }, 2, list.summary)
        try assertInvokeOK(invoke("fixture.echo", #"{"text":"healed"}"#), skill: "test.fixture.echo")
        let healed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cachePath)))
        XCTAssertNotEqual(healed, bytes, "the cache was rewritten from a fresh scan")
    }

    func testADamagedScanCacheIndexIsDroppedWhole() throws {
        try addSkill("echo_c.so")
        XCTAssertEqual(skillhost("list", "--json").exitCode, 0)
        var text = try String(contentsOfFile: cachePath, encoding: .utf8)
        text = text.replacingOccurrences(of: "fixture.echo.strict", with: "fixture.echo.strikt")  // still valid JSON
        try Data(text.utf8).write(to: URL(fileURLWithPath: cachePath))
        let list = skillhost("list", "--json")
        let intents = try XCTUnwrap(list.listedSkills().first("id", "test.fixture.echo")?["intents"] as? [[String: Any]], list.summary)
        XCTAssertEqual(Set(intents.compactMap { $0["name"] as? String }), ["fixture.echo", "fixture.echo.strict"], list.summary)
    }

    // MARK: - Item 11

    /// Runs `skillhost ARGS` as the unprivileged user nobody when the tests run as root (root reads
    /// a mode-000 file anyway), else as the current user.
    func unprivileged(_ args: [String]) -> CommandResult {
        guard getuid() == 0 else { return skillhost(args) }
        return Run.program("/usr/bin/env", ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", E2E.skillhostPath] + args + ["--skills-dir", skills],
                           environment: environment, currentDirectory: work)
    }

    func testAPermissionFixIsSeenAtTheNextScan() throws {
        let file = try addSkill("echo_c.so")
        if getuid() == 0 {
            for d in [home, home + "/.local", home + "/.local/state"] { chown(d, 65534, 65534) }
        }
        chmod(file, 0o000)
        let refused = unprivileged(["list", "--all", "--json"])
        XCTAssertEqual(refused.exitCode, 0, refused.summary)
        XCTAssertEqual((try refused.jsonObject()["refused"] as? [Any])?.count, 1, "an unreadable file is refused: \(refused.summary)")
        chmod(file, 0o644)
        let fixed = unprivileged(["list", "--all", "--json"])
        let o = try fixed.jsonObject()
        XCTAssertEqual((o["refused"] as? [Any])?.count, 0, "the fix is seen without a touch: \(fixed.summary)")
        XCTAssertEqual((o["skills"] as? [[String: Any]])?.first("id", "test.fixture.echo") != nil, true, fixed.summary)
    }

    // MARK: - Item 16

    func testUnusableCandidatesAreListedWithReasons() throws {
        try addSkill("echo_c.so")
        // A valid skill under a name that is not UTF-8 (made with raw bytes).
        let raw = Array((skills + "/bad").utf8) + [0xff] + Array("name.so".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: raw.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o755) } }
        XCTAssertGreaterThanOrEqual(fd, 0)
        let so = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixtures + "/echo_c.so")))
        XCTAssertEqual(so.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }, so.count)
        close(fd)
        symlink("/nonexistent/skill.so", skills + "/dangling.so")
        symlink("loop-b.so", skills + "/loop-a.so")
        symlink("loop-a.so", skills + "/loop-b.so")

        let all = try listAll()
        let byFile = Dictionary(all.refused.map { ($0["file"] as? String ?? "", $0["reason"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byFile[skills + "/bad\\xffname.so"], "bad_file_name", all.result.summary)
        XCTAssertEqual(byFile[skills + "/dangling.so"], "broken_link", all.result.summary)
        XCTAssertEqual(byFile[skills + "/loop-a.so"], "broken_link", all.result.summary)
        XCTAssertEqual(byFile[skills + "/loop-b.so"], "broken_link", all.result.summary)
        XCTAssertEqual(all.refused.count, 4, all.result.summary)

        let doctor = skillhost("doctor")
        XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
        XCTAssertFalse(doctor.stdout.contains("No problems found"), doctor.summary)
        XCTAssertTrue(doctor.stdout.contains("\"/nonexistent/skill.so\" whose target does not exist"), doctor.summary)
        XCTAssertTrue(doctor.stdout.contains("loop of links"), doctor.summary)
    }
}
