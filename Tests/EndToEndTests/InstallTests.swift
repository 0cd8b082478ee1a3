import Foundation
import XCTest

/// `skillhost install FILE`: validate, then copy into the skill folder atomically.
final class InstallTests: EndToEndTestCase {
    /// Every entry of the skill folder, hidden ones included (a leftover temporary file would show).
    func folderEntries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: skills).sorted()
    }

    func testGoodFileLandsInTheFolderNotGroupOrWorldWritableAndIsListedNextTime() throws {
        let source = fixtures + "/echo_c.so"
        let r = skillhost("install", source, "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let o = try r.jsonObject()
        let target = skills + "/echo_c.so"
        XCTAssertEqual(o["ok"] as? Bool, true)
        XCTAssertEqual(o["id"] as? String, "test.fixture.echo")
        XCTAssertEqual(o["path"] as? String, target)
        XCTAssertEqual(try folderEntries(), ["echo_c.so"], "nothing but the installed file (no temporary leftovers)")
        XCTAssertEqual(mode(of: target) & 0o022, 0, "mode \(String(mode(of: target), radix: 8)) must not be group/world-writable")
        XCTAssertNotEqual(mode(of: target) & 0o100, 0, "the owner can still read and map it")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), try Data(contentsOf: URL(fileURLWithPath: source)))

        let list = try listAll()
        XCTAssertEqual(list.skills.compactMap { $0["id"] as? String }, ["test.fixture.echo"], list.result.summary)
        XCTAssertEqual(list.skills.first?["path"] as? String, target)
        XCTAssertEqual(list.refused.count, 0)
        try assertEchoStillServes()
    }

    func testInstallingTheSameFileNameAgainReplacesItInPlace() throws {
        XCTAssertEqual(skillhost("install", fixtures + "/echo_c.so", "--json").exitCode, 0)
        let again = skillhost("install", fixtures + "/echo_c.so", "--json")
        XCTAssertEqual(again.exitCode, 0, "an upgrade in place under the same name is allowed: \(again.summary)")
        XCTAssertEqual(try folderEntries(), ["echo_c.so"])
        try assertEchoStillServes()
    }

    func testBadFilesAreRefusedWithTheirKindsExitCodeAndNothingAppearsInTheFolder() throws {
        let cases: [(file: String, kind: String, exit: Int32, contains: String)] = [
            ("aarch64.so", "incompatible", 16, "AArch64"),
            ("abi_major_next.so", "incompatible", 16, "2.0"),
            ("empty.so", "load_failed", 17, "empty"),
            ("truncated.so", "load_failed", 17, "truncated"),
            ("no_entry.so", "load_failed", 17, "skillhost_entry"),
            ("missing_id.so", "load_failed", 17, "\"id\""),
            ("init_crash.so", "load_failed", 17, "SIGSEGV"),
        ]
        for c in cases {
            let source = fixtures + "/" + c.file
            let r = skillhost("install", source, "--json")
            try assertInvokeError(r, kind: c.kind, exitCode: c.exit, messageContains: [source, c.contains])
            XCTAssertEqual(try folderEntries(), [], "\(c.file) refused: nothing may appear in the folder, not even a temporary file")
        }
        XCTAssertEqual(try skillhost("list", "--json").listedSkills().count, 0)
    }

    func testInstallingAnotherFileWithAnIdAlreadyInstalledIsRefused() throws {
        XCTAssertEqual(skillhost("install", fixtures + "/echo_c.so", "--json").exitCode, 0)
        // The same skill id under another file name.
        let other = try copy(fixtures + "/echo_c.so", into: work, as: "echo_renamed.so")
        let r = skillhost("install", other, "--json")
        let e = try assertInvokeError(r, kind: "invalid_input", exitCode: 10,
                                      messageContains: ["test.fixture.echo", skills + "/echo_c.so"])
        XCTAssertFalse((e["hint"] as? String ?? "").isEmpty, "the refusal says what to do: \(e)")
        XCTAssertEqual(try folderEntries(), ["echo_c.so"], "nothing new in the folder")
        try assertEchoStillServes()
    }

    func testInstallingANewerVersionUnderAnotherNameShadowsTheOlderOne() throws {
        XCTAssertEqual(skillhost("install", fixtures + "/duplicate_id_a.so", "--json").exitCode, 0)
        let r = skillhost("install", fixtures + "/duplicate_id_b.so", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let shadows = try XCTUnwrap(try r.jsonObject()["shadows"] as? [String: Any], r.summary)
        XCTAssertEqual(shadows["version"] as? String, "1.0.0")
        XCTAssertEqual(shadows["path"] as? String, skills + "/duplicate_id_a.so")
        XCTAssertEqual(try folderEntries(), ["duplicate_id_a.so", "duplicate_id_b.so"], "the old file stays, for a rollback")
        try assertInvokeOK(invoke("fixture.dup_b"), skill: "test.fixture.dup")
    }

    func testInstallingAnOlderOrEqualVersionUnderAnotherNameIsRefused() throws {
        XCTAssertEqual(skillhost("install", fixtures + "/duplicate_id_b.so", "--json").exitCode, 0)
        for older in ["duplicate_id_a.so", "duplicate_id_c.so"] {
            let r = skillhost("install", fixtures + "/" + older, "--json")
            let e = try assertInvokeError(r, kind: "invalid_input", exitCode: 10, messageContains: ["test.fixture.dup", "duplicate_id_b.so", "2.0.0"])
            XCTAssertTrue((e["hint"] as? String ?? "").contains("roll back"), "\(e)")
        }
        XCTAssertEqual(try folderEntries(), ["duplicate_id_b.so"])
    }

    func testInstallTextOutputNamesTheSkillAndTarget() throws {
        let r = skillhost("install", fixtures + "/libUnitsSkill.so")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.contains("dev.skillhost.units") && r.stdout.contains(skills + "/libUnitsSkill.so"), r.summary)
        let result = try assertInvokeOK(invoke("units.convert", #"{"value":1,"from":"ft","to":"in"}"#), skill: "dev.skillhost.units")
        XCTAssertEqual(number((result as? [String: Any])?["value"]), 12)
    }

    /// Issue 12, item 17: parallel installs of one id and version under different names take turns;
    /// the first wins and the others are refused, so no duplicate_id refusal is left behind.
    func testParallelInstallsOfOneIdUnderDifferentNamesInstallOnlyOne() throws {
        let sources = work + "/sources"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        let names = ["echo_one.so", "echo_two.so", "echo_three.so"]
        for n in names { try copy(fixtures + "/echo_c.so", into: sources, as: n) }
        let results = ThreadSafeResults(count: names.count)
        let (env, dir, folder) = (environment, work, skills)
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            results.set(i, Run.program(E2E.skillhostPath, ["install", sources + "/" + names[i], "--json", "--skills-dir", folder],
                                       environment: env, currentDirectory: dir, timeout: 60))
        }
        let all = results.all
        XCTAssertEqual(all.map(\.exitCode).sorted(), [0, 10, 10], all.map(\.summary).joined(separator: "\n"))
        for r in all where r.exitCode != 0 {
            XCTAssertTrue(r.stdout.contains("already provided"), r.summary)
        }
        let list = try listAll()
        XCTAssertEqual(list.skills.count, 1, list.result.summary)
        XCTAssertEqual(list.refused.count, 0, "no duplicate_id left behind: \(list.result.summary)")
        XCTAssertEqual(try folderEntries().count, 1)
    }
}

/// Results of concurrent runs, stored from several threads.
final class ThreadSafeResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [CommandResult?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ r: CommandResult) { lock.lock(); results[i] = r; lock.unlock() }
    var all: [CommandResult] { lock.lock(); defer { lock.unlock() }; return results.compactMap { $0 } }
}
