import Foundation
import XCTest

/// The worker sandbox (issue 11), through the real binaries: `hostile.so` tries every escape from inside
/// one invoke and reports the errno of each. Every escape must fail inside the skill, its allowed
/// actions must work, and the host and the other skills must be unaffected; then a grant for one
/// loopback port and one folder opens exactly those two. Runs as root in CI and as a plain user.
final class SandboxTests: EndToEndTestCase {
    var listener: Int32 = -1
    var port = 0
    /// A loopback UDP socket the skill must not reach (`udp_send`), and its port.
    var datagrams: Int32 = -1
    var udpPort = 0
    var granted = ""
    var outside = ""
    var otherData = ""
    static let secretName = "HOSTILE_TEST_SECRET"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try addSkill("hostile.so")
        try addSkill("echo_c.so")
        granted = work + "/granted"
        outside = work + "/outside"
        otherData = home + "/.local/share/skillhost/test.fixture.echo"
        for d in [granted, outside, otherData] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try Data("not for skills\n".utf8).write(to: URL(fileURLWithPath: home + "/secret.txt"))
        // A loopback listener the skill may reach only once its port is granted.
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 64), 0)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) } }
        port = Int(UInt16(bigEndian: a.sin_port))
        (datagrams, udpPort) = try Self.loopbackUDPSocket()
        extraEnvironment[Self.secretName] = "hunter2"
    }

    override func tearDownWithError() throws {
        if listener >= 0 { close(listener) }
        if datagrams >= 0 { close(datagrams) }
        if !work.isEmpty { assertNoWorkersLeft() }
        try super.tearDownWithError()
    }

    /// A non-blocking UDP socket bound to 127.0.0.1 on a free port, and the port.
    static func loopbackUDPSocket() throws -> (Int32, Int) {
        let s = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw HarnessError("UDP socket: \(String(cString: strerror(errno)))") }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, len) == 0 && getsockname(s, $0, &len) == 0 } }
        guard bound else { throw HarnessError("UDP bind on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return (s, Int(UInt16(bigEndian: a.sin_port)))
    }

    /// The datagrams that reached `datagrams` so far (the skill's `udp_send` sends "hostile").
    func receivedDatagrams() -> [String] {
        var out: [String] = []
        var buf = [UInt8](repeating: 0, count: 64)
        while true {
            let n = recv(datagrams, &buf, buf.count, 0)
            if n < 0 { return out }
            out.append(String(decoding: buf[0..<n], as: UTF8.self))
        }
    }

    /// Runs the hostile fixture's one call; returns (escapes, allowed), errno by action (0 = it worked).
    func attempt(file: StaticString = #filePath, line: UInt = #line) throws -> (escapes: [String: Int], allowed: [String: Int]) {
        let input = """
        {"outsideFile":"\(home)/secret.txt","outsideDir":"\(outside)","otherData":"\(otherData)","port":"\(port)","udpPort":"\(udpPort)",\
        "secret":"\(Self.secretName)","grantedDir":"\(granted)"}
        """
        let r = invoke("fixture.hostile", input, ["--timeout", "20000"], timeout: 40)
        let result = try XCTUnwrap(try assertInvokeOK(r, skill: "test.fixture.hostile", file: file, line: line) as? [String: Any], r.summary, file: file, line: line)
        let escapes = try XCTUnwrap(result["escapes"] as? [String: Int], "\(result)", file: file, line: line)
        let allowed = try XCTUnwrap(result["allowed"] as? [String: Int], "\(result)", file: file, line: line)
        return (escapes, allowed)
    }

    func testEveryEscapeFailsInsideTheSkillAndItsAllowedActionsWork() throws {
        let (escapes, allowed) = try attempt()
        let expected: [String: Int32] = [
            "read_outside": EACCES, "write_outside": EACCES, "write_other_skill": EACCES, "write_data_parent": EACCES,
            "connect_port": EACCES, "bind_port": EACCES, "udp_send": EACCES, "host_proc_mem": EACCES, "host_proc_environ": EACCES,
            "kill_host": EPERM, "ptrace_host": EPERM, "secret_env": ENOENT, "run_sh": EACCES, "fork_2000": EAGAIN,
            "raw_socket": EPERM, "packet_socket": EPERM, "user_namespace": EPERM, "device_node": EACCES, "etc_shadow": EACCES,
            "udp_socket": EACCES, "inet6_socket": EACCES, "netlink_socket": EACCES,
            "socketpair_dgram": EACCES, "bind_abstract": EACCES, "connect_abstract": EACCES,
        ]
        XCTAssertEqual(Set(escapes.keys), Set(expected.keys), "the fixture tried every escape: \(escapes)")
        for (name, errno) in expected {
            XCTAssertEqual(escapes[name], Int(errno), "\(name) must fail with \(String(cString: strerror(errno))) inside the skill (got \(escapes[name] ?? -1)): \(escapes)")
        }
        for name in ["data_folder", "own_file", "allocate", "clock", "time_zone_data"] {
            XCTAssertEqual(allowed[name], 0, "\(name) must work in the sandbox: \(allowed)")
        }
        XCTAssertNotEqual(allowed["granted_folder"], 0, "not granted yet: \(allowed)")
        XCTAssertNotEqual(allowed["granted_port"], 0, "not granted yet: \(allowed)")

        XCTAssertEqual(receivedDatagrams(), [], "no datagram reached the loopback")
        // Nothing was left where the skill may not write, and the host and the other skill go on.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: otherData), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.local/share/skillhost/hostile-was-here"))
        try assertEchoStillServes()
        XCTAssertEqual(try assertInvokeOK(invoke("fixture.hostile.ok", "{}"), skill: "test.fixture.hostile") as? [String: Bool], ["ok": true],
                       "the skill's worker is not killed for trying")

        // list shows what it asks for, what it was granted (nothing), what is missing, and the sandbox.
        let list = skillhost("list", "--json")
        let s = try XCTUnwrap(try list.listedSkills().first { $0["id"] as? String == "test.fixture.hostile" }, list.summary)
        XCTAssertEqual(s["sandbox"] as? String, "full", "this kernel has everything (Landlock 6+, seccomp, namespaces): \(s)")
        let p = try XCTUnwrap(s["permissions"] as? [String: Any])
        XCTAssertEqual((p["requested"] as? [String: Any])?["network"] as? [String], ["127.0.0.1:9"])
        XCTAssertEqual((p["granted"] as? [String: Any])?["network"] as? [String], [])
        XCTAssertEqual(p["missing"] as? [String], ["network 127.0.0.1:9"])
        let doctor = skillhost("doctor")
        XCTAssertTrue(doctor.stdout.contains("test.fixture.hostile asks for permissions it was not granted: network 127.0.0.1:9"), doctor.summary)
    }

    func testGrantingOnePortAndOneFolderOpensExactlyThoseTwo() throws {
        let before = try attempt()
        try writeConfig(#"{"grants": {"test.fixture.hostile": {"network": ["127.0.0.1:\#(port)"], "write": ["\#(granted)"]}}}"#)
        let after = try attempt()
        var opened: [String] = []
        for (k, v) in after.escapes where v == 0 && before.escapes[k] != 0 { opened.append("escapes." + k) }
        for (k, v) in after.allowed where v == 0 && before.allowed[k] != 0 { opened.append("allowed." + k) }
        // A granted port lets the skill make sockets again (UDP is not filtered, see Docs/Isolation.md);
        // TCP reaches only the granted port. (`connect_abstract` still fails: its socket is connected.)
        let sockets = ["escapes.bind_abstract", "escapes.inet6_socket", "escapes.netlink_socket", "escapes.socketpair_dgram", "escapes.udp_socket",
                       "escapes.udp_send"]
        XCTAssertEqual(opened.sorted(), (["allowed.granted_folder", "allowed.granted_port", "escapes.connect_port"] + sockets).sorted(),
                       "exactly the granted port (which the escape list also tries), sockets, and the granted folder: \(before) → \(after)")
        for (k, v) in after.escapes where !sockets.contains("escapes." + k) && k != "connect_port" {
            XCTAssertNotEqual(v, 0, "\(k) still fails: \(after.escapes)")
        }
        for (k, v) in after.allowed { XCTAssertEqual(v, 0, "\(k): \(after.allowed)") }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: granted), [], "the fixture cleans up after itself")
    }

    /// `Tests/Programs/seccomp_fill.c`, built once per run with `cc`: runs a program with the kernel's
    /// seccomp budget spent (allow-everything filters until the kernel refuses one).
    static let seccompFiller: Result<String, HarnessError> = {
        let out = E2E.runDirectory + "/seccomp_fill"
        let r = Run.program("/usr/bin/env", ["cc", "-O2", "-Wall", "-o", out, E2E.packageRoot + "/Tests/Programs/seccomp_fill.c"],
                            environment: ProcessInfo.processInfo.environment, timeout: 120)
        return r.exitCode == 0 ? .success(out) : .failure(HarnessError("building seccomp_fill failed: \(r.summary)"))
    }()

    /// Where the worker's own seccomp filter cannot be installed (the filters it inherited already use
    /// the kernel's 32768 instructions, as under some container runtimes or a filtering parent), a
    /// worker without a granted port must still have no network: it enters an empty network namespace
    /// instead, its capabilities are dropped after that, and `list` and `health` say "partial", naming
    /// the filter. (Before, the worker ran with the host's network and said only "partial".)
    func testWhenTheSeccompFilterCannotBeInstalledTheWorkerStillHasNoNetwork() throws {
        let filler: String
        switch Self.seccompFiller {
        case .success(let f): filler = f
        case .failure(let e): throw e
        }
        // The real worker, started through the filler: SKILLHOST_WORKER names this script.
        let wrapper = work + "/filled-worker"
        try Data("#!/bin/sh\nexec '\(filler)' '\(E2E.binDir)/skillhost-worker' \"$@\"\n".utf8).write(to: URL(fileURLWithPath: wrapper))
        chmod(wrapper, 0o755)
        extraEnvironment["SKILLHOST_WORKER"] = wrapper
        extraEnvironment["SKILLHOST_SCAN"] = E2E.binDir + "/skillhost-scan"

        let (escapes, allowed) = try attempt()
        XCTAssertEqual(receivedDatagrams(), [], "a datagram reached the host's loopback: the worker had the host's network (\(escapes))")
        XCTAssertEqual(escapes["udp_send"], Int(ENETUNREACH), "in an empty network namespace the loopback is down: \(escapes)")
        XCTAssertNotEqual(escapes["connect_port"], 0, "\(escapes)")
        XCTAssertEqual(escapes["raw_socket"], Int(EPERM), "no capabilities inside the new namespace either: \(escapes)")
        XCTAssertEqual(escapes["packet_socket"], Int(EPERM), "\(escapes)")
        XCTAssertEqual(escapes["read_outside"], Int(EACCES), "Landlock is still in force: \(escapes)")
        XCTAssertEqual(escapes["write_outside"], Int(EACCES), "\(escapes)")
        for name in ["data_folder", "own_file", "allocate", "clock", "time_zone_data"] {
            XCTAssertEqual(allowed[name], 0, "\(name) must still work: \(allowed)")
        }

        // What the worker reported is what a later `list` shows: partial, naming the filter; the
        // network is not among what is missing (the namespace keeps it out).
        func sandbox(_ r: CommandResult, _ listed: [[String: Any]]) throws -> (String?, [String]) {
            let s = try XCTUnwrap(listed.first("id", "test.fixture.hostile"), r.summary)
            return (s["sandbox"] as? String, s["sandboxMissing"] as? [String] ?? [])
        }
        let list = skillhost("list", "--json")
        let (mode, missing) = try sandbox(list, try list.listedSkills())
        XCTAssertEqual(mode, "partial", list.summary)
        XCTAssertTrue(missing.contains { $0.hasPrefix("seccomp filter (not installed: ") && $0.contains("32768") }, "\(missing)")
        XCTAssertFalse(missing.contains { $0.contains("network") }, "the network is isolated: \(missing)")
        let health = skillhost("health", "--json")
        XCTAssertEqual(try sandbox(health, try health.listed("skills")).0, "partial", health.summary)
        let doctor = skillhost("doctor")
        XCTAssertTrue(doctor.stdout.contains("test.fixture.hostile runs with a partial sandbox; not in force: seccomp filter (not installed"), doctor.summary)

        // A worker started normally has its filter again, and says so for later commands too.
        extraEnvironment["SKILLHOST_WORKER"] = nil
        extraEnvironment["SKILLHOST_SCAN"] = nil
        XCTAssertEqual(try attempt().escapes["udp_send"], Int(EACCES))
        let again = skillhost("list", "--json")
        XCTAssertEqual(try sandbox(again, try again.listedSkills()).0, "full", again.summary)
    }

    func testTheSandboxCanBeTurnedOffAndTrustedSkillsAreShownOff() throws {
        try writeConfig(#"{"grants": {"test.fixture.hostile": {"sandbox": false}}}"#)
        var list = try skillhost("list", "--json").listedSkills()
        XCTAssertEqual(list.first { $0["id"] as? String == "test.fixture.hostile" }?["sandbox"] as? String, "off")
        XCTAssertEqual(list.first { $0["id"] as? String == "test.fixture.echo" }?["sandbox"] as? String, "full", "only that skill")
        // Only the harmless escapes: unsandboxed, the full list would really ptrace the host.
        let peek = #"{"outsideFile":"\#(home)/secret.txt","secret":"\#(Self.secretName)"}"#
        XCTAssertEqual(try assertInvokeOK(invoke("fixture.hostile.peek", peek), skill: "test.fixture.hostile") as? [String: Int],
                       ["read_outside": 0, "secret_env": 0], "off means off (the baseline of `make bench`)")
        try writeConfig("{}")
        XCTAssertEqual(try assertInvokeOK(invoke("fixture.hostile.peek", peek), skill: "test.fixture.hostile") as? [String: Int],
                       ["read_outside": Int(EACCES), "secret_env": Int(ENOENT)], "and on again")

        try writeConfig(#"{"trusted": ["test.fixture.hostile"]}"#)
        list = try skillhost("list", "--json").listedSkills()
        let s = try XCTUnwrap(list.first { $0["id"] as? String == "test.fixture.hostile" })
        XCTAssertEqual(s["isolation"] as? String, "in-process")
        XCTAssertEqual(s["sandbox"] as? String, "off")
        XCTAssertTrue((s["sandboxMissing"] as? [String] ?? []).joined().contains("trusted"), "\(s)")
        let doctor = skillhost("doctor")
        XCTAssertTrue(doctor.stdout.contains("test.fixture.hostile is trusted") && doctor.stdout.contains("network 127.0.0.1:9"),
                      "doctor warns that a trusted skill asks for permissions it was not granted: \(doctor.summary)")

        try writeConfig(#"{"sandbox": false}"#)
        list = try skillhost("list", "--json").listedSkills()
        XCTAssertEqual(Set(list.compactMap { $0["sandbox"] as? String }), ["off"])
    }

    func testInstallNeedsConsentAndRecordsTheGrant() throws {
        try FileManager.default.removeItem(atPath: skills + "/hostile.so")
        let config = try writeConfig("{}")
        let refused = skillhost("install", fixtures + "/hostile.so", "--json")
        try assertInvokeError(refused, kind: "denied", exitCode: 15, messageContains: ["asks for permissions", "127.0.0.1:9"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: skills + "/hostile.so"), "no consent, no install")

        let bad = skillhost("install", fixtures + "/hostile.so", "--json", "--grant", "everything")
        XCTAssertEqual(bad.exitCode, 10, bad.summary)

        let ok = skillhost("install", fixtures + "/hostile.so", "--json", "--grant", "all")
        XCTAssertEqual(ok.exitCode, 0, ok.summary)
        XCTAssertEqual(((try ok.jsonObject())["granted"] as? [String: Any])?["network"] as? [String], ["127.0.0.1:9"])
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any])
        XCTAssertEqual(((written["grants"] as? [String: Any])?["test.fixture.hostile"] as? [String: Any])?["network"] as? [String], ["127.0.0.1:9"])
        let list = try skillhost("list", "--json").listedSkills()
        XCTAssertEqual(((list.first { $0["id"] as? String == "test.fixture.hostile" }?["permissions"]) as? [String: Any])?["missing"] as? [String], [])
    }
}
