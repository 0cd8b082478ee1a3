import XCTest
@testable import SkillHostCore

final class SupportTests: XCTestCase {
    func testAuditReadersSkipATornLine() throws {
        let path = NSTemporaryDirectory() + "/audit-torn-\(getpid()).jsonl"
        defer { unlink(path) }
        try Data("{\"a\":1}\n{\"b\":\n{\"c\":3}\n\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(AuditLog.entries(at: path).map(\.serialized), [#"{"a":1}"#, #"{"c":3}"#])
    }

    /// One process keeps writing while another leaves a torn line: the next line still starts on a
    /// line of its own, although this process reads the last byte only when the size moved.
    func testAuditWriterStartsANewLineAfterAnotherProcesssTornLine() throws {
        let dir = NSTemporaryDirectory() + "/audit-writer-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = AuditLog(stateDir: dir, settings: PolicyConfig.AuditSettings())
        append(#"{"n":1}"#, to: log)
        append(#"{"n":2}"#, to: log)
        let other = try XCTUnwrap(FileHandle(forWritingAtPath: dir + "/audit.jsonl"))
        other.seekToEndOfFile()
        other.write(Data(#"{"torn":"#.utf8))
        try other.close()
        append(#"{"n":3}"#, to: log)
        append(#"{"n":4}"#, to: log)
        let text = try String(contentsOfFile: dir + "/audit.jsonl", encoding: .utf8)
        XCTAssertEqual(text, "{\"n\":1}\n{\"n\":2}\n{\"torn\":\n{\"n\":3}\n{\"n\":4}\n")
        XCTAssertEqual(AuditLog.entries(at: dir + "/audit.jsonl").map(\.serialized), [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#, #"{"n":4}"#])
    }

    func append(_ line: StaticString, to log: AuditLog) {
        AuditLine.onStack { l in
            l.raw(line)
            log.record(&l)
        }
    }

    func testSHA256KnownVectors() {
        XCTAssertEqual(SHA256.hex(of: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testSkillFoldersFollowTheDocumentedOrder() throws {
        let env = ["HOME": "/h", "XDG_DATA_HOME": "/data", "SKILLHOST_PATH": "/b::/c"]
        let p = HostPaths(environment: env)
        XCTAssertEqual(p.skillSearchPath(explicit: "/a", environment: env, prefix: "/usr").map(\.path), ["/a"])
        XCTAssertEqual(p.skillSearchPath(explicit: nil, environment: env, prefix: "/usr").map(\.path), ["/b", "/c"])
        XCTAssertEqual(p.skillSearchPath(explicit: nil, environment: env, prefix: "/usr").map(\.origin), [.environment, .environment])
        // No ./skills.d here: the user's folder, then the system folder under the binary's prefix.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("searchpath-\(getpid())").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let old = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(empty)
        defer { FileManager.default.changeCurrentDirectoryPath(old) }
        let defaults = p.skillSearchPath(explicit: nil, environment: ["HOME": "/h"], prefix: "/usr")
        XCTAssertEqual(defaults.map(\.path), ["/data/skillhost/skills.d", "/usr/lib/skillhost/skills.d"])
        XCTAssertEqual(defaults.map(\.origin), [.user, .system])
        try FileManager.default.createDirectory(atPath: empty + "/skills.d", withIntermediateDirectories: true)
        XCTAssertEqual(p.skillSearchPath(explicit: nil, environment: ["HOME": "/h"], prefix: "/usr").map(\.path),
                       ["./skills.d", "/data/skillhost/skills.d", "/usr/lib/skillhost/skills.d"])
    }

    func testXDGDirectoriesAndDefaults() {
        let p = HostPaths(environment: ["HOME": "/h", "XDG_STATE_HOME": "/st"])
        XCTAssertEqual(p.stateDir, "/st/skillhost")
        XCTAssertEqual(p.configDir, "/h/.config/skillhost")
        XCTAssertEqual(p.dataDir, "/h/.local/share/skillhost")
    }

    func testConfigErrorsNameTheFile() throws {
        let dir = NSTemporaryDirectory() + "cfg-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/config.json"
        try #"{"invokeTimeoutMs": 5, "skills": {"a.b": {"path": "./data", "home": "~/x"}}}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let c = try HostConfig.load(explicit: file, paths: HostPaths(environment: ["HOME": "/h"]), environment: [:])
        XCTAssertEqual(c.invokeTimeoutMs, 5)
        XCTAssertEqual(c.skills["a.b"]?["path"]?.stringValue, dir + "/data")
        XCTAssertEqual(c.skills["a.b"]?["home"]?.stringValue, "/h/x")
        try "{nope".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try HostConfig.load(explicit: file, paths: HostPaths(), environment: [:])) { e in
            XCTAssertTrue((e as! SkillError).message.contains(file))
        }
        XCTAssertThrowsError(try HostConfig.load(explicit: dir + "/missing.json", paths: HostPaths(), environment: [:]))
    }

    func testEveryErrorKindHasItsOwnExitCode() {
        let codes = ErrorKind.allCases.map(\.exitCode)
        XCTAssertEqual(Set(codes).count, codes.count)
        XCTAssertFalse(codes.contains(0) || codes.contains(1) || codes.contains(2))
        XCTAssertEqual(ErrorKind.allCases.map(\.rawValue), ["invalid_input", "no_skill", "unavailable", "timeout", "crashed", "denied", "incompatible", "load_failed", "cancelled", "internal"])
    }
}

final class TextTests: XCTestCase {
    func testPathsAreResolvedLexically() {
        XCTAssertEqual(PathText.absolute("/a/b/../c/./d.so"), "/a/c/d.so")
        XCTAssertEqual(PathText.absolute("/../x//y/"), "/x/y")
        XCTAssertEqual(PathText.directory(of: "/a/b/c.so"), "/a/b")
        XCTAssertEqual(PathText.directory(of: "/c.so"), "/")
        XCTAssertEqual(PathText.directory(of: "c.so"), ".")
        XCTAssertEqual(PathText.fileName(of: "/a/b/c.so"), "c.so")
        XCTAssertTrue(PathText.absolute("rel").hasSuffix("/rel"))
    }

    func testRFC3339InUTCAndNumbersWithOneDecimal() {
        XCTAssertEqual(TimeText.rfc3339(0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(TimeText.rfc3339(1_796_025_600), "2026-11-30T08:00:00Z")
        XCTAssertEqual(TimeText.oneDecimal(5.64), "5.6")
        XCTAssertEqual(TimeText.oneDecimal(0.05), "0.1")
        XCTAssertEqual(TimeText.oneDecimal(-1.25), "-1.3")
    }
}
