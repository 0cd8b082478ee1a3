import Foundation
import XCTest

/// Where skills live without --skills-dir: $SKILLHOST_PATH, else ./skills.d when it exists, then the
/// user's folder ($XDG_DATA_HOME/skillhost/skills.d), then PREFIX/lib/skillhost/skills.d; install goes
/// to the first writable folder and says which; doctor shows the path.
final class SearchPathTests: EndToEndTestCase {
    /// `skillhost ARGS` with no --skills-dir, from `directory`.
    func plain(_ args: [String], in directory: String? = nil) -> CommandResult {
        Run.program(E2E.skillhostPath, args, environment: environment, currentDirectory: directory ?? work)
    }

    var userFolder: String { home + "/.local/share/skillhost/skills.d" }

    func testInstallWithoutAFolderGoesToTheUsersFolderAndIsSeenFromAnywhere() throws {
        let r = plain(["install", fixtures + "/echo_c.so"])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.contains("→ \(userFolder)/echo_c.so (the user folder of the search path"), r.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: userFolder + "/echo_c.so"))
        // From / (no ./skills.d there): the user's folder is on the path.
        let list = plain(["list", "--json"], in: "/")
        XCTAssertEqual(try list.listedSkills().compactMap { $0["id"] as? String }, ["test.fixture.echo"], list.summary)
        let json = try plain(["install", fixtures + "/echo_c.so", "--json"]).jsonObject()
        XCTAssertEqual((json["folder"] as? [String: Any])?["origin"] as? String, "user folder", "\(json)")
    }

    func testACurrentSkillsFolderComesFirstAndTakesTheInstall() throws {
        let project = work + "/project"
        try FileManager.default.createDirectory(atPath: project + "/skills.d", withIntermediateDirectories: true)
        chmod(project, 0o755); chmod(project + "/skills.d", 0o755)
        let r = plain(["install", fixtures + "/echo_c.so", "--json"], in: project)
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertEqual(try r.jsonObject()["path"] as? String, project + "/skills.d/echo_c.so", r.summary)
        let doctor = try plain(["doctor", "--json"], in: project).jsonObject()
        let path = try XCTUnwrap(doctor["searchPath"] as? [[String: Any]], "\(doctor)")
        XCTAssertEqual(path.compactMap { $0["origin"] as? String }, ["current folder", "user folder", "system folder"])
        XCTAssertEqual(path.compactMap { $0["path"] as? String }.prefix(2), [project + "/skills.d", userFolder])
        XCTAssertEqual(doctor["installFolder"] as? String, project + "/skills.d")
    }

    func testDoctorShowsTheSearchPathAndWhereInstallGoes() throws {
        let text = plain(["doctor"])
        XCTAssertTrue(text.stdout.contains("skill search path"), text.summary)
        XCTAssertTrue(text.stdout.contains("1. \(userFolder)  (user folder; not created yet, skipped)  ← install"), text.summary)
        XCTAssertTrue(text.stdout.contains("2. ") && text.stdout.contains("/lib/skillhost/skills.d  (system folder"), text.summary)
        // Default folders that do not exist are not problems.
        XCTAssertEqual(text.exitCode, 0, text.summary)
    }

    func testSkillhostPathReplacesTheDefaultsAndInstallTakesTheFirstWritable() throws {
        let readOnly = work + "/ro", writable = work + "/rw"
        for d in [readOnly, writable] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        chmod(readOnly, 0o555); chmod(writable, 0o755)
        defer { chmod(readOnly, 0o755) }
        extraEnvironment["SKILLHOST_PATH"] = readOnly + ":" + writable
        let doctor = try plain(["doctor", "--json"]).jsonObject()
        XCTAssertEqual((doctor["searchPath"] as? [[String: Any]])?.compactMap { $0["origin"] as? String }, ["SKILLHOST_PATH", "SKILLHOST_PATH"])
        if geteuid() != 0 {  // root writes anywhere
            let r = plain(["install", fixtures + "/echo_c.so", "--json"])
            XCTAssertEqual(try r.jsonObject()["path"] as? String, writable + "/echo_c.so", r.summary)
        }
    }
}
