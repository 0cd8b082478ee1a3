import Foundation
import XCTest

/// Issue 12, items 14 and 18: input bytes that are not UTF-8 are refused (never turned into U+FFFD),
/// and `skillhost new` escapes what it writes into string literals.
final class InputHardeningTests: EndToEndTestCase {
    func testInputFileThatIsNotUTF8IsInvalidInputNamingTheOffset() throws {
        try addSkill("echo_c.so")
        let file = work + "/latin1.json"
        try Data(Array(#"{"text":"caf"#.utf8) + [0xe9] + Array(#""}"#.utf8)).write(to: URL(fileURLWithPath: file))
        try assertInvokeError(invoke("fixture.echo", "@" + file), kind: "invalid_input", exitCode: 10,
                              messageContains: ["not valid UTF-8", "byte 12", file])
        try assertInvokeError(invoke("fixture.echo", "-", stdin: try Data(contentsOf: URL(fileURLWithPath: file))),
                              kind: "invalid_input", exitCode: 10, messageContains: ["standard input", "byte 12"])
        // Valid UTF-8 from a file still works, non-ASCII included.
        try Data(#"{"text":"café"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let ok = try assertInvokeOK(invoke("fixture.echo", "@" + file), skill: "test.fixture.echo")
        XCTAssertEqual((ok as? [String: Any])?["text"] as? String, "café")
    }

    func testNewEscapesTheVendorInTheCAndSwiftSources() throws {
        let vendor = "A\"B\\C ??/ tab\there é"
        let r = skillhost(["new", "quoted", "--lang", "c", "--dir", work, "--vendor", vendor, "--sdk", E2E.packageRoot])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let make = Run.program("/usr/bin/env", ["make", "-s"], environment: environment, currentDirectory: work + "/quoted", timeout: 60)
        XCTAssertEqual(make.exitCode, 0, "the generated C file compiles with -Werror -pedantic: \(make.summary)")
        let inspect = skillhost("inspect", work + "/quoted/libquoted.so", "--json")
        XCTAssertEqual(try inspect.jsonObject()["vendor"] as? String, vendor, inspect.summary)

        let swift = skillhost(["new", "quoted-swift", "--dir", work, "--vendor", vendor, "--sdk", E2E.packageRoot])
        XCTAssertEqual(swift.exitCode, 0, swift.summary)
        let source = try String(contentsOfFile: work + "/quoted-swift/Sources/QuotedSwift/QuotedSwift.swift", encoding: .utf8)
        XCTAssertTrue(source.contains(#"let vendor = "A\"B\\C ??/ tab\u{9}here é""#), source)
    }

    // MARK: - Item 15

    func testHugeNumbersFromFlagsAreUsageErrorsNotTraps() throws {
        try addSkill("echo_c.so")
        for args in [["list", "--scan-timeout", "4294967296"], ["invoke", "fixture.echo", "--timeout", "9223372036854775807"],
                     ["traces", "--limit", "99999999999"]] {
            let r = skillhost(args)
            XCTAssertEqual(r.exitCode, 2, "a usage error, not a trap: \(r.summary)")
            XCTAssertTrue(r.stderr.contains("from 1 to"), r.summary)
        }
    }

    func testAConfigErrorNamesFileLineAndColumn() throws {
        try addSkill("echo_c.so")
        let path = try writeConfig("{\n  \"invokeTimeoutMs\": 1000,\n  \"scanTimeoutMs\": 4294967296\n}\n")
        let r = skillhost("list", "--json")
        XCTAssertEqual(r.exitCode, 10, "configuration errors keep invalid_input's exit code: \(r.summary)")
        let e = try XCTUnwrap(try r.jsonObject()["error"] as? [String: Any], r.summary)
        XCTAssertEqual(e["kind"] as? String, "invalid_input")
        XCTAssertTrue((e["message"] as? String ?? "").contains("line 3, column 3: \"scanTimeoutMs\" must be a whole number of milliseconds from 1 to 86400000"), r.summary)
        let place = try XCTUnwrap(e["config"] as? [String: Any], r.summary)
        XCTAssertEqual(place["file"] as? String, path)
        XCTAssertEqual(place["line"] as? Int, 3)
        XCTAssertEqual(place["column"] as? Int, 3)

        // A member nested under a skill id with dots, and the human report.
        try writeConfig("{\"policy\": {\"skills\": {\n    \"test.fixture.echo\": {\"agent\": 3}}}}")
        let human = skillhost("list")
        XCTAssertEqual(human.exitCode, 10, human.summary)
        XCTAssertTrue(human.stderr.contains("configuration error in \(path), line 2, column 27:"), human.summary)
        XCTAssertTrue(human.stderr.contains("\"policy.skills.test.fixture.echo.agent\" must be true or false, found 3"), human.summary)

        // A rate limit whose wait would overflow is refused too.
        try writeConfig(#"{"policy":{"rateLimits":{"agent":{"*":{"capacity":1,"refillPerSecond":1e-320}}}}}"#)
        XCTAssertEqual(skillhost("list").exitCode, 10)
    }

    // MARK: - The header's words

    /// skillhost.h: SKH_STATUS_OK with a NULL result_json is the JSON value null, in a worker and
    /// in-process alike (in-process used to call it an internal error).
    func testOKWithANullResultIsJSONNullInAWorkerAndInProcess() throws {
        try addSkill("null_result.so")
        for trusted in [false, true] {
            try writeConfig(trusted ? #"{"trusted":["test.fixture.nullresult"]}"# : "{}")
            let r = invoke("fixture.nullresult", "{}")
            XCTAssertEqual(r.exitCode, 0, "trusted \(trusted): \(r.summary)")
            let o = try r.jsonObject()
            XCTAssertTrue(o["result"] is NSNull, r.summary)
            XCTAssertEqual(o["message"] as? String, "done")
        }
    }
}
