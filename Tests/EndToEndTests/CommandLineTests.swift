import Foundation
import XCTest

/// The conventions of the one option table (`CommandTable`): short options, bundling, `--opt=value`,
/// `--`, "did you mean", usage errors as JSON, `version` in every JSON document, help with examples,
/// the man page and the shell completions made from the same table.
final class CommandLineTests: EndToEndTestCase {
    func testShortOptionsBundledAndAttachedValuesWork() throws {
        try addSkill("echo_c.so")
        XCTAssertEqual(try skillhost("list", "-j").listedSkills().count, 1)
        XCTAssertEqual(try skillhost("list", "-aj").listedSkills().count, 1)
        // -ji VALUE: a flag then an option whose value is the next argument; -iVALUE attached.
        try assertInvokeOK(skillhost(["invoke", "fixture.echo", "-ji", #"{"text":"a"}"#]), skill: "test.fixture.echo")
        let attached = skillhost(["invoke", "fixture.echo", "-j", #"-i{"text":"b"}"#])
        XCTAssertEqual((try assertInvokeOK(attached, skill: "test.fixture.echo") as? [String: Any])?["text"] as? String, "b")
        // --opt=value keeps everything after the first "=".
        let eq = skillhost(["invoke", "fixture.echo", "--json", #"--input={"text":"x=y"}"#])
        XCTAssertEqual((try assertInvokeOK(eq, skill: "test.fixture.echo") as? [String: Any])?["text"] as? String, "x=y")
    }

    func testDoubleDashEndsOptions() throws {
        let odd = try addSkill("echo_c.so", as: "-echo.so")
        _ = odd
        // Without --, "-echo.so" is a cluster of unknown short options; after --, a file name.
        let without = skillhost(["inspect", "--skills-dir", skills, "-echo.so", "--json"], currentDirectory: skills)
        XCTAssertEqual(without.exitCode, 2, without.summary)
        let with = skillhost(["inspect", "--skills-dir", skills, "--json", "--", "-echo.so"], currentDirectory: skills)
        XCTAssertEqual(with.exitCode, 0, with.summary)
        XCTAssertEqual(try with.jsonObject()["id"] as? String, "test.fixture.echo", with.summary)
        // After --, "--json" is an argument too: list takes none.
        XCTAssertEqual(skillhost(["list", "--skills-dir", skills, "--", "--json"]).exitCode, 2)
    }

    func testUnknownCommandsAndOptionsSuggestTheNearest() throws {
        let command = skillhost("lsit")
        XCTAssertEqual(command.exitCode, 2, command.summary)
        XCTAssertTrue(command.stderr.contains("did you mean `skillhost list`?"), command.summary)
        let option = skillhost("list", "--jsno")
        XCTAssertEqual(option.exitCode, 2, option.summary)
        XCTAssertTrue(option.stderr.contains("unknown option --jsno") && option.stderr.contains("did you mean --json?"), option.summary)
        let invoke = skillhost("invoke", "x", "--imput", "{}")
        XCTAssertTrue(invoke.stderr.contains("did you mean --input?"), invoke.summary)
        // An option of a command, given before the command: where it belongs.
        let early = skillhost("--all", "list")
        XCTAssertEqual(early.exitCode, 2, early.summary)
        XCTAssertTrue(early.stderr.contains("--all belongs to `skillhost list`"), early.summary)
        // A value outside an option's choices.
        let color = skillhost("list", "--color=sometimes")
        XCTAssertEqual(color.exitCode, 2, color.summary)
        XCTAssertTrue(color.stderr.contains("--color expects one of auto, always, never, found \"sometimes\""), color.summary)
        let lang = skillhost(["new", "x", "--lang", "swfit", "--dir", work])
        XCTAssertTrue(lang.stderr.contains("did you mean --lang swift?"), lang.summary)
    }

    func testUsageErrorsAreJSONUnderJSON() throws {
        for args in [["list", "--bogus", "--json"], ["-j", "invoke"], ["frobnicate", "--json"], ["list", "-jx"],
                     ["invoke", "fixture.echo", "--json", "--timeout", "soon"]] {
            let r = skillhost(args)
            XCTAssertEqual(r.exitCode, 2, "\(args): \(r.summary)")
            XCTAssertEqual(r.stderr, "", "\(args): the error is on stdout, as JSON: \(r.summary)")
            let o = try r.jsonObject()
            XCTAssertEqual(o["ok"] as? Bool, false, r.summary)
            let e = try XCTUnwrap(o["error"] as? [String: Any], r.summary)
            XCTAssertEqual(e["kind"] as? String, "usage", r.summary)
            XCTAssertFalse((e["message"] as? String ?? "").isEmpty, r.summary)
            XCTAssertFalse((e["hint"] as? String ?? "").isEmpty, r.summary)
            XCTAssertEqual(o["version"] as? String, try version(), r.summary)
        }
    }

    /// skillhost's version, except in documents about one skill whose `version` is that skill's
    /// (inspect, install, validate, a successful invoke).
    func testEveryJSONDocumentCarriesTheVersion() throws {
        try addSkill("echo_c.so")
        let v = try version()
        for args in [["list", "--json"], ["list", "--all", "--json"], ["doctor", "--json"], ["describe", "fixture.echo", "--json"],
                     ["invoke", "no.such", "--json"], ["new", "v-skill", "--lang", "c", "--dir", work, "--json", "--sdk", E2E.packageRoot],
                     ["unblock", "test.fixture.echo", "--json"], ["version", "--json"], ["--version", "--json"],
                     ["health", "--json"], ["traces", "--json"]] {
            let r = skillhost(args)
            XCTAssertEqual(try r.jsonObject()["version"] as? String, v, "\(args): \(r.summary)")
        }
    }

    func testVersionCommandIsTheVersionFlag() throws {
        let flag = skillhost("--version"), short = skillhost("-V"), command = skillhost("version")
        XCTAssertEqual(command.exitCode, 0, command.summary)
        XCTAssertEqual(flag.stdout, command.stdout)
        XCTAssertEqual(short.stdout, command.stdout)
        XCTAssertTrue(command.stdout.hasPrefix("skillhost "), command.summary)
    }

    func testCommandHelpHasExamplesOptionsAndTheGlobalOptions() throws {
        for c in ["list", "describe", "invoke", "install", "new", "ask", "completions"] {
            for help in [skillhost(c, "--help"), skillhost("help", c)] {
                XCTAssertEqual(help.exitCode, 0, help.summary)
                for part in ["USAGE: skillhost \(c)", "GLOBAL OPTIONS:", "--skills-dir DIR", "--config FILE", "-j, --json", "EXAMPLES:", "$ skillhost"] {
                    XCTAssertTrue(help.stdout.contains(part), "\(c) help lacks \(part): \(help.summary)")
                }
            }
        }
        XCTAssertTrue(skillhost("invoke", "-h").stdout.contains("-i, --input JSON"))
        XCTAssertEqual(skillhost("help", "lsit").exitCode, 2)
    }

    func testManPageIsValidRoffWithEveryCommand() throws {
        let r = skillhost("man")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.hasPrefix(".TH SKILLHOST 1"), r.summary)
        for c in ["list", "describe", "invoke", "install", "validate", "doctor", "new", "ask", "mcp", "completions"] {
            XCTAssertTrue(r.stdout.contains("\n.SS \(c.replacingOccurrences(of: "-", with: "\\-"))\n"), "no section for \(c)")
        }
        XCTAssertFalse(r.stdout.contains("__complete"), "hidden commands stay out of the manual")
        // groff checks it: no warnings (but the line-breaking ones of long words), and the text reads back.
        let path = work + "/skillhost.1"
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: path))
        let groff = Run.program("/usr/bin/env", ["groff", "-man", "-Tutf8", "-ww", "-Wbreak", path], environment: environment)
        XCTAssertEqual(groff.exitCode, 0, groff.summary)
        XCTAssertEqual(groff.stderr, "", "groff warnings: \(groff.summary)")
        XCTAssertTrue(groff.stdout.contains("skillhost invoke INTENT"), groff.summary)
    }

    /// The bash script, loaded into a real bash: commands, options, choices, and intents from the
    /// skills registered in the --skills-dir typed on the line.
    func testBashCompletionCompletesCommandsOptionsChoicesAndIntents() throws {
        try addSkill("echo_c.so")
        let script = skillhost("completions", "bash")
        XCTAssertEqual(script.exitCode, 0, script.summary)
        let path = work + "/skillhost.bash"
        try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: path))
        func complete(_ words: [String]) -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let program = "source '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _skillhost; printf '%s\\n' \"${COMPREPLY[@]}\""
            var env = environment
            env["PATH"] = E2E.binDir + ":" + (env["PATH"] ?? "/usr/bin:/bin")
            let r = Run.program("/bin/bash", ["-c", program], environment: env)
            XCTAssertEqual(r.exitCode, 0, r.summary)
            return r.stdout.split(separator: "\n").map(String.init).sorted()
        }
        XCTAssertEqual(complete(["skillhost", "inv"]), ["invoke"])
        XCTAssertEqual(complete(["skillhost", "de"]), ["describe"])
        XCTAssertEqual(complete(["skillhost", "list", "--a"]), ["--all"])
        XCTAssertEqual(complete(["skillhost", "new", "x", "--lang", ""]), ["c", "swift"])
        XCTAssertEqual(complete(["skillhost", "list", "--color", "al"]), ["always"])
        XCTAssertEqual(complete(["skillhost", "completions", ""]), ["bash", "fish", "zsh"])
        XCTAssertEqual(complete(["skillhost", "--skills-dir", skills, "invoke", "fixture.e"]), ["fixture.echo", "fixture.echo.strict"])
        XCTAssertEqual(complete(["skillhost", "describe", "--skills-dir", skills, "fix"]), ["fixture.echo", "fixture.echo.strict"])
        XCTAssertEqual(complete(["skillhost", "unblock", "--skills-dir", skills, "test."]), ["test.fixture.echo"])
    }

    func testZshAndFishScriptsNameEveryCommand() throws {
        for shell in ["zsh", "fish"] {
            let r = skillhost("completions", shell)
            XCTAssertEqual(r.exitCode, 0, r.summary)
            for c in ["list", "describe", "invoke", "install", "new", "mcp"] { XCTAssertTrue(r.stdout.contains(c), "\(shell): \(c)") }
            // The shells themselves check the syntax when they are installed (.ci/run installs them).
            let check = Run.program("/usr/bin/env", [shell, "-n", "/dev/stdin"], environment: environment, stdin: Data(r.stdout.utf8))
            XCTAssertEqual(check.exitCode, 0, "\(shell) -n: \(check.summary)")
        }
        XCTAssertEqual(skillhost("completions", "tcsh").exitCode, 2)
    }

    private func version() throws -> String {
        try XCTUnwrap(try skillhost("version", "--json").jsonObject()["version"] as? String)
    }
}
