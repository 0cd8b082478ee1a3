import Foundation
import XCTest

/// `skillhost new`, as a team outside this repository uses it: scaffold a Swift and a C skill into a
/// temporary folder, build each with its own commands (swift build / swift test, make), then install
/// and invoke them through the real binaries.
final class NewSkillTests: EndToEndTestCase {
    /// The caller's environment for the builds (the Swift toolchain, cc), with the test's home.
    var buildEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        return env
    }

    func build(_ command: [String], in dir: String, timeout: TimeInterval = 600) -> CommandResult {
        Run.program("/usr/bin/env", command, environment: buildEnvironment, currentDirectory: dir, timeout: timeout)
    }

    func testSwiftSkillFromNewBuildsTestsInstallsAndAnswers() throws {
        let r = skillhost(["new", "hello-world", "--dir", work, "--json"])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let o = try r.jsonObject()
        let project = try XCTUnwrap(o["path"] as? String)
        XCTAssertEqual(project, work + "/hello-world")
        XCTAssertEqual(o["id"] as? String, "com.example.hello-world")
        XCTAssertEqual(Set(o["files"] as? [String] ?? []),
                       ["Package.swift", "Sources/HelloWorld/HelloWorld.swift", "Tests/HelloWorldTests/HelloWorldTests.swift", "README.md", ".gitignore"])
        let manifest = try String(contentsOfFile: project + "/Package.swift", encoding: .utf8)
        XCTAssertTrue(manifest.contains(#".package(name: "skillhost", path: "\#(E2E.packageRoot)")"#),
                      "the SDK is found from the binary's checkout: \(manifest)")
        XCTAssertTrue(manifest.contains("type: .dynamic"))

        // A debug build (the README says -c release; the product is the same .so, and `swift test`
        // then reuses the build instead of compiling everything a second time).
        let debug = build(["swift", "build"], in: project)
        XCTAssertEqual(debug.exitCode, 0, debug.summary)
        let tests = build(["swift", "test", "--disable-swift-testing"], in: project)
        XCTAssertEqual(tests.exitCode, 0, tests.summary)
        XCTAssertTrue(tests.stdout.contains("Executed 2 tests, with 0 failures"), tests.summary)

        XCTAssertEqual(o["library"] as? String, project + "/.build/release/libHelloWorldSkill.so")
        let library = project + "/.build/debug/libHelloWorldSkill.so"
        try assertValidatesWithoutWarnings(library)
        let readme = try String(contentsOfFile: project + "/README.md", encoding: .utf8)
        XCTAssertFalse(readme.contains("`skillhost list` shows"), "list does not show the toolchain; --version does: \(readme)")
        let installed = skillhost("install", library, "--json")
        XCTAssertEqual(installed.exitCode, 0, "installed with no other step: \(installed.summary)")
        let english = try assertInvokeOK(invoke("hello_world.greet", #"{"name":"Ada"}"#), skill: "com.example.hello-world")
        XCTAssertEqual(english as? [String: String], ["greeting": "Hello, Ada!"])
        let chinese = try assertInvokeOK(invoke("hello_world.greet", #"{"name":"小明","language":"zh"}"#), skill: "com.example.hello-world")
        XCTAssertEqual(chinese as? [String: String], ["greeting": "你好，小明！"])
        try assertInvokeError(invoke("hello_world.greet", #"{"name":"   "}"#), kind: "invalid_input", exitCode: 10, messageContains: ["name"])
    }

    func testCSkillFromNewBuildsWithMakeInstallsAndAnswers() throws {
        let r = skillhost(["new", "tiny-c", "--lang", "c", "--dir", work, "--id", "org.example.tiny", "--vendor", "Tiny Team",
                           "--sdk", E2E.packageRoot, "--json"])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let project = work + "/tiny-c"
        XCTAssertEqual(Set(try r.jsonObject()["files"] as? [String] ?? []), ["tiny-c.c", "Makefile", "README.md", ".gitignore"])

        // The Makefile builds with -std=c99 -Wall -Wextra -Werror -pedantic.
        let make = build(["make"], in: project, timeout: 60)
        XCTAssertEqual(make.exitCode, 0, make.summary)
        XCTAssertTrue(make.stdout.contains("-Werror -pedantic"), make.stdout)
        let library = project + "/libtiny-c.so"
        try assertValidatesWithoutWarnings(library)
        let installed = skillhost("install", library, "--json")
        XCTAssertEqual(installed.exitCode, 0, installed.summary)

        let list = try listAll()
        let s = try XCTUnwrap(list.skills.first("id", "org.example.tiny"), list.result.summary)
        XCTAssertEqual(s["vendor"] as? String, "Tiny Team")
        XCTAssertEqual(s["toolchain"] as? NSNull, NSNull(), "a C skill records no Swift toolchain")
        let greeting = try assertInvokeOK(invoke("tiny_c.greet", #"{"name":"Ada \"the first\" \u00e9"}"#), skill: "org.example.tiny")
        XCTAssertEqual(greeting as? [String: String], ["greeting": "Hello, Ada \"the first\" é!"], "escapes in and out")
        extraEnvironment["LC_ALL"] = "zh_CN.UTF-8"
        let chinese = try assertInvokeOK(invoke("tiny_c.greet", #"{"name":"小明"}"#), skill: "org.example.tiny")
        XCTAssertEqual(chinese as? [String: String], ["greeting": "你好，小明！"], "the caller's locale from the call context")
    }

    /// A fresh scaffold passes the project's own validator with every check PASS (no WARN).
    func assertValidatesWithoutWarnings(_ library: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = skillhost("validate", library, "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary, file: file, line: line)
        let checks = try XCTUnwrap(try r.jsonObject()["checks"] as? [[String: Any]], r.summary, file: file, line: line)
        let notPassed = checks.filter { $0["status"] as? String != "pass" }
        XCTAssertTrue(notPassed.isEmpty, "checks not passed: \(notPassed)", file: file, line: line)
    }

    func testNewRefusesBadNamesAndNonEmptyFolders() throws {
        let bad = skillhost(["new", "Hello World", "--dir", work])
        XCTAssertEqual(bad.exitCode, 2, bad.summary)
        XCTAssertTrue(bad.stderr.contains("NAME must start with a lowercase letter"), bad.stderr)
        XCTAssertEqual(skillhost(["new", "x", "--lang", "rust", "--dir", work]).exitCode, 2)
        try FileManager.default.createDirectory(atPath: work + "/taken", withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: work + "/taken/notes.txt"))
        let taken = skillhost(["new", "taken", "--dir", work, "--json"])
        try assertInvokeError(taken, kind: "invalid_input", exitCode: 10, messageContains: [work + "/taken", "not empty"])
        XCTAssertEqual(try String(contentsOfFile: work + "/taken/notes.txt", encoding: .utf8), "keep", "nothing overwritten")
        let noSDK = skillhost(["new", "lost", "--dir", work, "--sdk", work, "--json"])
        try assertInvokeError(noSDK, kind: "invalid_input", exitCode: 10, messageContains: ["SDK"])
    }

    /// SKH_HOST_HAS, the one macro in the header, compiles as C99 and as C++ with -pedantic -Werror.
    func testHostHasMacroCompilesInCAndCxx() throws {
        let file = work + "/has.c"
        try Data("""
        #include "skillhost.h"
        int has_time_left(const skh_host *host);
        int has_time_left(const skh_host *host) { return SKH_HOST_HAS(host, time_left_ms) ? 1 : 0; }

        """.utf8).write(to: URL(fileURLWithPath: file))
        let include = E2E.packageRoot + "/Sources/SkillABI/include"
        for (compiler, std) in [("cc", ["-std=c99"]), ("g++", ["-x", "c++", "-std=c++11"])] {
            let r = build([compiler] + std + ["-Wall", "-Wextra", "-Werror", "-pedantic", "-DSKH_NO_ENTRY_DECLARATION", "-fsyntax-only", "-I", include, file],
                          in: work, timeout: 60)
            XCTAssertEqual(r.exitCode, 0, "\(compiler): \(r.summary)")
        }
    }
}
