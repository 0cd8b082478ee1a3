import XCTest
@testable import SkillHostCore

final class RegistryTests: XCTestCase {
    func skill(_ id: String, _ intents: [(String, Int32, Double)], category: String = "c") -> RegisteredSkill {
        let m = SkillManifest(identity: SkillIdentity(id: id, name: id, version: SemanticVersion("1.0.0")!, category: category, vendor: "",
                                                      description: "", toolchain: nil, abiMajor: 1, abiMinor: 0, threadSafe: true, hasHealth: false),
                              intents: intents.map { IntentManifest(name: $0.0, description: "", inputSchema: ["type": "object"], outputSchema: nil,
                                                                    flags: [], surfaces: .all, priority: $0.1, confidence: $0.2, keywords: [:], examples: []) })
        var text: [UInt8] = []
        m.json.write(to: &text)
        return RegisteredSkill(summary: m.summary, manifestText: text, file: SkillFile(path: "/s/\(id).so", inode: 1, size: 1, mtimeNs: 1), isolation: .inProcess)
    }

    func testOrdersByPriorityThenConfidenceThenID() {
        let r = SkillRegistry([skill("b.low", [("x.y", 0, 0.9)]), skill("a.high", [("x.y", 5, 0.1)]),
                               skill("c.sure", [("x.y", 0, 1.0)]), skill("d.sure", [("x.y", 0, 1.0)])])
        XCTAssertEqual(r.bindings(for: "x.y").map(\.skill.id), ["a.high", "c.sure", "d.sure", "b.low"])
    }

    func testReportsConflictsInsteadOfOverwriting() {
        let r = SkillRegistry([skill("a.one", [("x.y", 0, 1), ("x.z", 0, 1)]), skill("b.two", [("x.y", 1, 1)])])
        XCTAssertEqual(r.conflicts.map(\.intent), ["x.y"])
        XCTAssertEqual(r.conflicts[0].bindings.map(\.skill.id), ["b.two", "a.one"])
        XCTAssertEqual(r.bindings(for: "x.z").count, 1)
    }

    func testLooksUpByIDCategoryAndSuggestsNearIntents() {
        let r = SkillRegistry([skill("a.cal", [("calendar.events.list", 0, 1)], category: "productivity"), skill("b.w", [("weather.forecast", 0, 1)], category: "weather")])
        XCTAssertEqual(r.skill(id: "b.w")?.summary.category, "weather")
        XCTAssertEqual(r.skill(id: "b.w")?.manifest()?.intents.first?.inputSchema, ["type": "object"], "the full manifest parses back from its text")
        XCTAssertEqual(r.skills(inCategory: "productivity").map(\.id), ["a.cal"])
        XCTAssertEqual(r.suggestions(for: "calendar.event.list"), ["calendar.events.list"])
        XCTAssertEqual(r.suggestions(for: "weather.forcast"), ["weather.forecast"])
    }
}
