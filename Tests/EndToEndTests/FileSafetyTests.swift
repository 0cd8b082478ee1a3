import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Who may change a skill: the host loads only files that nobody but its user or root can change —
/// the file and every folder from its real location up to `/` (sticky folders like /tmp handled as
/// sudo and sshd do) — and loads the descriptor it checked, never the path again (issue 12, item 1).
/// Tests that need another user's files run as root (CI does) and chown to uid 65534; run as
/// another user they are skipped with the reason printed.
final class FileSafetyTests: EndToEndTestCase {
    static let otherUser: uid_t = 65534

    /// Skips (printing why) unless this process can give files to another user.
    func requireRoot() throws {
        guard geteuid() == 0 else {
            print("FileSafetyTests: skipped: needs root to chown files to uid \(Self.otherUser) (runs as uid \(geteuid())); CI runs as root")
            throw XCTSkip("needs root to create files owned by another user")
        }
    }

    /// A folder `name` in the test's directory with `mode` (and `owner`, when given).
    func folder(_ name: String, mode: mode_t, owner: uid_t? = nil) throws -> String {
        let path = work + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let owner { XCTAssertEqual(chown(path, owner, owner), 0, "chown \(path)") }
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    func refusal(for path: String, _ list: (skills: [[String: Any]], refused: [[String: Any]], conflicts: [[String: Any]], result: CommandResult),
                 file: StaticString = #filePath, line: UInt = #line) throws -> (message: String, hint: String) {
        let r = try XCTUnwrap(list.refused.first("file", path), "no refusal for \(path): \(list.result.summary)", file: file, line: line)
        XCTAssertEqual(r["reason"] as? String, "insecure_permissions", "\(r)", file: file, line: line)
        XCTAssertEqual(r["kind"] as? String, "load_failed", "\(r)", file: file, line: line)
        return (r["message"] as? String ?? "", r["hint"] as? String ?? "")
    }

    // MARK: - Folders above the file

    func testASymlinkIntoAFolderAnotherUserOwnsIsRefusedNamingThatFolderAndTheChown() throws {
        try requireRoot()
        try addSkill("echo_c.so")
        let theirs = try folder("theirs", mode: 0o755, owner: Self.otherUser)
        // The file itself is root's and not writable by others: only the folder makes it unsafe.
        let target = try copy(fixtures + "/slow.so", into: theirs, as: "slow.so")
        let link = skills + "/slow.so"
        XCTAssertEqual(symlink(target, link), 0)

        let list = try listAll()
        XCTAssertEqual(list.skills.compactMap { $0["id"] as? String }, ["test.fixture.echo"], list.result.summary)
        let (message, hint) = try refusal(for: link, list)
        for m in [link, target, "folder \"\(theirs)\"", "uid \(Self.otherUser)"] {
            XCTAssertTrue(message.contains(m), "the message should contain \(m): \(message)")
        }
        XCTAssertTrue(hint.contains("chown") && hint.contains(theirs), hint)
        let doctor = skillhost("doctor", "--json")
        XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
        let refused = try XCTUnwrap(try doctor.jsonObject()["refused"] as? [[String: Any]], doctor.summary)
        XCTAssertEqual(refused.first("file", link)?["message"] as? String, message, "doctor and list agree")
        try assertInvokeError(invoke("fixture.slow", #"{"ms":1}"#), kind: "no_skill", exitCode: 11)
        try assertEchoStillServes()
    }

    func testASymlinkIntoAWorldWritableFolderIsRefusedEvenWhenTheFileIsRoots() throws {
        try addSkill("echo_c.so")
        let open = try folder("open", mode: 0o777)
        let target = try copy(fixtures + "/slow.so", into: open, as: "slow.so")
        XCTAssertEqual(symlink(target, skills + "/slow.so"), 0)
        let list = try listAll()
        let (message, hint) = try refusal(for: skills + "/slow.so", list)
        XCTAssertTrue(message.contains("folder \"\(open)\"") && message.contains("world-writable") && message.contains("not sticky"), message)
        XCTAssertEqual(hint, "chmod go-w \"\(open)\"")
        try assertEchoStillServes()
    }

    func testASkillFolderInsideAWorldWritableParentIsRefusedNamingTheParent() throws {
        let parent = try folder("parent", mode: 0o777)
        let inner = try folder("parent/skills", mode: 0o755)
        let echo = try copy(fixtures + "/echo_c.so", into: inner, as: "echo_c.so")
        let r = skillhost(["list", "--all", "--json", "--skills-dir", inner])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let o = try r.jsonObject()
        XCTAssertEqual((o["skills"] as? [Any])?.count, 0, r.summary)
        let refusal = try XCTUnwrap((o["refused"] as? [[String: Any]])?.first("file", echo), r.summary)
        XCTAssertEqual(refusal["reason"] as? String, "insecure_permissions")
        let message = refusal["message"] as? String ?? ""
        XCTAssertTrue(message.contains(echo) && message.contains("folder \"\(parent)\"") && message.contains("world-writable"), message)
        XCTAssertEqual(refusal["hint"] as? String, "chmod go-w \"\(parent)\"")

        let doctor = skillhost(["doctor", "--json", "--skills-dir", inner])
        XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
        let folders = try XCTUnwrap(try doctor.jsonObject()["folders"] as? [[String: Any]], doctor.summary)
        let f = try XCTUnwrap(folders.first("path", inner), doctor.summary)
        XCTAssertTrue((f["problem"] as? String ?? "").contains(parent), "the folder report names the parent: \(f)")

        // Fixed: the same folder serves.
        chmod(parent, 0o755)
        let fixed = skillhost(["list", "--json", "--skills-dir", inner])
        XCTAssertEqual(try fixed.listedSkills().compactMap { $0["id"] as? String }, ["test.fixture.echo"], fixed.summary)
    }

    func testInAStickyWorldWritableFolderAnotherUsersFileIsRefusedAndTheUsersOwnIsAccepted() throws {
        let sticky = try folder("sticky", mode: 0o1777)
        let mine = try copy(fixtures + "/echo_c.so", into: sticky, as: "mine.so")
        XCTAssertEqual(symlink(mine, skills + "/mine.so"), 0)
        var theirsLink: String?
        if geteuid() == 0 {
            let theirs = try copy(fixtures + "/slow.so", into: sticky, as: "theirs.so")
            XCTAssertEqual(chown(theirs, Self.otherUser, Self.otherUser), 0)
            theirsLink = skills + "/theirs.so"
            XCTAssertEqual(symlink(theirs, theirsLink!), 0)
        } else {
            print("FileSafetyTests: the other user's half of the sticky-folder test is skipped: needs root to chown")
        }
        let list = try listAll()
        XCTAssertEqual(list.skills.compactMap { $0["id"] as? String }, ["test.fixture.echo"], "the user's own file in a sticky folder is fine: \(list.result.summary)")
        if let theirsLink {
            let (message, hint) = try refusal(for: theirsLink, list)
            XCTAssertTrue(message.contains(sticky + "/theirs.so") && message.contains("uid \(Self.otherUser)"), message)
            XCTAssertTrue(hint.contains("chown"), hint)
            XCTAssertEqual(list.refused.count, 1, list.result.summary)
        } else {
            XCTAssertEqual(list.refused.count, 0, list.result.summary)
        }
        try assertEchoStillServes()
    }

    // MARK: - The race: check what is loaded, load what was checked

    /// `constructor_marker.c` compiled so that its constructor appends to `marker`.
    func buildMarkerSkill(writing marker: String, into dir: String) throws -> String {
        let out = dir + "/marker.so"
        let src = E2E.packageRoot + "/Tests/Fixtures"
        let r = Run.program("/usr/bin/env", ["cc", "-std=c99", "-O2", "-fPIC", "-shared", "-I", E2E.packageRoot + "/Sources/SkillABI/include",
                                             "-I", src, "-DMARKER_PATH=\"\(marker)\"", src + "/constructor_marker.c", "-o", out],
                            environment: ProcessInfo.processInfo.environment, timeout: 120)
        XCTAssertEqual(r.exitCode, 0, r.summary)
        chmod(out, 0o755)
        return out
    }

    private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Another user swaps the good file and theirs, `RENAME_EXCHANGE`, as fast as it can, under a
    /// skill that is a symlink into their folder, while the host scans and invokes a few hundred
    /// times. Before the fix the host checked the link's target, then loaded the path: the swapped-in
    /// file's constructor ran as the host's user. Now the folder is refused and nothing of it loads.
    func testSwappingFilesUnderASymlinkedSkillNeverRunsTheSwappedInConstructor() throws {
        try requireRoot()
        let marker = work + "/marker.log"
        let build = try folder("build", mode: 0o755)
        let evilBuild = try buildMarkerSkill(writing: marker, into: build)

        // The constructor ran if it left its marker file, or (where a sandbox forbids the write) if
        // a crash report quotes what it wrote to stderr before it aborted.
        func constructorRan(_ r: CommandResult) -> Bool {
            FileManager.default.fileExists(atPath: marker) || r.stdout.contains("constructor ran") || r.stderr.contains("constructor ran")
        }
        // The fixture must really show that it was loaded, or this test would prove nothing.
        let probe = skillhost(["inspect", evilBuild, "--json"])
        XCTAssertTrue(constructorRan(probe), "loading the marker fixture must show: \(probe.summary)")
        unlink(marker)

        // Their folder: a good skill (root's file, as an admin copied it) and their own file.
        let theirs = try folder("shared", mode: 0o755, owner: Self.otherUser)
        _ = try copy(fixtures + "/echo_c.so", into: theirs, as: "d.so")
        let evil = try copy(evilBuild, into: theirs, as: "evil.so")
        XCTAssertEqual(chown(evil, Self.otherUser, Self.otherUser), 0)
        XCTAssertEqual(symlink(theirs + "/d.so", skills + "/x.so"), 0)
        try addSkill("slow.so")
        // Trusted too, so that a load of it would also happen inside the host process.
        try writeConfig(#"{"trusted": ["test.fixture.echo", "test.fixture.marker"]}"#)

        let renameat2 = try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2").map { unsafeBitCast($0, to: Renameat2.self) },
                                      "glibc without renameat2")
        let dir = open(theirs, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(dir, 0)
        defer { close(dir) }
        XCTAssertEqual(renameat2(dir, "d.so", dir, "evil.so", 2 /* RENAME_EXCHANGE */), 0, "renameat2: \(String(cString: strerror(errno)))")
        XCTAssertEqual(renameat2(dir, "d.so", dir, "evil.so", 2), 0)

        let stop = Stop()
        let swaps = Counter()
        let swapper = Thread {
            while !stop.isSet {
                if renameat2(dir, "d.so", dir, "evil.so", 2) == 0 { swaps.add() }
            }
        }
        swapper.start()
        defer { stop.set(); while !swapper.isFinished { usleep(1000) } }

        let iterations = 300
        for i in 0..<iterations {
            let r: CommandResult
            if i % 3 == 0 {
                r = invoke("fixture.echo", #"{"text":"x"}"#)
                XCTAssertEqual(r.exitCode, 11, "x.so is refused, so fixture.echo has no skill: \(r.summary)")
            } else if i % 3 == 1 {
                r = invoke("fixture.marker")
                XCTAssertEqual(r.exitCode, 11, r.summary)
            } else {
                let list = try listAll()
                r = list.result
                // Refused for their folder, or for their file when it is the one at d.so right now.
                let (message, _) = try refusal(for: skills + "/x.so", list)
                XCTAssertTrue(message.contains("folder \"\(theirs)\"") || message.contains("uid \(Self.otherUser)"), message)
                XCTAssertEqual(list.skills.compactMap { $0["id"] as? String }, ["test.fixture.slow"], list.result.summary)
            }
            if constructorRan(r) {
                XCTFail("iteration \(i): the swapped-in file's constructor ran: \(r.summary)")
                break
            }
        }
        stop.set()
        XCTAssertGreaterThan(swaps.value, iterations, "the files must really have been swapped while the host ran")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the swapped-in file's constructor never runs")
        try assertInvokeOK(invoke("fixture.slow", #"{"ms":1}"#), skill: "test.fixture.slow")
    }

    // MARK: - Many files in one scan process (glibc matches dlopen names)

    /// The scan process loads every file from its own descriptor (/proc/self/fd/N) and never closes
    /// one: were a number reused, glibc would answer a later dlopen of the same name with the first
    /// image, and two different skills would come back as the same manifest.
    func testEveryFileInOneScanProcessGetsItsOwnManifest() throws {
        let names = ["echo_c.so", "slow.so", "swap.so", "progress.so", "serialized.so"]
        var paths: [String: String] = [:]
        for n in names { paths[n] = try addSkill(n) }
        let list = try listAll()
        XCTAssertEqual(list.skills.count, names.count, list.result.summary)
        let byPath = Dictionary(uniqueKeysWithValues: list.skills.compactMap { s in (s["path"] as? String).map { ($0, s["id"] as? String ?? "") } })
        XCTAssertEqual(Set(byPath.values).count, names.count, "five files, five different skills: \(byPath)")
        XCTAssertEqual(byPath[paths["echo_c.so"]!], "test.fixture.echo")
        XCTAssertEqual(byPath[paths["slow.so"]!], "test.fixture.slow")
        XCTAssertEqual(byPath[paths["swap.so"]!], "test.fixture.swap")
    }

    /// The scan process may read the skill files it was handed — its Landlock rules are made from the
    /// descriptors the host checked, not from paths — and nothing else beside them: a static initializer
    /// that tries to read a file in the skill folder is refused (the fixture aborts, and so would be
    /// refused as crashed, if the read worked), and both skills register.
    func testTheScanProcessReadsOnlyTheSkillFilesItWasHanded() throws {
        try addSkill("echo_c.so")
        let reader = try addSkill("scan_reads_sibling.so")
        try Data("not for skills\n".utf8).write(to: URL(fileURLWithPath: skills + "/secret.txt"))
        let list = try listAll()
        XCTAssertNil(list.refused.first("file", reader), "the initializer read secret.txt during the scan: \(list.result.summary)")
        XCTAssertEqual(Set(list.skills.compactMap { $0["id"] as? String }), ["test.fixture.echo", "test.fixture.scanreadssibling"], list.result.summary)
    }

    /// The host holds one descriptor per file it has yet to read and hands them to scan processes in
    /// batches (ManifestReader.batchSize, 256), so more files than one batch are all read.
    func testMoreFilesThanOneBatchOfDescriptorsAreAllRead() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/echo_c.so"))
        for i in 0..<300 {
            let p = skills + String(format: "/e%03d.so", i)
            try data.write(to: URL(fileURLWithPath: p))
            chmod(p, 0o755)
        }
        let list = try listAll()
        XCTAssertEqual(list.skills.compactMap { $0["path"] as? String }, [skills + "/e000.so"], list.result.summary)
        XCTAssertEqual(list.refused.count, 299, "every other copy was read, and is a duplicate: \(list.result.stderr)")
        XCTAssertEqual(Set(list.refused.compactMap { $0["reason"] as? String }), ["duplicate_id"])
    }
}

/// A flag one thread sets and another reads.
private final class Stop: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var isSet: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var value: Int { lock.withLock { n } }
    func add() { lock.withLock { n += 1 } }
}
