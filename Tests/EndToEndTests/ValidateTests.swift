import Foundation
import XCTest

/// `skillhost validate FILE [--json]`: the conformance checks, against well-behaved skills (bundled
/// and fixtures) and against fixtures that each break one rule; and `install`, which refuses a skill
/// that fails them unless `--force`.
final class ValidateTests: EndToEndTestCase {
    static let checkNames = ["file", "manifest", "abi", "load", "health", "examples", "wrong-input",
                             "exactly-once", "concurrency", "memory"]

    override func setUpWithError() throws {
        try super.setUpWithError()
        // The scratch folders validate makes go here, so a test can see none is left behind.
        extraEnvironment["TMPDIR"] = work
    }

    /// `skillhost validate PATH --json`: checks the report's shape and that the exit code agrees with
    /// "ok"; returns the report and its checks by name.
    @discardableResult
    func validate(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> (report: [String: Any], checks: [String: [String: Any]], result: CommandResult) {
        let r = skillhost("validate", path, "--json")
        let o = try r.jsonObject(file: file, line: line)
        let checks = try XCTUnwrap(o["checks"] as? [[String: Any]], "no checks: \(r.summary)", file: file, line: line)
        XCTAssertEqual(checks.compactMap { $0["name"] as? String }, Self.checkNames, r.summary, file: file, line: line)
        for c in checks {
            XCTAssertTrue(["pass", "warn", "fail", "skip"].contains(c["status"] as? String ?? ""), "\(c)", file: file, line: line)
            XCTAssertFalse((c["message"] as? String ?? "").isEmpty, "every check says what it found: \(c)", file: file, line: line)
        }
        let ok = try XCTUnwrap(o["ok"] as? Bool, r.summary, file: file, line: line)
        XCTAssertEqual(ok, !checks.contains { $0["status"] as? String == "fail" }, r.summary, file: file, line: line)
        XCTAssertEqual(r.exitCode, ok ? 0 : 1, r.summary, file: file, line: line)
        XCTAssertEqual(o["file"] as? String, path, r.summary, file: file, line: line)
        return (o, Dictionary(uniqueKeysWithValues: checks.map { ($0["name"] as! String, $0) }), r)
    }

    /// Asserts that exactly the checks in `failing` failed, each with a message containing its strings.
    func assertFails(_ path: String, _ failing: [String: [String]], file: StaticString = #filePath, line: UInt = #line) throws {
        let (_, checks, r) = try validate(path, file: file, line: line)
        let failed = Self.checkNames.filter { checks[$0]?["status"] as? String == "fail" }
        XCTAssertEqual(failed, Self.checkNames.filter { failing[$0] != nil }, r.summary, file: file, line: line)
        for (name, needles) in failing {
            let message = checks[name]?["message"] as? String ?? ""
            for n in needles {
                XCTAssertTrue(message.contains(n), "\(name) should say \"\(n)\": \(message)", file: file, line: line)
            }
            XCTAssertTrue(message.contains("fix:"), "\(name) names the fix: \(message)", file: file, line: line)
        }
    }

    func assertNoScratchLeft(file: StaticString = #filePath, line: UInt = #line) throws {
        let left = try FileManager.default.contentsOfDirectory(atPath: work).filter { $0.hasPrefix("skillhost-validate.") }
        XCTAssertEqual(left, [], "validate removes its scratch folder", file: file, line: line)
    }

    // MARK: - Skills that pass

    func testBundledSkillsAndTheCEchoFixturePassWithinSeconds() throws {
        var files = [fixtures + "/echo_c.so", fixtures + "/libUnitsSkill.so"]
        for lib in ["libEchoSkill.so", "libCalendarSkill.so", "libReminderSkill.so", "libWeatherSkill.so"] {
            let path = E2E.binDir + "/" + lib
            guard FileManager.default.fileExists(atPath: path) else { XCTFail("\(lib) is not built in \(E2E.binDir)"); continue }
            files.append(path)
        }
        for f in files {
            let (report, checks, r) = try validate(f)
            XCTAssertEqual(report["ok"] as? Bool, true, r.summary)
            XCTAssertLessThan(r.elapsed, 3, "validate of a small skill takes well under 3 s: \(r.summary)")
            for name in ["file", "abi", "load", "exactly-once"] {
                XCTAssertEqual(checks[name]?["status"] as? String, "pass", "\(name): \(r.summary)")
            }
        }
        try assertNoScratchLeft()
    }

    func testTheCEchoFixturePassesEveryCallingCheckAndMeasuresMemory() throws {
        let (report, checks, r) = try validate(fixtures + "/echo_c.so")
        XCTAssertEqual(report["id"] as? String, "test.fixture.echo")
        XCTAssertEqual(report["version"] as? String, "1.0.0")
        for name in ["load", "health", "examples", "wrong-input", "exactly-once", "concurrency", "memory"] {
            XCTAssertEqual(checks[name]?["status"] as? String, "pass", "\(name): \(r.summary)")
        }
        XCTAssertEqual(checks["manifest"]?["status"] as? String, "warn", "fixture.echo.strict has no examples: \(r.summary)")
        XCTAssertTrue((checks["manifest"]?["message"] as? String ?? "").contains("fixture.echo.strict"), r.summary)
        let memory = try XCTUnwrap(checks["memory"]?["details"] as? [String: Any], r.summary)
        XCTAssertEqual(memory["calls"] as? Int, 400)
        XCTAssertNotNil(number(memory["rssBeforeKiB"]), r.summary)
        let wrong = try XCTUnwrap((checks["wrong-input"]?["details"] as? [String: Any])?["calls"] as? [[String: Any]], r.summary)
        XCTAssertEqual(wrong.compactMap { $0["kind"] as? String }, ["missing-required", "wrong-type"], r.summary)
        XCTAssertTrue(wrong.allSatisfy { $0["outcome"] as? String == "invalid_input" }, r.summary)
    }

    func testTextReportHasAHeaderOneLinePerCheckAndATally() throws {
        let r = skillhost("validate", fixtures + "/echo_c.so")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 12, r.summary)
        XCTAssertTrue(lines[0].contains(fixtures + "/echo_c.so") && lines[0].contains("test.fixture.echo") && lines[0].contains("1.0.0"), r.summary)
        for (line, name) in zip(lines[1...10], Self.checkNames) {
            let words = line.split(separator: " ", maxSplits: 2)
            XCTAssertTrue(["PASS", "WARN", "FAIL", "SKIP"].contains(String(words[0])), line)
            XCTAssertEqual(String(words[1]), name, line)
        }
        XCTAssertEqual(lines[11], "validate: 9 passed, 1 warning, 0 failed", r.summary)
    }

    func testOpenWorldIntentsGetOnlyWrongInputAndThreadSafetyNeedsNoClaim() throws {
        let weather = E2E.binDir + "/libWeatherSkill.so"
        let (_, checks, r) = try validate(weather)
        XCTAssertEqual(checks["examples"]?["status"] as? String, "skip", r.summary)
        XCTAssertTrue((checks["examples"]?["message"] as? String ?? "").contains("open-world"), r.summary)
        XCTAssertEqual(checks["wrong-input"]?["status"] as? String, "pass", r.summary)

        let (_, leak, u) = try validate(fixtures + "/validate_leak.so")
        XCTAssertEqual(leak["concurrency"]?["status"] as? String, "skip", u.summary)
        XCTAssertTrue((leak["concurrency"]?["message"] as? String ?? "").contains("serializes"), u.summary)
    }

    // MARK: - Skills that fail, one check each

    func testASkillThatAnswersOkToWrongInputFailsWrongInput() throws {
        try assertFails(fixtures + "/validate_accepts_anything.so",
                        ["wrong-input": ["fixture.vanything", "missing required \"count\"", "answered ok", "SKH_STATUS_INVALID_INPUT"]])
    }

    func testASkillThatCrashesOrHangsOnWrongInputFailsWrongInputAndExactlyOnce() throws {
        try writeConfig(#"{"invokeTimeoutMs": 500}"#)
        try assertFails(fixtures + "/validate_bad_input.so",
                        ["wrong-input": ["fixture.vcrash", "SIGSEGV", "fixture.vhang", "did not complete within 500 ms"],
                         "exactly-once": ["fixture.vhang never completed"]])
        try assertNoScratchLeft()
        assertNoWorkersLeft()
    }

    func testALeakingSkillFailsMemoryNamingTheGrowthPerCall() throws {
        try assertFails(fixtures + "/validate_leak.so", ["memory": ["fixture.vleak", "bytes per call", "result buffer never freed"]])
    }

    func testAThreadSafeClaimWithASharedBufferFailsConcurrency() throws {
        try assertFails(fixtures + "/validate_shared_buffer.so",
                        ["concurrency": ["SKH_SKILL_THREAD_SAFE", "fixture.vshared", "the same call alone answered"]])
    }

    func testACompletionCalledTwiceFailsExactlyOnceNamingTheIntent() throws {
        try assertFails(fixtures + "/validate_complete_twice.so", ["exactly-once": ["1 call of fixture.vtwice completed twice"]])
    }

    func testAnExampleThatBreaksItsSchemaFailsManifestAndStopsTheRest() throws {
        try assertFails(fixtures + "/validate_bad_example.so",
                        ["manifest": ["fixture.vexample", "examples[1]", "expected a string, found 5"]])
        let (_, checks, r) = try validate(fixtures + "/validate_bad_example.so")
        for name in Self.checkNames.dropFirst(2) {
            XCTAssertEqual(checks[name]?["status"] as? String, "skip", "\(name): \(r.summary)")
        }
    }

    func testAnInitThatFailsFailsLoad() throws {
        try assertFails(fixtures + "/validate_init_fails.so", ["load": ["init returned 3"]])
    }

    func testRefusedFilesFailTheCheckTheirRefusalBelongsTo() throws {
        try assertFails(fixtures + "/empty.so", ["file": ["empty"]])
        try assertFails(fixtures + "/abi_major_next.so", ["abi": ["ABI 2.0", "1.0"]])
        try assertFails(work + "/missing.so", ["file": ["does not exist"]])
    }

    func testValidateNeverTouchesTheUsersHealthStateOrData() throws {
        try writeConfig(#"{"invokeTimeoutMs": 500}"#)
        try validate(fixtures + "/validate_bad_input.so")
        try validate(E2E.binDir + "/libReminderSkill.so")
        let state = home + "/.local/state/skillhost"
        XCTAssertFalse(FileManager.default.fileExists(atPath: state + "/health.json"), "no health recorded for the user")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.local/share/skillhost/dev.skillhost.reminders"),
                       "the reminders the examples create go to a scratch folder")
        try assertNoScratchLeft()
    }

    func testUsageErrorsExitTwo() throws {
        for args in [["validate"], ["validate", "a.so", "b.so"], ["validate", fixtures + "/echo_c.so", "--force"]] {
            let r = skillhost(args)
            XCTAssertEqual(r.exitCode, 2, "\(args): \(r.summary)")
        }
    }

    // MARK: - install

    func testInstallRefusesAFailingSkillListingTheChecksAndInstallsItWithForce() throws {
        let source = fixtures + "/validate_accepts_anything.so"
        let refused = skillhost("install", source)
        XCTAssertEqual(refused.exitCode, 1, refused.summary)
        XCTAssertTrue(refused.stderr.contains("FAIL  wrong-input"), refused.summary)
        XCTAssertTrue(refused.stderr.contains("--force"), refused.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: skills), [], "nothing installed")

        let json = skillhost("install", source, "--json")
        XCTAssertEqual(json.exitCode, 1, json.summary)
        let o = try json.jsonObject()
        XCTAssertEqual(o["ok"] as? Bool, false)
        XCTAssertTrue((o["hint"] as? String ?? "").contains("--force"), json.summary)
        XCTAssertEqual((o["validation"] as? [String: Any])?["ok"] as? Bool, false, json.summary)

        let forced = skillhost("install", source, "--force")
        XCTAssertEqual(forced.exitCode, 0, forced.summary)
        XCTAssertTrue(forced.stdout.contains("--force") && forced.stdout.contains("wrong-input"), forced.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: skills), ["validate_accepts_anything.so"])
    }

    func testInstallWithWarningsSucceedsAndForceNeverInstallsARefusedFile() throws {
        let ok = skillhost("install", fixtures + "/echo_c.so", "--json")
        XCTAssertEqual(ok.exitCode, 0, ok.summary)
        XCTAssertEqual((try ok.jsonObject()["validation"] as? [String: Any])?["ok"] as? Bool, true, ok.summary)

        let r = skillhost("install", fixtures + "/empty.so", "--force", "--json")
        try assertInvokeError(r, kind: "load_failed", exitCode: 17, messageContains: ["empty"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: skills), ["echo_c.so"])
    }
}
