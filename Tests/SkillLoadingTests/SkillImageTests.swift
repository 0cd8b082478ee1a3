import Foundation
import SkillABI
import SkillLoading
import XCTest

/// Loading images from checked descriptors in one process, the way the scan process loads many files
/// and the host loads trusted skills: each file gives its own image, whatever glibc does with names.
final class SkillImageTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// Every test's folder lives under this one, removed when the class is done: images are never
    /// unloaded, and a file deleted after one test could hand its inode to the next test's file of
    /// the same size and (coarse) time, which the loader would take for the loaded image.
    static let root = NSTemporaryDirectory() + "skillloading-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    var dir = ""

    override func setUpWithError() throws {
        dir = Self.root + "/\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(Self.root, 0o755)
        chmod(dir, 0o755)
        // Resolve symlinks so paths compare equal with what the kernel reports.
        dir = URL(fileURLWithPath: dir).resolvingSymlinksInPath().path
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
        super.tearDown()
    }

    /// A C skill with id `id` compiled to `name` in the test folder.
    func skill(_ id: String, _ name: String) throws -> String {
        let src = dir + "/\(name).c"
        let out = dir + "/\(name)"
        try """
        #include "skillhost.h"
        static void invoke(const skh_call *call) { (void)call; }
        static const skh_intent intents[] = {{ .struct_size = sizeof(skh_intent), .name = "t.x", .input_schema = "{}" }};
        static const skh_skill skill = { .abi_major = SKH_ABI_VERSION_MAJOR, .abi_minor = SKH_ABI_VERSION_MINOR,
            .struct_size = sizeof(skh_skill), .id = "\(id)", .name = "T", .version = "1.0.0", .category = "testing",
            .intent_count = 1, .intents = intents, .invoke = invoke };
        SKH_EXPORT const skh_skill *skillhost_entry(void) { return &skill; }
        """.write(toFile: src, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["cc", "-std=c99", "-fPIC", "-shared", "-I", Self.packageRoot + "/Sources/SkillABI/include", src, "-o", out]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "cc failed for \(name)")
        chmod(out, 0o755)
        return out
    }

    func id(of n: SkillImage.Negotiated) -> String { String(cString: n.skill.pointee.id) }

    func open(_ path: String) throws -> CheckedSkillFile {
        switch CheckedSkillFile.open(path) {
        case .success(let f): return f
        case .failure(let e): XCTFail("\(e)"); throw e
        }
    }

    /// The trap itself: after descriptor N is closed and reused for another file, glibc answers
    /// `dlopen("/proc/self/fd/N")` with the image first loaded under that name.
    func testGlibcMatchesProcFdNamesAgainstImagesAlreadyLoaded() throws {
        let a = try skill("test.trap.a", "trap_a.so"), b = try skill("test.trap.b", "trap_b.so")
        let fa = Glibc.open(a, O_RDONLY | O_CLOEXEC)
        let ha = dlopen("/proc/self/fd/\(fa)", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
        XCTAssertNotNil(ha)
        close(fa)
        let fb = Glibc.open(b, O_RDONLY | O_CLOEXEC)
        defer { close(fb) }
        XCTAssertEqual(fb, fa, "the lowest free number is reused")
        let hb = dlopen("/proc/self/fd/\(fb)", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
        XCTAssertEqual(hb, ha, "glibc returned the first image for the reused name: why SkillImage never closes a loaded descriptor")
    }

    /// Two files loaded one after the other give two images, each with its own skill.
    func testTwoFilesLoadedInTurnGiveTwoSkillsAndTheFirstDescriptorStaysOpen() throws {
        let a = try skill("test.load.a", "a.so"), b = try skill("test.load.b", "b.so")
        var fdA: Int32 = -1
        do {
            let fa = try open(a)
            fdA = fa.fd
            let na = try SkillImage.open(fa, expectedID: "test.load.a").get()
            XCTAssertEqual(id(of: na), "test.load.a")
            XCTAssertEqual(na.servedMinor, UInt32(SKH_ABI_VERSION_MINOR))
        }
        XCTAssertNotEqual(fcntl(fdA, F_GETFD), -1, "the descriptor an image came from is kept open after its owner is gone")
        let fb = try open(b)
        XCTAssertNotEqual(fb.fd, fdA)
        XCTAssertEqual(id(of: try SkillImage.open(fb, expectedID: "test.load.b").get()), "test.load.b")
    }

    /// The same file again is the same image (its new descriptor is closed); a file rewritten in place
    /// (same inode, new mtime) is loaded again from a private copy of the bytes the descriptor has.
    func testTheSameFileIsLoadedOnceAndAFileChangedInPlaceIsLoadedAgain() throws {
        let a = try skill("test.same.a", "same.so")
        let first = try open(a)
        let h1 = try SkillImage.load(first).get()
        let again = try open(a)
        let fd = again.fd
        XCTAssertEqual(try SkillImage.load(again).get(), h1)
        again.close()
        XCTAssertEqual(fcntl(fd, F_GETFD), -1, "a descriptor nothing was loaded from is closed as usual")

        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, a, &times, 0), 0)
        let changed = try open(a)
        XCTAssertEqual(changed.identity.inode, first.identity.inode)
        let h2 = try SkillImage.load(changed).get()
        XCTAssertNotEqual(h2, h1, "glibc would hand back the old image for the same inode; the loader loads a copy")
        XCTAssertEqual(String(cString: try SkillImage.entry(h2, path: a).get().pointee.id), "test.same.a")
    }

    func testAnotherIdThanTheScanRecordedIsRefusedAsChanged() throws {
        let a = try skill("test.id.a", "id_a.so")
        let e = try XCTUnwrap(SkillImage.open(try open(a), expectedID: "test.id.other").failure)
        XCTAssertEqual(e.reason, .changedSinceScan)
        XCTAssertTrue(e.message.contains("test.id.other") && e.message.contains("test.id.a"), e.message)
    }

    /// The scan child and the worker check the descriptor they were handed against what the host recorded.
    func testAnAdoptedDescriptorThatIsNotTheRecordedFileIsRefused() throws {
        let a = try skill("test.adopt.a", "adopt.so")
        let f = try open(a)
        var recorded = f.identity
        recorded.size += 1
        let fd = dup(f.fd)
        let e = try XCTUnwrap(CheckedSkillFile.adopt(fd: fd, path: a, expected: recorded).failure)
        XCTAssertEqual(e.reason, .changedSinceScan)
        XCTAssertTrue(e.message.contains("size"), e.message)
        XCTAssertNoThrow(try CheckedSkillFile.adopt(fd: dup(f.fd), path: a, expected: f.identity).get())
    }

    // MARK: - Folders

    func testAWorldWritableFolderAboveTheFileIsNamedWithItsFix() throws {
        let open = dir + "/open"
        try FileManager.default.createDirectory(atPath: open + "/inner", withIntermediateDirectories: true)
        chmod(open, 0o777)
        chmod(open + "/inner", 0o755)
        let a = try skill("test.folder.a", "folder.so")
        let target = open + "/inner/folder.so"
        XCTAssertEqual(rename(a, target), 0)
        let e = try XCTUnwrap(CheckedSkillFile.open(target).failure)
        XCTAssertEqual(e.reason, .insecurePermissions)
        XCTAssertTrue(e.message.contains("folder \"\(open)\"") && e.message.contains("mode 777"), e.message)
        XCTAssertEqual(e.hint, "chmod go-w \"\(open)\"")
        chmod(open, 0o1777)
        XCTAssertNoThrow(try CheckedSkillFile.open(target).get(), "sticky, and every entry below it is this user's")
    }

    /// A file opened through its opened folder is placed where the folder really is (here reached
    /// through a symlink), the same as a readlink of its descriptor says; a symlink entry is left to
    /// `open(path)`; a missing one is refused with the message `open(path)` gives.
    func testAFileOpenedInItsFolderIsWhereTheFolderReallyIs() throws {
        let real = dir + "/real"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        chmod(real, 0o755)
        let a = try skill("test.folder.in", "in.so")
        XCTAssertEqual(rename(a, real + "/in.so"), 0)
        XCTAssertEqual(symlink(real, dir + "/via"), 0)
        XCTAssertEqual(symlink(real + "/in.so", real + "/link.so"), 0)
        let folder = try XCTUnwrap(OpenedFolder.open(dir + "/via"))
        XCTAssertEqual(folder.realPath, real)

        let f = try XCTUnwrap(CheckedSkillFile.open("in.so", in: folder, path: dir + "/via/in.so")).get()
        XCTAssertEqual(f.path, dir + "/via/in.so")
        XCTAssertEqual(f.realPath, real + "/in.so")
        XCTAssertEqual(f.realPath, try open(dir + "/via/in.so").realPath)

        XCTAssertNil(CheckedSkillFile.open("link.so", in: folder, path: dir + "/via/link.so"), "a link is opened by its path")
        let e = try XCTUnwrap(CheckedSkillFile.open("gone.so", in: folder, path: dir + "/via/gone.so")?.failure)
        XCTAssertEqual(e.message, CheckedSkillFile.open(dir + "/via/gone.so").failure?.message)
        XCTAssertEqual(e.reason, .loadFailed)

        chmod(real + "/in.so", 0o775)
        let w = try XCTUnwrap(CheckedSkillFile.open("in.so", in: folder, path: dir + "/via/in.so")?.failure)
        XCTAssertEqual(w.reason, .insecurePermissions)
        XCTAssertEqual(w.message, CheckedSkillFile.open(dir + "/via/in.so").failure?.message)
        XCTAssertTrue(w.message.contains("which resolves to \"\(real)/in.so\""), w.message)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let e) = self { return e } else { return nil } }
}
