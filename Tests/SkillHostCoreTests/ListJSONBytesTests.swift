import XCTest
@testable import SkillHostCore

/// The pieces `list --json` writes straight from their values write exactly the text of the JSON
/// tree they stand for (`JSON.write`), byte for byte.
final class ListJSONBytesTests: XCTestCase {
    private func tree(_ j: JSON) -> String {
        var out: [UInt8] = []
        j.write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func bytes(_ write: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        write(&out)
        return String(decoding: out, as: UTF8.self)
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
