import XCTest
@testable import SkillHostCore

/// ABI 1.2 permissions on the host side: what the manifest reader accepts, the grants config, how
/// grants become the worker's rules (placeholders, ports), and what is reported as missing.
final class PermissionsTests: XCTestCase {
    let base = #"{"abiMajor":1,"abiMinor":2,"structSize":136,"flags":1,"id":"com.example.cal","name":"Cal","version":"1.2.3","category":"productivity","vendor":"Ex","description":"d","toolchain":null,"hasInvoke":true,"hasHealth":true,"intentCount":1,"intents":[{"structSize":80,"flags":5,"name":"cal.events.list","description":"x","inputSchema":"{\"type\":\"object\"}"}],"permissions":PERMS}"#

    func validate(_ permissions: String) -> Result<SkillManifest, Refusal> {
        let skill = base.replacingOccurrences(of: "PERMS", with: permissions)
        return ManifestValidator.validate(report: try! JSON.parse(#"{"file":"/x/a.so","status":"ok","skill":"# + skill + "}"),
                                          file: "/x/a.so", hostToolchain: "swift-6.3")
    }

    func testDeclaredPermissionsAreReadAndSurviveTheCacheForms() throws {
        let m = try validate(#"{"structSize":40,"flags":1,"network":["api.example.com:443","{config:baseURL}"],"read":["{config:calendars}","{home}/Mail"],"write":["/srv/out"],"environment":["HTTPS_PROXY"]}"#).get()
        XCTAssertEqual(m.identity.permissions, Permissions(network: ["api.example.com:443", "{config:baseURL}"], read: ["{config:calendars}", "{home}/Mail"],
                                                           write: ["/srv/out"], environment: ["HTTPS_PROXY"], programs: true))
        XCTAssertEqual(SkillManifest(json: try JSON.parse(m.json.serialized)), m)
        XCTAssertEqual(try summaryThroughTheScanCache(m), m.summary)
    }

    func testNullOrAbsentPermissionsAreNothing() throws {
        XCTAssertTrue(try validate("null").get().identity.permissions.isEmpty)
    }

    func testBadEntriesAreRefusedNamingTheEntry() {
        for (perms, expected) in [(#"{"network":["example.com"]}"#, #"network[0] "example.com""#),
                                  (#"{"network":["example.com:99999"]}"#, "port from 1 to 65535"),
                                  (#"{"read":["relative/path"]}"#, #"read[0] "relative/path""#),
                                  (#"{"write":["~/x"]}"#, #"write[0] "~/x""#),
                                  (#"{"environment":["BAD-NAME"]}"#, #"environment[0] "BAD-NAME""#),
                                  (#"{"read":[{"invalidUTF8":true}]}"#, "read[0]: expected UTF-8 text")] {
            guard case .failure(let r) = validate(perms) else { XCTFail("accepted \(perms)"); continue }
            XCTAssertEqual(r.reason, .badManifest)
            XCTAssertTrue(r.message.contains(#"field "permissions""#) && r.message.contains(expected), r.message)
        }
    }

    func testPlaceholdersResolveFromHomeXDGDataAndTheSkillsOwnConfig() {
        let r = PermissionResolver(home: "/h", environment: ["XDG_CONFIG_HOME": "/xc"], dataDir: "/h/data/s",
                                   config: try! JSON.parse(#"{"calendars":["/c/a.ics","/c/b"],"mail":{"box":"/m"},"baseURL":"http://127.0.0.1:8080/v1","bad":3}"#))
        let out = r.resolve(Permissions(network: ["{config:baseURL}", "api.example.com:443", "[::1]:9000", "*:25", "{config:missing}"],
                                        read: ["{config:calendars}", "{config:mail.box}", "{home}/Mail", "{config_home}/app", "{cache_home}", "{config:bad}"],
                                        write: ["{data}/sub"]))
        XCTAssertEqual(out.read, ["/c/a.ics", "/c/b", "/m", "/h/Mail", "/xc/app", "/h/.cache"])
        XCTAssertEqual(out.write, ["/h/data/s/sub"])
        XCTAssertEqual(out.ports, [8080, 443, 9000, 25])
        XCTAssertEqual(out.unresolved, ["read {config:bad}", "network {config:missing}"])
        XCTAssertEqual(PermissionResolver.port(ofAddress: "https://user@example.com/x"), 443)
        XCTAssertEqual(PermissionResolver.port(ofAddress: "http://example.com"), 80)
        XCTAssertNil(PermissionResolver.port(ofAddress: "example.com"))
    }

    func testMissingListsWhatIsRequestedButNotGranted() {
        let requested = Permissions(network: ["a.example:443", "b.example:80"], read: ["/r"], write: ["/w"], environment: ["TOKEN"], programs: true)
        XCTAssertEqual(requested.missing(from: Permissions(network: ["*:443"], write: ["/r"])),
                       ["network b.example:80", "write /w", "environment TOKEN", "programs"], "a write grant covers a read; *:PORT covers any host on it")
        XCTAssertEqual(requested.missing(from: requested), [])
    }

    func testGrantsFromTheConfigAndFromInstallFlags() throws {
        let g = try Grant(try JSON.parse(#"{"network":["x:1"],"programs":true,"sandbox":false}"#), id: "a.b", file: "/c.json")
        XCTAssertEqual(g.permissions, Permissions(network: ["x:1"], programs: true))
        XCTAssertFalse(g.sandbox)
        XCTAssertThrowsError(try Grant(try JSON.parse(#"{"read":["rel"]}"#), id: "a.b", file: "/c.json")) { e in
            XCTAssertTrue((e as! SkillError).message.contains(#""grants.a.b": read[0] "rel""#), "\(e)")
        }
        let requested = Permissions(network: ["api.example:443"], read: ["{config:calendars}"])
        XCTAssertEqual(try Grant.parse(["all"], requested: requested).permissions, requested)
        XCTAssertEqual(try Grant.parse(["none"], requested: requested).permissions, .none)
        XCTAssertEqual(try Grant.parse(["network=127.0.0.1:8080,env=HTTPS_PROXY", "programs"], requested: requested).permissions,
                       Permissions(network: ["127.0.0.1:8080"], environment: ["HTTPS_PROXY"], programs: true))
        XCTAssertThrowsError(try Grant.parse(["everything"], requested: requested))
    }

    func testTheWorkerGetsItsRulesAndAShortEnvironment() throws {
        var config = HostConfig()
        config.skills["a.b"] = try JSON.parse(#"{"calendars":["/cal"]}"#)
        config.grants["a.b"] = Grant(Permissions(network: ["127.0.0.1:8080"], read: ["{config:calendars}"], environment: ["TOKEN"]))
        var paths = HostPaths(environment: ["HOME": "/h"])
        paths.dataDir = "/d"
        let skill = RegisteredSkill(summary: SkillSummary(identity: SkillIdentity(id: "a.b", name: "n", version: SemanticVersion("1.0.0")!, category: "c", vendor: "v",
                                                                                  description: "", toolchain: nil, abiMajor: 1, abiMinor: 2, threadSafe: true, hasHealth: false),
                                                          intents: []),
                                    manifestText: [], file: SkillFile(path: "/s/a.so", inode: 1, size: 1, mtimeNs: 1, sha256: nil), isolation: .process)
        let s = try XCTUnwrap(WorkerSandbox.make(for: skill, config: config, paths: paths,
                                                 environment: ["TOKEN": "t", "SECRET": "s", "LANG": "C.UTF-8", "TZ": "UTC", "PATH": "/evil"]))
        XCTAssertEqual(s.arguments, ["--sandbox", "--allow-write", "/d/a.b", "--allow-read", "/cal", "--allow-connect", "8080"])
        XCTAssertEqual(s.environment, ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/d/a.b", "TMPDIR": "/d/a.b", "SWIFT_BACKTRACE": "enable=no",
                                       "LANG": "C.UTF-8", "TZ": "UTC", "TOKEN": "t"])
        config.sandbox = false
        XCTAssertNil(WorkerSandbox.make(for: skill, config: config, paths: paths), "\"sandbox\": false turns it off")
    }
}
