import Foundation
import XCTest

/// The C skill Docs/Writing-Skills.md shows, built and used exactly as it says: compiled with cc against
/// the header alone (with -pedantic -Werror, and the header as C++ too), installed, invoked.
final class ReadmeExampleTests: EndToEndTestCase {
    func testTheREADMECSkillBuildsInstallsAndAnswers() throws {
        let source = E2E.packageRoot + "/Examples/hello-c/hello_skill.c"
        let include = E2E.packageRoot + "/Sources/SkillABI/include"
        let library = work + "/libHelloSkill.so"
        let cc = Run.program("/usr/bin/env", ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-shared", "-fPIC",
                                              "-fvisibility=hidden", "-I", include, "-o", library, source],
                             environment: ProcessInfo.processInfo.environment, timeout: 60)
        XCTAssertEqual(cc.exitCode, 0, cc.summary)
        let cxx = Run.program("/usr/bin/env", ["g++", "-x", "c++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic",
                                               "-fsyntax-only", include + "/skillhost.h"],
                              environment: ProcessInfo.processInfo.environment, timeout: 60)
        XCTAssertEqual(cxx.exitCode, 0, "the header must compile as C++: \(cxx.summary)")

        let installed = skillhost("install", library)
        XCTAssertEqual(installed.exitCode, 0, installed.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: skills + "/libHelloSkill.so"))

        let r = invoke("hello.greet", #"{"name":"Ada"}"#)
        let result = try assertInvokeOK(r, skill: "com.example.hello")
        XCTAssertEqual(result as? [String: String], ["greeting": "Hello, Ada!"])

        let missing = invoke("hello.greet", "{}")
        _ = try assertInvokeError(missing, kind: "invalid_input", exitCode: 10, messageContains: [#"missing required field "name""#])
    }
}
