import Foundation
import XCTest

/// Issue 12, item 5: what skills and skill folders supply is shown with its control characters
/// escaped in human output (`list`, `doctor`, `invoke`), so it cannot drive the terminal or forge lines.
final class TerminalEscapeTests: EndToEndTestCase {
    let esc = "\u{1B}"

    func assertNoRawControls(_ text: String, _ r: CommandResult, file: StaticString = #filePath, line: UInt = #line) {
        let bad = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7f...0x9f).contains($0.value) || (0x202a...0x202e).contains($0.value) }
        XCTAssertTrue(bad.isEmpty, "raw control characters \(bad.map { String($0.value, radix: 16) }) reached the terminal: \(r.summary)", file: file, line: line)
    }

    func testFileNamesWithEscapesAndNewlinesAreShownEscapedByListAndDoctor() throws {
        try addSkill("echo_c.so")
        try copy(fixtures + "/text.so", into: skills, as: "evil\(esc)]0;pwned\u{7}\(esc)[2J\nforged: No problems found.so")
        for args in [["list", "--all"], ["doctor"]] {
            let r = skillhost(args)
            assertNoRawControls(r.stdout + r.stderr, r)
            XCTAssertTrue(r.stdout.contains(#"evil\e]0;pwned\x07\e[2J\nforged: No problems found.so"#), r.summary)
            XCTAssertFalse(r.stdout.split(separator: "\n").contains { $0.hasPrefix("forged") }, "no forged line: \(r.summary)")
        }
    }

    func testSkillTextAndUnknownIntentsAreShownEscapedByHumanInvoke() throws {
        try addSkill("echo_c.so")
        let r = skillhost(["invoke", "fixture.echo", "--input", #"{"text":"a\u009b2Jb\u202ec"}"#])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        assertNoRawControls(r.stdout, r)
        XCTAssertTrue(r.stdout.contains(#"a\u{9b}2Jb\u{202e}c"#), r.summary)

        let unknown = skillhost(["invoke", "fixture.\(esc)[31mred\nerror (denied): forged"])
        XCTAssertEqual(unknown.exitCode, 11, unknown.summary)
        assertNoRawControls(unknown.stderr, unknown)
        XCTAssertFalse(unknown.stderr.split(separator: "\n").contains { $0.hasPrefix("error (denied)") }, unknown.summary)
    }
}
