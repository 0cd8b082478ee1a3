import Foundation
import XCTest

/// The scan process (`skillhost-scan`) as a binary: what it links and how it answers a wrong start.
/// A cold `skillhost list` waits for this process, and its start is mostly the dynamic loader's work
/// on the libraries it needs; it links the Swift core library and Glibc's overlay only (Package.swift's
/// `coreOnly`). An `import Dispatch` or `Synchronization`, a regex or an `async` in a module it links
/// (SkillWire, SkillLoading, SkillSandbox) would bring those libraries back and fail here.
final class ScanBinaryTests: EndToEndTestCase {
    /// Libraries the scan binary may name in its NEEDED entries: the Swift core, the Glibc overlay,
    /// `_Builtin_float` (which some toolchains split out of the core), `SwiftOnoneSupport` (debug
    /// builds only) and the C and C++ runtimes.
    static let allowed: Set<String> = [
        "libswiftCore.so", "libswiftGlibc.so", "libswift_Builtin_float.so", "libswiftSwiftOnoneSupport.so",
        "libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libdl.so.2", "libpthread.so.0",
        "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
    ]

    /// Parts of library names that must not be loaded into the scan process at all.
    static let forbidden = ["dispatch", "BlocksRuntime", "Foundation", "swift_Concurrency", "swift_StringProcessing",
                            "swift_RegexParser", "swiftSynchronization"]

    /// The NEEDED entries of `binary`'s dynamic section, as `readelf -d` prints them.
    func needed(_ binary: String) -> [String] {
        let r = Run.program("/usr/bin/readelf", ["-d", binary], environment: environment)
        XCTAssertEqual(r.exitCode, 0, r.summary)
        return r.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]"), open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    func testTheScanBinaryNeedsOnlyTheSwiftCoreLibraryAndLibc() {
        let scan = E2E.binDir + "/skillhost-scan"
        let libs = needed(scan)
        XCTAssertTrue(libs.contains("libswiftCore.so"), "readelf -d \(scan) should name libswiftCore.so: \(libs)")
        XCTAssertEqual(libs.filter { !Self.allowed.contains($0) }, [],
                       "skillhost-scan needs libraries beyond the Swift core (\(libs)); see Package.swift's coreOnly")
        for f in Self.forbidden {
            XCTAssertFalse(libs.contains { $0.contains(f) }, "skillhost-scan needs \(f): \(libs)")
        }
        // Nor through the libraries it needs (what the dynamic loader maps at its start).
        let closure = Run.program("/usr/bin/ldd", [scan], environment: environment)
        XCTAssertEqual(closure.exitCode, 0, closure.summary)
        for f in Self.forbidden {
            XCTAssertFalse(closure.stdout.contains(f), "skillhost-scan loads \(f): \(closure.stdout)")
        }
    }

    /// The same reading of the worker, which does use Dispatch: the check above sees such a library.
    func testTheCheckSeesDispatchInTheWorker() {
        let libs = needed(E2E.binDir + "/skillhost-worker")
        XCTAssertTrue(libs.contains("libdispatch.so"), "skillhost-worker serves calls with Dispatch: \(libs)")
    }

    /// Started by hand, or with anything but `-`, it says how it is started and exits 2, reading nothing;
    /// the worker no longer has a scan mode.
    func testAWrongStartIsAUsageErrorWithStatus2() {
        for args in [[], ["manifest", "-"], ["-", "extra"]] {
            let r = Run.program(E2E.binDir + "/skillhost-scan", args, environment: environment, timeout: 10)
            XCTAssertEqual(r.exitCode, 2, r.summary)
            XCTAssertTrue(r.stderr.contains("usage: skillhost-scan -"), r.summary)
            XCTAssertEqual(r.stdout, "", r.summary)
        }
        let worker = Run.program(E2E.binDir + "/skillhost-worker", ["manifest", "-"], environment: environment, timeout: 10)
        XCTAssertEqual(worker.exitCode, 2, worker.summary)
        XCTAssertTrue(worker.stderr.contains("usage: skillhost-worker serve"), worker.summary)
    }
}
