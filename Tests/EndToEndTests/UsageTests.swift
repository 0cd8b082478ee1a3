import Foundation
import XCTest

/// The command line itself: unknown commands and options are usage errors (exit 2), help exits 0.
final class UsageTests: EndToEndTestCase {
    static let commands = ["list", "inspect", "invoke", "health", "install", "doctor", "unblock", "validate",
                           "mcp", "new", "ask", "replay", "traces"]

    func testUnknownCommandExitsTwoNamingIt() throws {
        let r = skillhost("frobnicate")
        XCTAssertEqual(r.exitCode, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("frobnicate"), r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
    }

    func testUnknownOptionExitsTwoForEveryCommand() throws {
        for c in Self.commands {
            let args = ["inspect", "install", "validate"].contains(c) ? [c, fixtures + "/echo_c.so", "--bogus"]
                     : c == "invoke" ? [c, "fixture.echo", "--bogus"] : [c, "--bogus"]
            let r = skillhost(args)
            XCTAssertEqual(r.exitCode, 2, "\(c): \(r.summary)")
            XCTAssertTrue(r.stderr.contains("--bogus"), "\(c): \(r.summary)")
        }
        // install --bogus must not have installed anything.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: skills), [])
    }

    func testHelpForEachCommandExitsZeroAndShowsItsUsage() throws {
        for c in Self.commands {
            for flag in ["--help", "-h"] {
                let r = skillhost(c, flag)
                XCTAssertEqual(r.exitCode, 0, "\(c) \(flag): \(r.summary)")
                XCTAssertTrue(r.stdout.hasPrefix("USAGE: skillhost \(c)"), "\(c) \(flag): \(r.summary)")
            }
        }
    }

    /// `--version` names the version, the toolchain Swift skills must match, and the ABI range served.
    func testVersionNamesTheToolchainAndTheABIServed() throws {
        let r = skillhost("--version")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.hasPrefix("skillhost "), r.summary)
        XCTAssertTrue(r.stdout.contains("toolchain: swift-") && r.stdout.contains("skill ABI: 1.0–1."), r.summary)
        let j = try skillhost("--version", "--json").jsonObject()
        XCTAssertEqual((j["abi"] as? [String: Any])?["major"] as? Int, 1)
        XCTAssertTrue((j["toolchain"] as? String ?? "").hasPrefix("swift-"), "\(j)")
    }

    func testMainHelpExitsZeroAndNoCommandExitsTwo() throws {
        let help = skillhost("--help")
        XCTAssertEqual(help.exitCode, 0, help.summary)
        XCTAssertTrue(help.stdout.contains("EXIT CODES"), help.summary)
        let none = skillhost([])
        XCTAssertEqual(none.exitCode, 2, none.summary)
    }

    func testOptionWithoutItsValueExitsTwo() throws {
        let r = Run.program(E2E.skillhostPath, ["list", "--skills-dir"], environment: environment)
        XCTAssertEqual(r.exitCode, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("--skills-dir"), r.summary)
    }

    func testMissingPositionalArgumentsExitTwo() throws {
        for args in [["invoke"], ["inspect"], ["install"], ["inspect", "a.so", "b.so"]] {
            let r = skillhost(args)
            XCTAssertEqual(r.exitCode, 2, "\(args): \(r.summary)")
        }
    }

    func testMalformedTimeoutExitsTwo() throws {
        try addSkill("echo_c.so")
        let r = skillhost("invoke", "fixture.echo", "--input", #"{"text":"x"}"#, "--timeout", "soon")
        XCTAssertEqual(r.exitCode, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("--timeout"), r.summary)
    }

    /// A malformed option value is a usage error (exit 2), for the global --scan-timeout as for --timeout.
    func testMalformedScanTimeoutExitsTwo() throws {
        for value in ["soon", "0"] {
            let r = skillhost("list", "--scan-timeout", value)
            XCTAssertEqual(r.exitCode, 2, "--scan-timeout \(value): \(r.summary)")
            XCTAssertTrue(r.stderr.contains("--scan-timeout"), r.summary)
        }
    }
}
