import Foundation
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

    /// `writeListMembers` (the permissions and sandbox members of each skill in `list --json`) writes
    /// `permissionsJSON(of:)` and `sandboxStatus(of:)`'s text: requested, granted, missing and
    /// unresolved entries (a `{config:KEY}` the skill's config lacks), a sandbox turned off by the
    /// config (a reason with quotes in it), a trusted skill, and a skill the config says nothing about.
    func testListMembersAreThePermissionsAndSandboxTreesText() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("listmembers-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/skills", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = #"""
        {"skills": {"com.example.cal": {"calendars": ["/srv/cal \"x\""]}},
         "grants": {"com.example.cal": {"read": ["{config:calendars}", "{config:nothere}", "{home}/é"], "network": ["{config:url}", "api.example.com:443"]},
                    "com.example.off": {"sandbox": false, "environment": ["TZ"], "programs": true}}}
        """#
        try config.write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
        let env = ["HOME": dir, "XDG_STATE_HOME": dir + "/state", "XDG_DATA_HOME": dir + "/data", "XDG_CONFIG_HOME": dir + "/config"]
        let host = try SkillHost(HostOptions(skillsDir: dir + "/skills", configPath: dir + "/config.json", environment: env))
        defer { host.shutdown() }

        func skill(_ id: String, requested: Permissions, isolation: Isolation = .process) -> RegisteredSkill {
            var identity = SkillIdentity(id: id, name: "n", version: SemanticVersion("1.0.0")!, category: "c", vendor: "v", description: "d",
                                         toolchain: nil, abiMajor: 1, abiMinor: 3, abiMinorRequired: 0, threadSafe: false, hasHealth: false)
            identity.permissions = requested
            return RegisteredSkill(summary: SkillSummary(identity: identity, intents: []), manifestText: [],
                                   file: SkillFile(path: "/skills/\(id).so", inode: 1, size: 1, mtimeNs: 1), isolation: isolation)
        }
        let skills = [
            skill("com.example.cal", requested: Permissions(network: ["api.example.com:443", "other.example.com:80"],
                                                            read: ["{config:calendars}", "/etc/ü"], write: ["{data}"])),
            skill("com.example.off", requested: Permissions(environment: ["TZ", "LANG"], programs: true)),
            skill("com.example.trusted", requested: Permissions(read: ["{home}"]), isolation: .inProcess),
            skill("com.example.plain", requested: .none),
        ]
        var sawUnresolved = false, sawOff = false
        for s in skills {
            let permissions = host.permissionsJSON(of: s), sandbox = host.sandboxStatus(of: s)
            sawUnresolved = sawUnresolved || !(permissions["unresolved"]?.arrayValue ?? []).isEmpty
            sawOff = sawOff || sandbox.mode == "off"
            let members: [(String, JSON)] = [("permissions", permissions), ("sandbox", .string(sandbox.mode)),
                                             ("sandboxMissing", .array(sandbox.missing.map(JSON.string)))]
            // Right after the object opens, and after another member (as `list --json` writes them).
            XCTAssertEqual(bytes { l in l.raw("{"); host.writeListMembers(of: s, to: &l); l.raw("}") },
                           tree(.object(JSONObject(members))), s.id)
            XCTAssertEqual(bytes { l in l.raw("{"); l.key("id"); l.quoted(s.id); host.writeListMembers(of: s, to: &l); l.raw("}") },
                           tree(.object(JSONObject([("id", .string(s.id))] + members))), s.id)
        }
        XCTAssertTrue(sawUnresolved, "the samples include an unresolved grant")
        XCTAssertTrue(sawOff, "the samples include a sandbox that is off")
    }
}
