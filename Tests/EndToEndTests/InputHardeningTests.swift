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
}
