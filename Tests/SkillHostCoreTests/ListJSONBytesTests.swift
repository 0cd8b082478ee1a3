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

    func testPermissionsAreTheTreeWritersText() {
        for p in [Permissions.none,
                  Permissions(network: ["api.example.com:443", "*:53"], read: ["{home}/a \"b\"", "/etc/ü"], write: ["{data}"],
                              environment: ["TZ", "LANG"], programs: true),
                  Permissions(read: ["{config:calendars}"])] {
            XCTAssertEqual(bytes(p.writeJSON), tree(p.json))
        }
    }
}
