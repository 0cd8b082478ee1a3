import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Bad files in the skill folder: each is refused with an exact reason and a message that names the
/// file and what was expected/found, and the good skill next to it (echo_c.so) still lists and answers.
final class ScanRefusalTests: EndToEndTestCase {
    /// Puts echo_c.so and `fixture` in the folder, then checks `list --all --json` and `doctor --json`
    /// report exactly one refusal for `fixture` with `reason` and `kind`, whose message names the file
    /// and contains every string of `messageContains`; and that echo_c.so still lists and invokes.
    @discardableResult
    func assertRefused(_ fixture: String, as name: String? = nil, reason: String, kind: String,
                       messageContains: [String], hintContains: [String] = [], refusedID: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try addSkill("echo_c.so")
        let path = try addSkill(fixture, as: name)

        let list = try listAll(file: file, line: line)
        let ids = list.skills.compactMap { $0["id"] as? String }
        XCTAssertEqual(ids, ["test.fixture.echo"], "only echo_c.so may register: \(list.result.summary)", file: file, line: line)
        if let refusedID { XCTAssertFalse(ids.contains(refusedID), file: file, line: line) }
        XCTAssertEqual(list.refused.count, 1, "exactly one refusal expected: \(list.result.summary)", file: file, line: line)
        let refusal = try XCTUnwrap(list.refused.first("file", path), "no refusal for \(path): \(list.result.summary)", file: file, line: line)
        XCTAssertEqual(refusal["reason"] as? String, reason, "\(refusal)", file: file, line: line)
        XCTAssertEqual(refusal["kind"] as? String, kind, "\(refusal)", file: file, line: line)
        let message = refusal["message"] as? String ?? ""
        XCTAssertTrue(message.contains(path), "the message must name the file \(path): \(message)", file: file, line: line)
        for m in messageContains {
            XCTAssertTrue(message.contains(m), "the message should contain \"\(m)\": \(message)", file: file, line: line)
        }
        let hint = refusal["hint"] as? String ?? ""
        for h in hintContains {
            XCTAssertTrue(hint.contains(h), "the hint should contain \"\(h)\": \(hint)", file: file, line: line)
        }

        let doctor = skillhost("doctor", "--json")
        XCTAssertEqual(doctor.exitCode, 1, "doctor finds a problem: \(doctor.summary)", file: file, line: line)
        let d = try doctor.jsonObject(file: file, line: line)
        let dRefused = try XCTUnwrap(d["refused"] as? [[String: Any]], doctor.summary, file: file, line: line)
        let dr = try XCTUnwrap(dRefused.first("file", path), "doctor must name \(path): \(doctor.summary)", file: file, line: line)
        XCTAssertEqual(dr["reason"] as? String, reason, file: file, line: line)
        XCTAssertEqual(dr["kind"] as? String, kind, file: file, line: line)
        XCTAssertEqual(dr["message"] as? String, message, "doctor and list report the same refusal", file: file, line: line)
        XCTAssertEqual(d["skills"] as? Int, 1, doctor.summary, file: file, line: line)
        XCTAssertGreaterThanOrEqual(d["problems"] as? Int ?? 0, 1, doctor.summary, file: file, line: line)

        try assertEchoStillServes(file: file, line: line)
        return refusal
    }

    // MARK: - Not a shared library at all

    func testEmptyFileIsRefusedAsNotASkillSayingEmpty() throws {
        try assertRefused("empty.so", reason: "not_a_skill", kind: "load_failed", messageContains: ["empty", "0 bytes"])
    }

    func testTextFileNamedSoIsRefusedAsNotASkillNamingTheELFMagic() throws {
        try assertRefused("text.so", reason: "not_a_skill", kind: "load_failed",
                          messageContains: ["ELF", "this is not a sh"])
    }

    func testTruncatedELFIsRefusedAsTruncated() throws {
        try assertRefused("truncated.so", reason: "truncated", kind: "load_failed",
                          messageContains: ["truncated", "200 bytes"])
    }

    func testELFForAArch64IsRefusedAsWrongArchitectureNamingBothMachines() throws {
        try assertRefused("aarch64.so", reason: "wrong_architecture", kind: "incompatible",
                          messageContains: ["AArch64", "x86-64"], hintContains: ["x86-64"])
    }

    // MARK: - A library, but not a usable skill

    func testLibraryWithoutEntrySymbolIsRefusedAsMissingSymbol() throws {
        try assertRefused("no_entry.so", reason: "missing_symbol", kind: "load_failed",
                          messageContains: ["skillhost_entry"], refusedID: "test.fixture.noentry")
    }

    func testNextABIMajorIsRefusedAsAbiMismatchNamingBothVersions() throws {
        let r = try assertRefused("abi_major_next.so", reason: "abi_mismatch", kind: "incompatible",
                                  messageContains: ["1.0–1.3", "2.0"], refusedID: "test.fixture.abimajornext")
        XCTAssertFalse((r["hint"] as? String ?? "").isEmpty, "an ABI mismatch says what to do: \(r)")
        // Its intent is not served.
        try assertInvokeError(invoke("fixture.abi_major_next"), kind: "no_skill", exitCode: 11)
    }

    // MARK: - Bad manifests: the message names the field

    func testMissingIdIsRefusedAsBadManifestNamingFieldId() throws {
        try assertRefused("missing_id.so", reason: "bad_manifest", kind: "load_failed",
                          messageContains: ["\"id\"", "NULL"])
    }

    func testVersionThatIsNotSemverIsRefusedAsBadManifestNamingFieldVersion() throws {
        try assertRefused("bad_semver.so", reason: "bad_manifest", kind: "load_failed",
                          messageContains: ["\"version\"", "\"1.0\"", "test.fixture.badsemver"], refusedID: "test.fixture.badsemver")
    }

    func testIntentDeclaredTwiceIsRefusedAsBadManifestNamingTheIntent() throws {
        try assertRefused("dup_intent.so", reason: "bad_manifest", kind: "load_failed",
                          messageContains: ["fixture.dup_intent", "twice"], refusedID: "test.fixture.dupintent")
    }

    /// The field is named as skill authors know it: `input_schema`, the member of `skh_intent`.
    func testInputSchemaThatIsNotJSONIsRefusedAsBadManifestNamingFieldInputSchema() throws {
        try assertRefused("bad_schema.so", reason: "bad_manifest", kind: "load_failed",
                          messageContains: ["fixture.bad_schema", "input_schema", "not valid JSON"],
                          refusedID: "test.fixture.badschema")
    }

    func testInputSchemaWithUnknownTypeIsRefusedAsBadManifestNamingFieldAndType() throws {
        try assertRefused("bad_schema_type.so", reason: "bad_manifest", kind: "load_failed",
                          messageContains: ["fixture.bad_schema_type", "input_schema", "objekt"],
                          refusedID: "test.fixture.badschematype")
    }

    // MARK: - Two files, one id

    func testNewerVersionOfAnIdWinsAndTheOlderIsListedAsShadowed() throws {
        try addSkill("echo_c.so")
        let a = try addSkill("duplicate_id_a.so")
        let b = try addSkill("duplicate_id_b.so")
        let list = try listAll()
        let dup = try XCTUnwrap(list.skills.first("id", "test.fixture.dup"), list.result.summary)
        XCTAssertEqual(dup["path"] as? String, b, "2.0.0 wins over 1.0.0, whatever the file names")
        XCTAssertEqual(dup["version"] as? String, "2.0.0")
        let shadows = try XCTUnwrap(dup["shadows"] as? [[String: Any]], list.result.summary)
        XCTAssertEqual(shadows.count, 1)
        XCTAssertEqual(shadows.first?["version"] as? String, "1.0.0")
        XCTAssertEqual(shadows.first?["path"] as? String, a)
        XCTAssertTrue(list.refused.isEmpty, "an older version is not an error: \(list.result.summary)")
        let shadowed = try XCTUnwrap(try list.result.jsonObject()["shadowed"] as? [[String: Any]])
        XCTAssertEqual(shadowed.first?["path"] as? String, a)
        XCTAssertEqual(shadowed.first?["shadowedBy"] as? String, b)

        let text = skillhost("list")
        XCTAssertTrue(text.stdout.contains("shadowed: test.fixture.dup 1.0.0 (\(a)) by version 2.0.0 (\(b))"), text.stdout)
        let doctor = skillhost("doctor")
        XCTAssertEqual(doctor.exitCode, 0, "shadowing is not a problem: \(doctor.summary)")
        XCTAssertTrue(doctor.stdout.contains("shadowed by version 2.0.0"), doctor.stdout)

        let fromB = try assertInvokeOK(invoke("fixture.dup_b"), skill: "test.fixture.dup")
        XCTAssertEqual((fromB as? [String: Any])?["from"] as? String, "b")
        try assertInvokeError(invoke("fixture.dup_a"), kind: "no_skill", exitCode: 11)

        // Rollback: remove the newer file, and the older one is served again.
        try FileManager.default.removeItem(atPath: b)
        let back = try assertInvokeOK(invoke("fixture.dup_a"), skill: "test.fixture.dup")
        XCTAssertEqual((back as? [String: Any])?["from"] as? String, "a")
        try assertEchoStillServes()
    }

    func testTwoFilesWithTheSameIdAndVersionAreADuplicateAndTheFirstWins() throws {
        try addSkill("echo_c.so")
        let b = try addSkill("duplicate_id_b.so")
        let c = try addSkill("duplicate_id_c.so")
        let list = try listAll()
        let dup = try XCTUnwrap(list.skills.first("id", "test.fixture.dup"), list.result.summary)
        XCTAssertEqual(dup["path"] as? String, b, "the first file (by name) wins among equal versions")
        XCTAssertEqual(list.refused.count, 1, list.result.summary)
        let r = try XCTUnwrap(list.refused.first("file", c), list.result.summary)
        XCTAssertEqual(r["reason"] as? String, "duplicate_id")
        let message = r["message"] as? String ?? ""
        for m in [b, c, "test.fixture.dup", "2.0.0"] { XCTAssertTrue(message.contains(m), "\"\(m)\" missing in: \(message)") }

        let doctor = skillhost("doctor", "--json")
        XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
        let refused = try XCTUnwrap(try doctor.jsonObject()["refused"] as? [[String: Any]])
        XCTAssertEqual(refused.first("file", c)?["reason"] as? String, "duplicate_id", doctor.summary)
        try assertInvokeError(invoke("fixture.dup_c"), kind: "no_skill", exitCode: 11)
        try assertEchoStillServes()
    }

    // MARK: - Initializers that crash or hang

    func testInitializerThatSegfaultsIsRefusedAsCrashedDuringScanNamingSIGSEGV() throws {
        try assertRefused("init_crash.so", reason: "crashed_during_scan", kind: "load_failed",
                          messageContains: ["SIGSEGV"], refusedID: "test.fixture.initcrash")
    }

    func testInitializerThatHangsIsRefusedAsTimedOutAndTheCommandFinishesQuickly() throws {
        try addSkill("echo_c.so")
        let hang = try addSkill("init_hang.so")
        try addSkill("slow.so")  // after init_hang.so by name: the scan goes on with the files after it
        let list = try listAll(["--scan-timeout", "500"])
        XCTAssertLessThan(list.result.elapsed, 3.0, "a 500 ms scan deadline must not stall the command: \(list.result.summary)")
        XCTAssertEqual(Set(list.skills.compactMap { $0["id"] as? String }), ["test.fixture.echo", "test.fixture.slow"], list.result.summary)
        XCTAssertEqual(list.refused.count, 1, list.result.summary)
        let r = try XCTUnwrap(list.refused.first("file", hang), list.result.summary)
        XCTAssertEqual(r["reason"] as? String, "timed_out")
        XCTAssertEqual(r["kind"] as? String, "load_failed")
        XCTAssertTrue((r["message"] as? String ?? "").contains("0.5 s"), "the message names the deadline: \(r)")
        XCTAssertTrue((r["hint"] as? String ?? "").contains("--scan-timeout"), "\(r)")

        let doctor = skillhost("doctor", "--json", "--scan-timeout", "500")
        XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
        XCTAssertLessThan(doctor.elapsed, 3.0, doctor.summary)
        let refused = try XCTUnwrap(try doctor.jsonObject()["refused"] as? [[String: Any]])
        XCTAssertEqual(refused.first("file", hang)?["reason"] as? String, "timed_out", doctor.summary)
        try assertEchoStillServes()
        let slow = try assertInvokeOK(invoke("fixture.slow", #"{"ms":1}"#), skill: "test.fixture.slow")
        XCTAssertEqual((slow as? [String: Any])?["sleptMs"] as? Int, 1)
    }

    /// An image without Swift has its entry called right after its load, with no line to the host in
    /// between (skillhost-scan stores the step in the progress word): an entry that never returns is
    /// timed out as the entry's hang, not the load's, and the files after it are read.
    func testEntryThatHangsRightAfterItsLoadIsRefusedNamingTheEntry() throws {
        try assertEntryHangTimedOut("entry_hang.so")
    }

    /// Scans `fixture` (whose entry never returns) between two good skills with a 500 ms step
    /// deadline: the scan ends within 3 s, `fixture` is refused as timed out in its entry, and the
    /// good ones register.
    private func assertEntryHangTimedOut(_ fixture: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try addSkill("echo_c.so")
        let hang = try addSkill(fixture)
        try addSkill("slow.so")
        let list = try listAll(["--scan-timeout", "500"])
        XCTAssertLessThan(list.result.elapsed, 3.0, list.result.summary, file: file, line: line)
        XCTAssertEqual(Set(list.skills.compactMap { $0["id"] as? String }), ["test.fixture.echo", "test.fixture.slow"], list.result.summary, file: file, line: line)
        let r = try XCTUnwrap(list.refused.first("file", hang), list.result.summary, file: file, line: line)
        XCTAssertEqual(r["reason"] as? String, "timed_out", "\(r)", file: file, line: line)
        let m = r["message"] as? String ?? ""
        XCTAssertTrue(m.contains("did not return from skillhost_entry") && m.contains("entry function hangs"), "names the entry: \(m)", file: file, line: line)
    }

    /// The progress word is memory the skill's own code can write: an entry that hangs while it keeps
    /// writing "my entry started just now" into the word is still timed out (the host reads the word's
    /// time once per step), named as the entry, and the files after it are read.
    func testEntryThatHangsWhileRewritingTheProgressWordIsStillTimedOut() throws {
        try assertEntryHangTimedOut("entry_rewrites_progress.so")
    }

    /// The scan process loads every file first, then calls the entries (skillhost-scan's ScanMode.swift): a crash in
    /// a static initializer (pass one) and a crash in skillhost_entry (pass two) are each blamed on their
    /// own file, naming the step, and the files loaded before and after them still register.
    func testCrashesInInitializerAndInEntryAreEachBlamedOnTheirOwnFileAndTheOthersRegister() throws {
        try addSkill("echo_c.so")
        let entryCrash = try addSkill("entry_crash.so")
        let initCrash = try addSkill("init_crash.so")
        try addSkill("slow.so")
        let list = try listAll()
        XCTAssertEqual(Set(list.skills.compactMap { $0["id"] as? String }), ["test.fixture.echo", "test.fixture.slow"], list.result.summary)
        XCTAssertEqual(list.refused.count, 2, list.result.summary)
        let e = try XCTUnwrap(list.refused.first("file", entryCrash), list.result.summary)
        XCTAssertEqual(e["reason"] as? String, "crashed_during_scan", "\(e)")
        let em = e["message"] as? String ?? ""
        XCTAssertTrue(em.contains("in skillhost_entry") && em.contains("SIGSEGV"), "names the step and the signal: \(em)")
        let i = try XCTUnwrap(list.refused.first("file", initCrash), list.result.summary)
        XCTAssertEqual(i["reason"] as? String, "crashed_during_scan", "\(i)")
        let im = i["message"] as? String ?? ""
        XCTAssertTrue(im.contains("while loading (its static initializers)") && im.contains("SIGSEGV"), "names the step and the signal: \(im)")
        try assertEchoStillServes()
        _ = try assertInvokeOK(invoke("fixture.slow", #"{"ms":1}"#), skill: "test.fixture.slow")
    }

    /// The files reach the scan process over a socket as the host checks them, and a replacement
    /// process gets the rest the same way after each crash and the hang: among 80 files, a crash while
    /// loading the first, a crash in the entry of one near the end and a hang in the last are each
    /// blamed on their own file and step; every other file is answered, and the hang costs one deadline.
    func testCrashesAndAHangAmongManyFilesAreEachBlamedOnTheirOwnFileAndEveryOtherFileIsRead() throws {
        let initCrash = try addSkill("init_crash.so", as: "a_init_crash.so")      // the first file
        for i in 0..<77 { try addSkill("echo_c.so", as: String(format: "e%03d.so", i)) }
        let entryCrash = try addSkill("entry_crash.so", as: "m_entry_crash.so")
        let hang = try addSkill("init_hang.so", as: "z_init_hang.so")             // the last file
        let list = try listAll(["--scan-timeout", "500"])
        XCTAssertLessThan(list.result.elapsed, 4.0, "one 500 ms deadline: \(list.result.summary)")
        XCTAssertEqual(list.skills.compactMap { $0["path"] as? String }, [skills + "/e000.so"], list.result.summary)
        XCTAssertEqual(list.refused.count, 79, list.result.summary)
        let duplicates = list.refused.filter { $0["reason"] as? String == "duplicate_id" }.compactMap { $0["file"] as? String }
        XCTAssertEqual(Set(duplicates), Set((1..<77).map { skills + String(format: "/e%03d.so", $0) }),
                       "every copy was read: \(list.result.summary)")
        let i = try XCTUnwrap(list.refused.first("file", initCrash), list.result.summary)
        XCTAssertEqual(i["reason"] as? String, "crashed_during_scan", "\(i)")
        XCTAssertTrue((i["message"] as? String ?? "").contains("while loading (its static initializers)"), "\(i)")
        let e = try XCTUnwrap(list.refused.first("file", entryCrash), list.result.summary)
        XCTAssertEqual(e["reason"] as? String, "crashed_during_scan", "\(e)")
        XCTAssertTrue((e["message"] as? String ?? "").contains("in skillhost_entry"), "\(e)")
        let h = try XCTUnwrap(list.refused.first("file", hang), list.result.summary)
        XCTAssertEqual(h["reason"] as? String, "timed_out", "\(h)")
        try assertEchoStillServes()
    }

    /// A skill whose initializer closes the scan process's stderr, then takes 1.5 s to load, is read
    /// like any other, and the host waits for it without spinning on the closed pipe (whose hangup
    /// every poll would report at once): the host's CPU time stays far below the load's 1.5 s.
    func testASkillThatClosesStderrWhileLoadingIsReadWithoutTheHostSpinning() throws {
        try addSkill("init_close_stderr.so")
        let script = """
            import resource, subprocess, sys
            r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE)
            sys.stdout.buffer.write(r.stdout)
            u = resource.getrusage(resource.RUSAGE_CHILDREN)
            sys.stderr.write("cpu %.3f\\n" % (u.ru_utime + u.ru_stime))
            sys.exit(r.returncode)
            """
        let r = Run.program("/usr/bin/env", ["python3", "-c", script, E2E.skillhostPath, "list", "--json", "--skills-dir", skills],
                            environment: environment, currentDirectory: work)
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.contains("\"test.fixture.initclosestderr\""), r.summary)
        XCTAssertGreaterThan(r.elapsed, 1.4, r.summary)
        let cpu = try XCTUnwrap(r.stderr.split(separator: "\n").last { $0.hasPrefix("cpu ") }.flatMap { Double($0.dropFirst(4)) }, r.summary)
        XCTAssertLessThan(cpu, 0.75, "the host spun while the scan process loaded: \(r.summary)")
    }

    // MARK: - Permissions

    func testWorldWritableSkillFileIsRefusedAsInsecureWithChmodHint() throws {
        try addSkill("echo_c.so")
        let bad = try addSkill("slow.so")
        chmod(bad, 0o777)
        let list = try listAll()
        XCTAssertEqual(list.skills.compactMap { $0["id"] as? String }, ["test.fixture.echo"], list.result.summary)
        XCTAssertEqual(list.refused.count, 1, list.result.summary)
        let r = try XCTUnwrap(list.refused.first("file", bad), list.result.summary)
        XCTAssertEqual(r["reason"] as? String, "insecure_permissions")
        XCTAssertEqual(r["kind"] as? String, "load_failed")
        let message = r["message"] as? String ?? ""
        XCTAssertTrue(message.contains(bad) && message.contains("world-writable"), message)
        XCTAssertTrue((r["hint"] as? String ?? "").contains("chmod"), "\(r)")

        let doctor = skillhost("doctor", "--json")
        XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
        let refused = try XCTUnwrap(try doctor.jsonObject()["refused"] as? [[String: Any]])
        XCTAssertEqual(refused.first("file", bad)?["reason"] as? String, "insecure_permissions", doctor.summary)
        try assertEchoStillServes()
        try assertInvokeError(invoke("fixture.slow", #"{"ms":1}"#), kind: "no_skill", exitCode: 11)
    }

    func testGroupOrWorldWritableFolderRefusesEveryFileAsInsecure() throws {
        let echo = try addSkill("echo_c.so")
        let slow = try addSkill("slow.so")
        for mode: mode_t in [0o775, 0o777] {
            chmod(skills, mode)
            let list = try listAll()
            XCTAssertEqual(list.skills.count, 0, "mode \(String(mode, radix: 8)): \(list.result.summary)")
            XCTAssertEqual(list.refused.count, 2, list.result.summary)
            for f in [echo, slow] {
                let r = try XCTUnwrap(list.refused.first("file", f), list.result.summary)
                XCTAssertEqual(r["reason"] as? String, "insecure_permissions")
                XCTAssertTrue((r["message"] as? String ?? "").contains(skills), "names the folder: \(r)")
                XCTAssertTrue((r["hint"] as? String ?? "").contains("chmod"), "\(r)")
            }
            let doctor = skillhost("doctor", "--json")
            XCTAssertEqual(doctor.exitCode, 1, doctor.summary)
            let d = try doctor.jsonObject()
            let folders = try XCTUnwrap(d["folders"] as? [[String: Any]], doctor.summary)
            let folder = try XCTUnwrap(folders.first("path", skills), doctor.summary)
            XCTAssertTrue((folder["problem"] as? String ?? "").contains(mode & 0o002 != 0 ? "world-writable" : "group-writable"), "\(folder)")
            XCTAssertTrue((folder["hint"] as? String ?? "").contains("chmod"), "\(folder)")
            try assertInvokeError(invoke("fixture.echo", #"{"text":"x"}"#), kind: "no_skill", exitCode: 11)
        }
        // Fixed folder: both serve again (the refusal is not cached as a verdict on the files).
        chmod(skills, 0o755)
        let list = try listAll()
        XCTAssertEqual(Set(list.skills.compactMap { $0["id"] as? String }), ["test.fixture.echo", "test.fixture.slow"], list.result.summary)
        try assertEchoStillServes()
    }

    // MARK: - Missing folder

    func testMissingSkillFolderListsNothingExitsZeroAndWarnsNamingTheFolder() throws {
        let missing = work + "/no-such-folder"
        let r = skillhost("list", "--skills-dir", missing)
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertTrue(r.stdout.contains("No skills registered"), r.summary)
        XCTAssertTrue(r.stderr.contains("warning") && r.stderr.contains(missing), "stderr warns naming the folder: \(r.summary)")
    }

    func testMissingSkillFolderListJSONListsNoSkillsAndStillWarnsOnStderr() throws {
        let missing = work + "/no-such-folder"
        let r = skillhost("list", "--json", "--skills-dir", missing)
        XCTAssertEqual(r.exitCode, 0, r.summary)
        XCTAssertEqual(try r.listedSkills().count, 0, r.summary)
        XCTAssertTrue(r.stderr.contains(missing), "a script must hear about a folder that does not exist (on stderr): \(r.summary)")
    }

    func testMissingSkillFolderMakesDoctorExitOneNamingTheFolder() throws {
        let missing = work + "/no-such-folder"
        let text = skillhost("doctor", "--skills-dir", missing)
        XCTAssertEqual(text.exitCode, 1, text.summary)
        XCTAssertTrue(text.stdout.contains(missing) && text.stdout.contains("does not exist"), text.summary)

        let json = skillhost("doctor", "--json", "--skills-dir", missing)
        XCTAssertEqual(json.exitCode, 1, json.summary)
        let d = try json.jsonObject()
        let folder = try XCTUnwrap((d["folders"] as? [[String: Any]])?.first("path", missing), json.summary)
        XCTAssertEqual(folder["exists"] as? Bool, false)
        XCTAssertTrue((folder["problem"] as? String ?? "").contains("does not exist"), "\(folder)")
        XCTAssertEqual(d["problems"] as? Int, 1)
    }
}
