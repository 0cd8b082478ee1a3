import Foundation
import XCTest

/// `skillhost health --json` (probe now, record) and `skillhost doctor` on a healthy folder.
final class HealthAndDoctorTests: EndToEndTestCase {
    func testHealthJSONListsEverySkillWithIdHealthMessageAndExitsZeroWhenAllOK() throws {
        try addSkill("echo_c.so")
        try addSkill("libUnitsSkill.so")
        let r = skillhost("health", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let entries = try r.listed("skills")
        XCTAssertEqual(entries.compactMap { $0["id"] as? String }.sorted(), ["dev.skillhost.units", "test.fixture.echo"], r.summary)
        for e in entries {
            XCTAssertEqual(e["health"] as? String, "ok", "\(e)")
            XCTAssertFalse((e["message"] as? String ?? "").isEmpty, "every answer has a message: \(e)")
        }
    }

    func testListJSONAfterHealthShowsTheProbesAnswer() throws {
        try addSkill("echo_c.so")
        try addSkill("libUnitsSkill.so")
        let health = skillhost("health", "--json")
        XCTAssertEqual(health.exitCode, 0, health.summary)
        let probed = try health.listed("skills")
        let unitsMessage = try XCTUnwrap(probed.first("id", "dev.skillhost.units")?["message"] as? String, health.summary)

        let list = skillhost("list", "--json")
        XCTAssertEqual(list.exitCode, 0, list.summary)
        let skills = try list.listedSkills()
        for s in skills { XCTAssertEqual(s["health"] as? String, "ok", "\(s)") }
        let units = try XCTUnwrap(skills.first("id", "dev.skillhost.units"))
        XCTAssertEqual((units["healthDetail"] as? [String: Any])?["message"] as? String, unitsMessage,
                       "list shows what the last probe recorded: \(list.summary)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/.local/state/skillhost/health.json"),
                      "health is recorded under $XDG_STATE_HOME/skillhost")
    }

    func testHealthWithNoSkillsPrintsAnEmptyArrayAndExitsZero() throws {
        let r = skillhost("health", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertEqual(try r.listed("skills").count, 0)
    }

    func testHealthIgnoresRefusedFilesAndProbesTheRest() throws {
        try addSkill("echo_c.so")
        try addSkill("init_crash.so")
        try addSkill("aarch64.so")
        let r = skillhost("health", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertEqual(try r.listed("skills").compactMap { $0["id"] as? String }, ["test.fixture.echo"])
    }

    func testDoctorOnAHealthyFolderExitsZeroWithNoProblems() throws {
        try addSkill("echo_c.so")
        try addSkill("libUnitsSkill.so")
        let r = skillhost("doctor", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let d = try r.jsonObject()
        XCTAssertEqual(d["problems"] as? Int, 0)
        XCTAssertEqual(d["skills"] as? Int, 2)
        XCTAssertEqual((d["refused"] as? [Any])?.count, 0)
        XCTAssertEqual((d["conflicts"] as? [Any])?.count, 0)
        let folder = try XCTUnwrap((d["folders"] as? [[String: Any]])?.first("path", skills), r.summary)
        XCTAssertEqual(folder["exists"] as? Bool, true)
        XCTAssertNil(folder["problem"])

        let text = skillhost("doctor")
        XCTAssertEqual(text.exitCode, 0, text.summary)
        XCTAssertTrue(text.stdout.contains("No problems found."), text.summary)
    }

    func testDoctorTextNamesEachRefusedFileWithReasonAndFix() throws {
        try addSkill("echo_c.so")
        let bad = try addSkill("aarch64.so")
        let r = skillhost("doctor")
        XCTAssertEqual(r.exitCode, 1, r.summary)
        XCTAssertTrue(r.stdout.contains("refused [wrong_architecture]") && r.stdout.contains(bad), r.summary)
        XCTAssertTrue(r.stdout.contains("fix:"), r.summary)
        XCTAssertTrue(r.stdout.contains("1 problem found."), r.summary)
    }
}
