import Foundation
import XCTest

/// Feedback on a terminal: live progress on stderr (a skill's own reports, slow calls, validate),
/// silent when piped, plain text for TERM=dumb; colour with --color and NO_COLOR; tables that fit
/// $COLUMNS. The terminal is a real pty (`script`).
final class FeedbackTests: EndToEndTestCase {
    /// `skillhost ARGS --skills-dir SKILLS` on a pseudo-terminal (stdin, stdout and stderr), with `term`
    /// as TERM; returns everything the terminal received.
    func onTerminal(_ args: [String], term: String = "xterm", extra: [String: String] = [:]) -> CommandResult {
        let quoted = ([E2E.skillhostPath] + args + ["--skills-dir", skills]).map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        var env = environment
        env["TERM"] = term
        for (k, v) in extra { env[k] = v }
        return Run.program("/usr/bin/script", ["-qec", quoted.joined(separator: " "), "/dev/null"], environment: env, timeout: 30)
    }

    func testInvokeShowsTheSkillsProgressOnATerminalOnly() throws {
        try addSkill("progress.so")
        let tty = onTerminal(["invoke", "fixture.progress"])
        XCTAssertEqual(tty.exitCode, 0, tty.summary)
        XCTAssertTrue(tty.stdout.contains("fixture.progress 1/3 step one of three"), tty.summary)
        XCTAssertTrue(tty.stdout.contains("fixture.progress 2/3 step two of three"), tty.summary)
        XCTAssertTrue(tty.stdout.contains("\r\u{1B}[K"), "the line is rewritten in place: \(tty.summary)")
        // Piped: the same call prints its result and nothing else.
        let piped = skillhost("invoke", "fixture.progress")
        XCTAssertEqual(piped.exitCode, 0, piped.summary)
        XCTAssertEqual(piped.stderr, "", piped.summary)
        XCTAssertFalse(piped.stdout.contains("step one"), piped.summary)
    }

    func testASlowCallShowsThatItIsRunningAfterAMoment() throws {
        try addSkill("slow.so")
        let tty = onTerminal(["invoke", "fixture.slow", "--input", #"{"ms":900}"#])
        XCTAssertEqual(tty.exitCode, 0, tty.summary)
        XCTAssertTrue(tty.stdout.contains("⋯ fixture.slow ("), tty.summary)
        XCTAssertTrue(tty.stdout.contains("sleptMs"), tty.summary)
    }

    /// A skill whose initializer hangs holds the scan until its deadline: the terminal hears why.
    func testASlowScanSaysSoOnATerminal() throws {
        try addSkill("init_hang.so")
        let tty = onTerminal(["list", "--scan-timeout", "1200"])
        XCTAssertEqual(tty.exitCode, 0, tty.summary)
        XCTAssertTrue(tty.stdout.contains("⋯ scanning the skill folders ("), tty.summary)
        let piped = skillhost("list", "--scan-timeout", "1200")
        XCTAssertFalse(piped.stderr.contains("scanning"), piped.summary)
    }

    func testDumbTerminalGetsPlainTextOnly() throws {
        try addSkill("progress.so")
        try addSkill("slow.so")
        for args in [["invoke", "fixture.progress"], ["invoke", "fixture.slow", "--input", #"{"ms":700}"#], ["doctor"],
                     ["validate", fixtures + "/echo_c.so"]] {
            let r = onTerminal(args, term: "dumb")
            XCTAssertFalse(r.stdout.contains("\u{1B}"), "TERM=dumb: no escape sequence in \(args): \(r.summary)")
        }
    }

    func testColourFollowsTheOptionAndNoColor() throws {
        let always = skillhost("validate", fixtures + "/echo_c.so", "--color=always")
        XCTAssertTrue(always.stdout.contains("\u{1B}[32mPASS\u{1B}[0m"), always.summary)
        XCTAssertFalse(skillhost("validate", fixtures + "/echo_c.so").stdout.contains("\u{1B}"), "piped: no colour")
        let tty = onTerminal(["validate", fixtures + "/echo_c.so"])
        XCTAssertTrue(tty.stdout.contains("\u{1B}[32mPASS"), "a terminal gets colour: \(tty.summary)")
        let noColor = onTerminal(["validate", fixtures + "/echo_c.so"], extra: ["NO_COLOR": "1"])
        XCTAssertFalse(noColor.stdout.contains("\u{1B}[32m"), noColor.summary)
        let never = onTerminal(["validate", fixtures + "/echo_c.so", "--color", "never"])
        XCTAssertFalse(never.stdout.contains("\u{1B}[32m"), never.summary)
        // Errors on stderr too.
        let error = skillhost("invoke", "no.such", "--color=always")
        XCTAssertTrue(error.stderr.hasPrefix("\u{1B}[31merror (no_skill):\u{1B}[0m"), error.summary)
    }

    func testTablesFitTheWidth() throws {
        try addSkill("echo_c.so")
        try addSkill("progress.so")
        extraEnvironment["COLUMNS"] = "100"
        let wide = skillhost("list")
        extraEnvironment["COLUMNS"] = "90"
        let narrow = skillhost("list")
        XCTAssertEqual(narrow.exitCode, 0, narrow.summary)
        let tableLines = { (r: CommandResult) in r.stdout.split(separator: "\n").prefix(3) }
        XCTAssertTrue(tableLines(wide).contains { $0.count > 90 }, "the test needs a line longer than 90: \(wide.summary)")
        for line in tableLines(narrow) { XCTAssertLessThanOrEqual(line.count, 90, narrow.summary) }
        XCTAssertTrue(narrow.stdout.contains("…"), narrow.summary)
    }
}
