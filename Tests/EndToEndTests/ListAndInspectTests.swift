import Foundation
import XCTest
import SkillHostCore

/// `skillhost list --json`, `list --all --json` (conflicts) and `inspect FILE --json`.
final class ListAndInspectTests: EndToEndTestCase {
    func testListJSONIsAnObjectWithTheSkillsAndTheContractFields() throws {
        let echo = try addSkill("echo_c.so")
        let units = try addSkill("libUnitsSkill.so")
        let r = skillhost("list", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let skills = try r.listedSkills()
        XCTAssertEqual(skills.count, 2, r.summary)

        let expected: [(id: String, path: String, version: String, category: String, intents: [String])] = [
            ("test.fixture.echo", echo, "1.0.0", "testing", ["fixture.echo", "fixture.echo.strict"]),
            ("dev.skillhost.units", units, "1.0.0", "utilities", ["units.convert"]),
        ]
        for e in expected {
            let s = try XCTUnwrap(skills.first("id", e.id), "\(e.id) missing: \(r.summary)")
            XCTAssertEqual(s["version"] as? String, e.version)
            XCTAssertEqual(s["category"] as? String, e.category)
            let intents = try XCTUnwrap(s["intents"] as? [[String: Any]], "intents must be an array of objects")
            XCTAssertEqual(intents.compactMap { $0["name"] as? String }, e.intents)
            XCTAssertEqual(s["abi"] as? String, "1.3", "built with today's header (ABI 1.3)")
            let path = try XCTUnwrap(s["path"] as? String)
            XCTAssertTrue(path.hasPrefix("/"), "path is absolute: \(path)")
            XCTAssertEqual(path, e.path)
            XCTAssertEqual(s["isolation"] as? String, "process", "isolation is the default")
            XCTAssertEqual(s["health"] as? String, "ok")
        }
    }

    /// `list --json` writes each skill's members straight from the manifest's bytes and its fields (no
    /// tree): its text must be exactly what the JSON tree writer makes of the same value — with a
    /// shadowed older version, a crash in the health detail, intent versions and a C and a Swift skill.
    func testListJSONIsTheTreeWritersTextByteForByte() throws {
        try addSkill("echo_c.so")
        try addSkill("libUnitsSkill.so")
        try addSkill("duplicate_id_a.so")
        try addSkill("duplicate_id_b.so")
        try addSkill("intent_versions.so")
        try addSkill("segv_invoke.so")
        _ = invoke("fixture.segv")  // a crash: health detail with a reason, counters and a time
        for args in [["list", "--json"], ["list", "--all", "--json"]] {
            let r = skillhost(args)
            XCTAssertEqual(r.exitCode, 0, r.summary)
            var text = Array(r.stdout.utf8)
            XCTAssertEqual(text.last, 0x0a, "one line")
            text.removeLast()
            let tree = try JSON.parse(text)
            var rewritten: [UInt8] = []
            tree.write(to: &rewritten)
            XCTAssertEqual(String(decoding: text, as: UTF8.self), String(decoding: rewritten, as: UTF8.self), args.joined(separator: " "))
            let skills = try XCTUnwrap(tree.objectValue?["skills"]?.arrayValue, r.summary)
            XCTAssertEqual(skills.count, 5, r.summary)
            let segv = try XCTUnwrap(skills.first { $0.objectValue?["id"]?.stringValue == "test.fixture.segv" }?.objectValue, r.summary)
            XCTAssertEqual(segv["healthDetail"]?.objectValue?["crashes"]?.intValue, 1, r.summary)
        }
    }

    /// `list` and `list --all` as text are, line for line, what `list --all --json` says: the table
    /// (id, version, category, ABI, isolation, health, sandbox, intents), the count line, then the
    /// shadowed files, the conflicts and (with --all) the refusals — with a refused file, a shadowed
    /// older version, a conflict and a crash recorded.
    func testListTextIsTheJSONsContentLineForLine() throws {
        for name in ["echo_c.so", "libUnitsSkill.so", "duplicate_id_a.so", "duplicate_id_b.so", "conflict_a.so", "conflict_b.so",
                     "segv_invoke.so", "empty.so"] {
            try addSkill(name)
        }
        _ = invoke("fixture.segv")
        let json = skillhost("list", "--all", "--json")
        XCTAssertEqual(json.exitCode, 0, json.summary)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.summary)
        let skills = try XCTUnwrap(o["skills"] as? [[String: Any]])
        let refused = try XCTUnwrap(o["refused"] as? [[String: Any]])
        let shadowed = try XCTUnwrap(o["shadowed"] as? [[String: Any]])
        let conflicts = try XCTUnwrap(o["conflicts"] as? [[String: Any]])
        XCTAssertFalse(refused.isEmpty || shadowed.isEmpty || conflicts.isEmpty, json.summary)

        let rows = [["ID", "VERSION", "CATEGORY", "ABI", "ISOLATION", "HEALTH", "SANDBOX", "INTENTS"]] + skills.map { s in
            [s["id"], s["version"], s["category"], s["abi"], s["isolation"], s["health"], s["sandbox"]].map { $0 as? String ?? "?" }
                + [((s["intents"] as? [[String: Any]]) ?? []).map { $0["address"] as? String ?? "?" }.joined(separator: ", ")]
        }
        let widths = (0..<7).map { c in rows.map { $0[c].count }.max()! }
        let table = rows.map { r in
            (0..<7).map { r[$0] + String(repeating: " ", count: widths[$0] - r[$0].count) }.joined(separator: "  ") + "  " + r[7]
        }
        let intents = Set(skills.flatMap { ($0["intents"] as? [[String: Any]] ?? []).map { $0["address"] as? String ?? "?" } }).count
        let count = "\(skills.count) skills, \(intents) intents. \(refused.count) file\(refused.count == 1 ? " was" : "s were") refused"
        let shadowLines = shadowed.map { s in
            "shadowed: \(s["id"]!) \(s["version"]!) (\(s["path"]!)) by version \(s["shadowedByVersion"]!) (\(s["shadowedBy"]!))"
        }
        let conflictLines = conflicts.map { c in
            let bound = (c["skills"] as? [[String: Any]] ?? []).map { "\($0["id"]!) (priority \($0["priority"]!))" }
            return "conflict: \(c["intent"]!) is declared by \(bound.joined(separator: ", ")); calls go to \(c["chosen"]!)"
        }
        let refusalLines = refused.map { "refused [\($0["reason"]!)] \($0["message"]!)" }

        let plain = skillhost("list")
        XCTAssertEqual(plain.exitCode, 0, plain.summary)
        XCTAssertEqual(plain.stdout, (table + [count + " (see `skillhost list --all` or `skillhost doctor`)."] + shadowLines + conflictLines)
            .joined(separator: "\n") + "\n")
        let all = skillhost("list", "--all")
        XCTAssertEqual(all.exitCode, 0, all.summary)
        XCTAssertEqual(all.stdout, (table + [count + ":"] + shadowLines + conflictLines + refusalLines).joined(separator: "\n") + "\n")
    }

    func testListJSONOfAnEmptyFolderHasNoSkills() throws {
        let r = skillhost("list", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertEqual(try r.listedSkills().count, 0, r.summary)
        let all = try listAll()
        XCTAssertTrue(all.skills.isEmpty && all.refused.isEmpty && all.conflicts.isEmpty, all.result.summary)
    }

    func testListTextShowsEachSkillAndCountsRefusals() throws {
        try addSkill("echo_c.so")
        try addSkill("empty.so")
        let r = skillhost("list")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.contains("test.fixture.echo"), r.summary)
        XCTAssertTrue(r.stdout.contains("fixture.echo, fixture.echo.strict"), r.summary)
        XCTAssertTrue(r.stdout.contains("1 skill, 2 intents. 1 file was refused"), r.summary)
    }

    func testConflictingIntentIsReportedAndRoutedToTheHigherPriority() throws {
        let a = try addSkill("conflict_a.so")
        let b = try addSkill("conflict_b.so")
        try addSkill("echo_c.so")
        let list = try listAll()
        XCTAssertEqual(Set(list.skills.compactMap { $0["id"] as? String }),
                       ["test.fixture.conflicta", "test.fixture.conflictb", "test.fixture.echo"], "a conflict refuses nobody")
        XCTAssertEqual(list.refused.count, 0, list.result.summary)
        XCTAssertEqual(list.conflicts.count, 1, list.result.summary)
        let c = try XCTUnwrap(list.conflicts.first("intent", "fixture.shared"), list.result.summary)
        XCTAssertEqual(c["chosen"] as? String, "test.fixture.conflicta")
        let bound = try XCTUnwrap(c["skills"] as? [[String: Any]])
        XCTAssertEqual(bound.compactMap { $0["id"] as? String }, ["test.fixture.conflicta", "test.fixture.conflictb"])
        XCTAssertEqual(bound.compactMap { $0["path"] as? String }, [a, b])
        XCTAssertEqual(bound.compactMap { $0["priority"] as? Int }, [10, 0])

        let result = try assertInvokeOK(invoke("fixture.shared"), skill: "test.fixture.conflicta")
        XCTAssertEqual(result as? [String: String], ["from": "a"])

        let doctor = skillhost("doctor", "--json")
        XCTAssertEqual(doctor.exitCode, 1, "a conflict is a problem doctor reports: \(doctor.summary)")
        let conflicts = try XCTUnwrap(try doctor.jsonObject()["conflicts"] as? [[String: Any]])
        XCTAssertEqual(conflicts.first("intent", "fixture.shared")?["chosen"] as? String, "test.fixture.conflicta")
        try assertEchoStillServes()
    }

    // MARK: - inspect

    func testInspectGoodFileShowsManifestAndSHA256MatchingSha256sum() throws {
        let file = fixtures + "/echo_c.so"
        let r = skillhost("inspect", file, "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let o = try r.jsonObject()
        XCTAssertEqual(o["ok"] as? Bool, true)
        XCTAssertEqual(o["id"] as? String, "test.fixture.echo")
        XCTAssertEqual(o["version"] as? String, "1.0.0")
        XCTAssertEqual(o["abi"] as? String, "1.3")
        XCTAssertEqual(o["path"] as? String, file)
        XCTAssertEqual((o["intents"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["fixture.echo", "fixture.echo.strict"])
        let sha = try XCTUnwrap(o["sha256"] as? String)
        XCTAssertNotNil(sha.range(of: "^[0-9a-f]{64}$", options: .regularExpression), "64 lowercase hex digits: \(sha)")
        let sum = Run.program("/usr/bin/env", ["sha256sum", file], environment: environment)
        XCTAssertEqual(sum.exitCode, 0, sum.summary)
        XCTAssertEqual(sha, String(sum.stdout.prefix(64)))
        // Inspecting registers nothing.
        XCTAssertEqual(try skillhost("list", "--json").listedSkills().count, 0)
    }

    func testInspectBadFilesReportsKindAndReasonWithTheKindsExitCode() throws {
        let cases: [(file: String, reason: String, kind: String, exit: Int32, contains: String)] = [
            ("aarch64.so", "wrong_architecture", "incompatible", 16, "AArch64"),
            ("abi_major_next.so", "abi_mismatch", "incompatible", 16, "2.0"),
            ("empty.so", "not_a_skill", "load_failed", 17, "empty"),
            ("no_entry.so", "missing_symbol", "load_failed", 17, "skillhost_entry"),
            ("bad_semver.so", "bad_manifest", "load_failed", 17, "\"version\""),
            ("init_crash.so", "crashed_during_scan", "load_failed", 17, "SIGSEGV"),
        ]
        for c in cases {
            let path = fixtures + "/" + c.file
            let r = skillhost("inspect", path, "--json")
            XCTAssertEqual(r.exitCode, c.exit, "\(c.file): \(r.summary)")
            let o = try r.jsonObject()
            XCTAssertEqual(o["ok"] as? Bool, false, r.summary)
            XCTAssertEqual(o["path"] as? String, path, r.summary)
            let e = try XCTUnwrap(o["error"] as? [String: Any], r.summary)
            XCTAssertEqual(e["kind"] as? String, c.kind, "\(c.file): \(r.summary)")
            XCTAssertEqual(e["reason"] as? String, c.reason, "\(c.file): \(r.summary)")
            let message = e["message"] as? String ?? ""
            XCTAssertTrue(message.contains(path) && message.contains(c.contains), "\(c.file): \(message)")
        }
    }

    func testInspectHonoursScanTimeoutForAHangingInitializer() throws {
        let path = fixtures + "/init_hang.so"
        let r = skillhost(["inspect", path, "--json", "--scan-timeout", "500"], timeout: 10)
        XCTAssertLessThan(r.elapsed, 3.0, "--scan-timeout 500 is the deadline for reading the manifest: \(r.summary)")
        XCTAssertEqual(r.exitCode, 17, r.summary)
        let e = try XCTUnwrap(try r.jsonObject()["error"] as? [String: Any], r.summary)
        XCTAssertEqual(e["reason"] as? String, "timed_out")
        XCTAssertTrue((e["message"] as? String ?? "").contains("0.5 s"), "\(e)")
    }

    func testInspectMissingFileIsRefusedNamingIt() throws {
        let path = work + "/nothing-here.so"
        let r = skillhost("inspect", path, "--json")
        XCTAssertEqual(r.exitCode, 17, r.summary)
        let e = try XCTUnwrap(try r.jsonObject()["error"] as? [String: Any], r.summary)
        XCTAssertEqual(e["kind"] as? String, "load_failed")
        XCTAssertTrue((e["message"] as? String ?? "").contains(path), "\(e)")
    }

    func testInspectTextNamesTheSkillAndItsIntents() throws {
        let r = skillhost("inspect", fixtures + "/libUnitsSkill.so")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.contains("dev.skillhost.units 1.0.0"), r.summary)
        XCTAssertTrue(r.stdout.contains("units.convert"), r.summary)
    }
}
