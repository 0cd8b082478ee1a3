import Foundation
import XCTest
@testable import SkillHostCore

/// A skill's memo (`SkillMemo`) keeps what its calls reuse — the runtime and the call context — per
/// host: a skill value that reaches another host gets that host's runtime and context, never the first
/// host's; and each caller kind keeps its own context.
final class SkillMemoTests: EndToEndTestCase {
    func testAnotherHostNeverGetsTheFirstHostsRuntimeOrContext() throws {
        try addSkill("echo_c.so")
        var env = environment
        env["SKILLHOST_WORKER"] = E2E.binDir + "/skillhost-worker"
        env["SKILLHOST_NOW"] = "2026-12-02T10:00:00Z"
        env["SKILLHOST_CONFIG"] = try writeConfig(#"{"skills":{"test.fixture.echo":{"team":"one"}}}"#)
        let first = try SkillHost(HostOptions(skillsDir: skills, environment: env))
        defer { first.shutdown() }
        let second = try SkillHost(HostOptions(skillsDir: skills, environment: env.merging(["SKILLHOST_CONFIG": try writeOtherConfig()]) { $1 }))
        defer { second.shutdown() }
        let skill = try XCTUnwrap(first.registry.skill(id: "test.fixture.echo"))

        let one = first.invoker.context(for: skill, caller: .automation)
        XCTAssertTrue(one.contains(#""team":"one""#), one)
        XCTAssertEqual(first.invoker.context(for: skill, caller: .automation), one, "the same text from the memo")
        let two = second.invoker.context(for: skill, caller: .automation)
        XCTAssertTrue(two.contains(#""team":"two""#), "the second host's own config section, not the first one's memo: \(two)")
        XCTAssertEqual(first.invoker.context(for: skill, caller: .automation), one, "the second host's entry did not replace the first's")

        let human = first.invoker.context(for: skill, caller: .human)
        XCTAssertTrue(human.contains(#""caller":"human""#), human)
        XCTAssertTrue(first.invoker.context(for: skill, caller: .agent(host: "x")).contains(#""caller":"agent""#))
        XCTAssertTrue(one.contains(#""caller":"automation""#) && one.contains(#""now":"2026-12-02T10:00:00Z""#), one)

        guard case .success(let r1) = first.invoker.runtime(for: skill), case .success(let r1again) = first.invoker.runtime(for: skill),
              case .success(let r2) = second.invoker.runtime(for: skill) else { return XCTFail("no runtime") }
        XCTAssertTrue(r1 as AnyObject === r1again as AnyObject, "the memo's runtime")
        XCTAssertFalse(r1 as AnyObject === r2 as AnyObject, "the second host makes its own runtime for the skill")
    }

    private func writeOtherConfig() throws -> String {
        let path = work + "/config-two.json"
        try Data(#"{"skills":{"test.fixture.echo":{"team":"two"}}}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
