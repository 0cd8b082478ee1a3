import Foundation
import XCTest
@testable import SkillHostCore

/// Issue 12, item 19: health() is [serialized] with itself for an in-process (trusted) skill too: a
/// probe does not call the skill again while an earlier probe that timed out is still inside it.
final class InProcessHealthTests: EndToEndTestCase {
    func testAProbeDoesNotOverlapATimedOutProbeStillInsideTheSkill() async throws {
        try addSkill("slow_health.so")
        var env = environment
        env["SKILLHOST_WORKER"] = E2E.binDir + "/skillhost-worker"
        env["SKILLHOST_CONFIG"] = try writeConfig(#"{"trusted":["test.fixture.slowhealth"]}"#)
        let host = try SkillHost(HostOptions(skillsDir: skills, environment: env))
        defer { host.shutdown() }
        let skill = try XCTUnwrap(host.registry.skill(id: "test.fixture.slowhealth"))
        XCTAssertEqual(skill.isolation, .inProcess)
        guard case .success(let runtime) = host.invoker.runtime(for: skill) else { return XCTFail("cannot load the skill in-process") }
        let context = host.invoker.context(for: skill, caller: .automation)

        // health() takes 500 ms: the first probe gives up after 150 ms and leaves it running.
        let first = await runtime.health(context: context, deadline: .now() + .milliseconds(150))
        XCTAssertEqual(first.status, .unavailable, first.message)
        let second = await runtime.health(context: context, deadline: .now() + .milliseconds(150))
        XCTAssertEqual(second.status, .unavailable)
        XCTAssertTrue(second.message.contains("still running inside the skill"), "not called again while the first runs: \(second.message)")
        // A patient probe gets the first one's answer: health() ran once at a time.
        let third = await runtime.health(context: context, deadline: .now() + .seconds(3))
        XCTAssertEqual(third.status, .ok, third.message)
        XCTAssertEqual(third.message, "max 1 concurrent", "never two health() calls at once")
    }
}
