import Foundation
import XCTest

/// `skillhost invoke INTENT --input … --json`: the success and error contracts, exit codes per kind,
/// input from an argument, a file or stdin, deadlines, and skills that misbehave while answering.
final class InvokeTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try addSkill("echo_c.so")
    }

    // MARK: - Success

    func testEchoReturnsOkSkillAndResultAsOneJSONLine() throws {
        let r = invoke("fixture.echo", #"{"text":"héllo 你好"}"#)
        let result = try assertInvokeOK(r, skill: "test.fixture.echo")
        XCTAssertEqual(result as? [String: String], ["text": "héllo 你好"])
        XCTAssertTrue(r.stdout.hasSuffix("}\n") && r.stdout.filter { $0 == "\n" }.count == 1,
                      "exactly one JSON line on stdout: \(r.summary)")
        let o = try r.jsonObject()
        XCTAssertEqual(o["intent"] as? String, "fixture.echo")
    }

    func testInputFromFileWithAtSign() throws {
        let file = work + "/input.json"
        try Data(#"{"text":"from a file"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let result = try assertInvokeOK(invoke("fixture.echo", "@" + file), skill: "test.fixture.echo")
        XCTAssertEqual(result as? [String: String], ["text": "from a file"])
    }

    func testInputFromStdinWithDash() throws {
        let r = invoke("fixture.echo", "-", stdin: Data(#"{"text":"from stdin"}"#.utf8))
        let result = try assertInvokeOK(r, skill: "test.fixture.echo")
        XCTAssertEqual(result as? [String: String], ["text": "from stdin"])
    }

    func testUnreadableInputFileIsInvalidInputNamingTheFile() throws {
        let file = work + "/missing.json"
        try assertInvokeError(invoke("fixture.echo", "@" + file), kind: "invalid_input", exitCode: 10, messageContains: [file])
    }

    // MARK: - Input checked before the skill sees it

    func testInputThatIsNotJSONIsInvalidInputExit10() throws {
        try assertInvokeError(invoke("fixture.echo", "not json"), kind: "invalid_input", exitCode: 10,
                              messageContains: ["fixture.echo", "not valid JSON"])
    }

    func testInputThatIsNotAnObjectIsInvalidInput() throws {
        try assertInvokeError(invoke("fixture.echo", "[1,2]"), kind: "invalid_input", exitCode: 10, messageContains: ["object"])
    }

    func testMissingRequiredFieldIsInvalidInputNamingTheField() throws {
        try assertInvokeError(invoke("fixture.echo", "{}"), kind: "invalid_input", exitCode: 10,
                              messageContains: ["\"text\"", "missing"])
    }

    func testWrongTypeIsInvalidInputNamingFieldAndType() throws {
        try assertInvokeError(invoke("fixture.echo", #"{"text":5}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["\"text\"", "string"])
    }

    func testUnknownIntentIsNoSkillExit11() throws {
        let e = try assertInvokeError(invoke("fixture.nope", "{}"), kind: "no_skill", exitCode: 11,
                                      messageContains: ["fixture.nope"])
        XCTAssertNil(e["skill"])
    }

    // MARK: - Skills that fail

    func testCSkillErrorCodeIsInternalExit19WithTheSkillsMessage() throws {
        try addSkill("error_code.so")
        let e = try assertInvokeError(invoke("fixture.fail"), kind: "internal", exitCode: 19,
                                      messageContains: ["disk quota exceeded on /var/fixture"])
        XCTAssertEqual(e["skill"] as? String, "test.fixture.errorcode")
        try assertEchoStillServes()
    }

    func testCSkillUnavailableIsUnavailableExit12WithTheSkillsMessage() throws {
        try addSkill("error_code.so")
        try assertInvokeError(invoke("fixture.unavailable"), kind: "unavailable", exitCode: 12,
                              messageContains: ["fixture backend is not reachable at fixture.invalid:1; start it and retry"])
    }

    func testResultThatIsNotJSONIsInternal() throws {
        try addSkill("not_json.so")
        try assertInvokeError(invoke("fixture.notjson"), kind: "internal", exitCode: 19,
                              messageContains: ["not JSON", "hello, not json"])
        try assertEchoStillServes()
    }

    func testResultViolatingOutputSchemaIsInternalNamingFieldN() throws {
        try assertInvokeError(invoke("fixture.echo.strict"), kind: "internal", exitCode: 19,
                              messageContains: ["output schema", "\"n\"", "integer"])
    }

    func testSkillThatNeverCompletesIsTimeoutExit13WithinTwoSeconds() throws {
        try addSkill("never_completes.so")
        let r = invoke("fixture.never", "{}", ["--timeout", "300"], timeout: 10)
        XCTAssertLessThan(r.elapsed, 2.0, "a 300 ms deadline must end the call: \(r.summary)")
        try assertInvokeError(r, kind: "timeout", exitCode: 13, messageContains: ["300 ms", "fixture.never"])
        try assertEchoStillServes()
    }

    func testSkillThatCompletesTwiceKeepsTheFirstResult() throws {
        try addSkill("complete_twice.so")
        let r = invoke("fixture.complete_twice")
        let result = try assertInvokeOK(r, skill: "test.fixture.completetwice")
        XCTAssertEqual((result as? [String: Any])?["completion"] as? Int, 1, r.summary)
        XCTAssertEqual(try r.jsonObject()["message"] as? String, "first completion")
        XCTAssertTrue(r.stderr.contains("twice"), "the second completion is logged: \(r.summary)")
    }

    func testSkillStdoutNoiseNeverReachesStdout() throws {
        try addSkill("stdout_noise.so")
        // In a worker, what a skill prints is kept as its log; SKILLHOST_LOG=info shows it on stderr.
        extraEnvironment["SKILLHOST_LOG"] = "info"
        let r = invoke("fixture.noise")
        let result = try assertInvokeOK(r, skill: "test.fixture.stdoutnoise")
        XCTAssertEqual(result as? [String: Bool], ["quiet": true])
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "stdout is exactly one JSON line: \(r.summary)")
        XCTAssertTrue(r.stdout.hasSuffix("}\n"), r.summary)
        XCTAssertFalse(r.stdout.contains("noise from"), r.summary)
        XCTAssertTrue(r.stderr.contains("[test.fixture.stdoutnoise] info: output: {\"noise\":\"stdout noise from invoke of fixture.noise\"}"),
                      "the noise goes to the skill log on stderr: \(r.summary)")
        XCTAssertTrue(r.stderr.contains("stdout noise from the constructor of stdout_noise.so"), r.summary)
    }

    func testSkillStdoutNoiseNeverReachesListJSON() throws {
        try addSkill("stdout_noise.so")
        // The first list scans (in a scan process); the invoke runs the skill in a worker; list again.
        let ids = try listAll().skills.compactMap { $0["id"] as? String }
        XCTAssertEqual(Set(ids), ["test.fixture.echo", "test.fixture.stdoutnoise"])
        try assertInvokeOK(invoke("fixture.noise"), skill: "test.fixture.stdoutnoise")
    }

    // MARK: - Asynchronous completion, progress

    func testAsynchronousCompletionFromAnotherThread() throws {
        try addSkill("slow.so")
        let r = invoke("fixture.slow", #"{"ms":50}"#)
        let result = try assertInvokeOK(r, skill: "test.fixture.slow")
        XCTAssertEqual((result as? [String: Any])?["sleptMs"] as? Int, 50)
    }

    func testSlowSkillPastItsDeadlineIsTimeout() throws {
        try addSkill("slow.so")
        let r = invoke("fixture.slow", #"{"ms":5000}"#, ["--timeout", "200"], timeout: 10)
        XCTAssertLessThan(r.elapsed, 2.0, r.summary)
        try assertInvokeError(r, kind: "timeout", exitCode: 13, messageContains: ["200 ms"])
    }

    func testSlowSkillInputOutOfRangeIsInvalidInput() throws {
        try addSkill("slow.so")
        try assertInvokeError(invoke("fixture.slow", #"{"ms":-1}"#), kind: "invalid_input", exitCode: 10, messageContains: ["\"ms\""])
    }

    func testProgressReportingSkillCompletesOK() throws {
        try addSkill("progress.so")
        let r = invoke("fixture.progress")
        let result = try assertInvokeOK(r, skill: "test.fixture.progress")
        let o = try XCTUnwrap(result as? [String: Any])
        XCTAssertEqual(o["steps"] as? Int, 3)
        XCTAssertEqual(o["contextSet"] as? Bool, true, r.summary)
    }

    // MARK: - The C units skill

    func testUnitsConvertKilometresToMiles() throws {
        try addSkill("libUnitsSkill.so")
        let r = invoke("units.convert", #"{"value":5,"from":"km","to":"mi"}"#)
        let o = try XCTUnwrap(try assertInvokeOK(r, skill: "dev.skillhost.units") as? [String: Any])
        let value = try XCTUnwrap(number(o["value"]), r.summary)
        XCTAssertEqual(value, 3.10686, accuracy: 0.00001)
        XCTAssertEqual(o["from"] as? String, "km")
        XCTAssertEqual(o["to"] as? String, "mi")
    }

    func testUnitsConvertBetweenKindsIsInvalidInputNamingBothUnits() throws {
        try addSkill("libUnitsSkill.so")
        try assertInvokeError(invoke("units.convert", #"{"value":5,"from":"km","to":"kg"}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["km", "kg", "length", "mass"])
    }

    func testUnitsConvertUnknownUnitIsRejectedByTheSchema() throws {
        try addSkill("libUnitsSkill.so")
        try assertInvokeError(invoke("units.convert", #"{"value":5,"from":"parsec","to":"m"}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["\"from\""])
    }

    // MARK: - Text output

    func testInvokeWithoutJSONPrintsTheResultAndTheMessage() throws {
        let r = skillhost("invoke", "fixture.echo", "--input", #"{"text":"plain"}"#)
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.contains("\"plain\""), r.summary)
        XCTAssertTrue(r.stdout.contains("echoed"), r.summary)
    }

    func testInvokeErrorWithoutJSONGoesToStderrWithTheKind() throws {
        let r = skillhost("invoke", "fixture.echo", "--input", "{}")
        XCTAssertEqual(r.exitCode, 10, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertTrue(r.stderr.contains("invalid_input"), r.summary)
    }
}
