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
        log.record(line: Array(#"{"n":1}"#.utf8))
        log.record(line: Array(#"{"n":2}"#.utf8))
        let other = try XCTUnwrap(FileHandle(forWritingAtPath: dir + "/audit.jsonl"))
        other.seekToEndOfFile()
        other.write(Data(#"{"torn":"#.utf8))
        try other.close()
        log.record(line: Array(#"{"n":3}"#.utf8))
        log.record(line: Array(#"{"n":4}"#.utf8))
        let text = try String(contentsOfFile: dir + "/audit.jsonl", encoding: .utf8)
        XCTAssertEqual(text, "{\"n\":1}\n{\"n\":2}\n{\"torn\":\n{\"n\":3}\n{\"n\":4}\n")
        XCTAssertEqual(AuditLog.entries(at: dir + "/audit.jsonl").map(\.serialized), [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#, #"{"n":4}"#])
    }

    func testSHA256KnownVectors() {
        XCTAssertEqual(SHA256.hex(of: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testSkillFoldersFollowTheDocumentedOrder() {
        XCTAssertEqual(HostPaths.skillDirectories(explicit: "/a", environment: ["SKILLHOST_PATH": "/b:/c"]), ["/a"])
        XCTAssertEqual(HostPaths.skillDirectories(explicit: nil, environment: ["SKILLHOST_PATH": "/b::/c"]), ["/b", "/c"])
        XCTAssertEqual(HostPaths.skillDirectories(explicit: nil, environment: [:]), ["./skills.d"])
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
