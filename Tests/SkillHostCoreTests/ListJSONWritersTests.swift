import XCTest
import SkillWire
@testable import SkillHostCore

/// The pieces `list --json` writes straight from their values into a `Line` write exactly the text
/// of the JSON tree they stand for (`JSON.write`), byte for byte.
final class ListJSONWritersTests: XCTestCase {
    private func tree(_ j: JSON) -> String {
        var out: [UInt8] = []
        j.write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func bytes(_ write: (inout Line) -> Void) -> String {
        var line = Line()
        write(&line)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    /// `Line.quoted` (every writer above) and `JSON.writeString` (the tree's writer) escape alike:
    /// every control byte, `"` and `\` escaped; `/`, DEL and non-ASCII as they are; text decoded from
    /// invalid UTF-8 (repaired to U+FFFD when the String was made) the same way.
    func testLineAndTheTreeWriterQuoteEveryStringAlike() {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let invalid = String(decoding: [0x61, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x62], as: UTF8.self)
        let samples = ["", "plain", controls, "a/b</script>", "\u{7f}", "quote \" backslash \\", "é 日本 😀", invalid,
                       String(repeating: "x", count: 256) + "\n", controls + String(repeating: "é", count: 100)]
        for s in samples {
            var tree: [UInt8] = []
            JSON.writeString(s, to: &tree)
            var line = Line()
            line.quoted(s)
            XCTAssertEqual(line.bytes, tree, "\(s.debugDescription.prefix(40))")
            var list = Line()
            list.strings([s, s])
            XCTAssertEqual(list.bytes, [0x5b] + tree + [0x2c] + tree + [0x5d])
        }
    }

    func testAHealthDetailIsTheTreeWritersText() {
        var crashed = SkillHealth()
        crashed.state = .quarantined
        crashed.reason = "crashed \"3\" times\n\u{1}ü"
        crashed.since = 1_764_633_600
        crashed.lastFailure = 1_764_633_601
        (crashed.calls, crashed.failures, crashed.crashes, crashed.timeouts) = (12, 5, 3, 1)
        var probed = crashed
        probed.lastFailure = nil
        probed.probe = HealthRecord(status: "degraded", message: "slow \"db\"", checkedAt: "2026-12-02T01:00:00Z", latencyMs: 12.3456)
        var whole = probed
        whole.probe?.latencyMs = 7
        var noLatency = probed
        noLatency.probe?.latencyMs = nil
        for h in [SkillHealth(), crashed, probed, whole, noLatency] {
            XCTAssertEqual(bytes(h.writeDetailJSON), tree(h.detailJSON))
        }
    }

    func testAConflictIsTheTreeWritersText() {
        func skill(_ id: String, _ path: String) -> RegisteredSkill {
            let identity = SkillIdentity(id: id, name: "n", version: SemanticVersion("1.0.0")!, category: "c", vendor: "v", description: "d",
                                         toolchain: nil, abiMajor: 1, abiMinor: 3, abiMinorRequired: 0, threadSafe: false, hasHealth: false)
            return RegisteredSkill(summary: SkillSummary(identity: identity, intents: []), manifestText: [],
                                   file: SkillFile(path: path, inode: 1, size: 1, mtimeNs: 1), isolation: .process)
        }
        let bindings = [(10, 0.9), (0, 1.0), (0, 0.1 + 0.2), (-3, 0)].enumerated().map { k, pc in
            IntentBinding(skill: skill("com.example.s\(k)", "/skills/s \"\(k)\".so"),
                          intent: IntentSummary(name: "example.shared", flags: IntentFlags(rawValue: 0), surfaces: Surfaces(rawValue: 1),
                                                priority: Int32(pc.0), confidence: pc.1))
        }
        for c in [IntentConflict(intent: "example.shared", bindings: bindings), IntentConflict(intent: "x.y@2", bindings: [bindings[1]])] {
            XCTAssertEqual(bytes(c.writeJSON), tree(c.json))
        }
    }

    func testPermissionsAreTheTreeWritersText() {
        for p in [Permissions.none,
                  Permissions(network: ["api.example.com:443", "*:53"], read: ["{home}/a \"b\"", "/etc/ü"], write: ["{data}"],
                              environment: ["TZ", "LANG"], programs: true),
                  Permissions(read: ["{config:calendars}"])] {
            XCTAssertEqual(bytes(p.writeJSON), tree(p.json))
        }
    }
}
