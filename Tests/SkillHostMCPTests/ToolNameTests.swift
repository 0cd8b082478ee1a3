import XCTest
@testable import SkillHostMCP
@testable import SkillHostCore

/// Tool names every MCP client accepts (`^[a-zA-Z0-9_-]{1,64}$`), by one rule that maps back to exactly
/// one intent: "." → "-", "@N" → "--vN".
final class ToolNameTests: XCTestCase {
    /// `^[a-zA-Z0-9_-]{1,64}$`.
    func accepted(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x2d
        }
    }

    func testNamesFollowTheRuleAndMapBack() {
        let cases = ["calendar.events.list": "calendar-events-list", "calendar.events.list@2": "calendar-events-list--v2",
                     "weather_alerts.greet": "weather_alerts-greet", "a.b_v2": "a-b_v2", "a.b@2": "a-b--v2", "a.v2": "a-v2",
                     "mail.triage": "mail-triage", "x1.y_2.z@17": "x1-y_2-z--v17"]
        for (address, name) in cases {
            XCTAssertEqual(ToolCatalog.toolName(address), name, address)
            XCTAssertTrue(accepted(name), name)
            XCTAssertEqual(ToolCatalog.address(ofTool: name), address, name)
        }
    }

    func testDistinctIntentsNeverShareAToolName() {
        // Every intent name over a small alphabet, with and without versions: the names are all distinct.
        let segments = ["a", "b", "a_b", "v2", "a_v2", "b2"]
        var names: [String: String] = [:]
        for x in segments { for y in segments { for z in [nil] + segments {
            let base = ([x, y] + (z.map { [$0] } ?? [])).joined(separator: ".")
            for address in [base, base + "@2", base + "@10"] {
                let name = ToolCatalog.toolName(address)
                XCTAssertNil(names[name].flatMap { $0 == address ? nil : $0 }, "\(address) and \(names[name] ?? "") share \(name)")
                names[name] = address
            }
        } } }
    }

    func testNamesThatNoIntentHasAreNotMappedBack() {
        for name in ["", "-", "a", "a--b", "a-b--v1", "a-b--v02", "a-b--vx", "A-b", "a-b-", "skillhost_ask"] {
            XCTAssertNil(ToolCatalog.address(ofTool: name), name)
        }
    }
}
