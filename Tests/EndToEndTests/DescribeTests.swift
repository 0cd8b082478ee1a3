import Foundation
import XCTest

/// `skillhost describe INTENT [--json]`: an intent's inputs, flags and skill, like gst-inspect-1.0.
final class DescribeTests: EndToEndTestCase {
    func testDescribeShowsInputsWithTypesLimitsDefaultsAndTheSkill() throws {
        let path = try addBundledSkill("libWeatherSkill.so")
        let r = skillhost("describe", "weather.forecast")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        for part in ["weather.forecast — ", "skill:      dev.skillhost.weather 1.0.0 (Weather), \(path)", "flags:      read-only, idempotent, open-world",
                     "MCP tool:   weather-forecast", "INPUTS:", "EXAMPLES:", "skillhost invoke weather.forecast --input '"] {
            XCTAssertTrue(r.stdout.contains(part), "missing \(part): \(r.summary)")
        }
        let days = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix("  days") }, r.summary)
        XCTAssertTrue(days.contains("integer") && days.contains("optional") && days.contains("1 to 16") && days.contains("default 3"), String(days))
    }

    func testDescribeJSONNamesEachInputAndTheSkill() throws {
        try addSkill("echo_c.so")
        try addBundledSkill("libReminderSkill.so")
        let o = try skillhost("describe", "reminder.create", "--json").jsonObject()
        XCTAssertEqual(o["intent"] as? String, "reminder.create")
        XCTAssertEqual(o["mcpTool"] as? String, "reminder-create")
        XCTAssertNotNil(o["version"] as? String)
        XCTAssertEqual((o["skill"] as? [String: Any])?["id"] as? String, "dev.skillhost.reminders")
        let inputs = try XCTUnwrap(o["inputs"] as? [[String: Any]], "\(o)")
        let title = try XCTUnwrap(inputs.first("name", "title"), "\(inputs)")
        XCTAssertEqual(title["type"] as? String, "string")
        XCTAssertEqual(title["required"] as? Bool, true)
        let due = try XCTUnwrap(inputs.first("name", "due"), "\(inputs)")
        XCTAssertEqual(due["required"] as? Bool, false)
        XCTAssertNotNil(o["inputSchema"] as? [String: Any])
        // A fixture with an input and nothing else: required, no limits.
        let echo = try skillhost("describe", "fixture.echo", "-j").jsonObject()
        XCTAssertEqual((echo["inputs"] as? [[String: Any]])?.first("name", "text")?["required"] as? Bool, true, "\(echo)")
    }

    func testAnUnknownIntentIsNoSkillWithTheNearNames() throws {
        try addSkill("echo_c.so")
        let r = skillhost("describe", "fixture.ecko", "--json")
        let e = try assertInvokeError(r, kind: "no_skill", exitCode: 11)
        XCTAssertTrue((e["hint"] as? String ?? "").contains("fixture.echo"), r.summary)
    }

    /// The hint of a schema violation (CLI) points at describe, naming the intent.
    func testInvalidInputHintPointsAtDescribe() throws {
        try addSkill("echo_c.so")
        let r = invoke("fixture.echo", #"{"text":5}"#)
        let e = try assertInvokeError(r, kind: "invalid_input", exitCode: 10)
        XCTAssertTrue((e["hint"] as? String ?? "").contains("skillhost describe fixture.echo"), r.summary)
    }
}
