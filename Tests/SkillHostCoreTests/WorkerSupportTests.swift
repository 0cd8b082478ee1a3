import Foundation
import Glibc
import XCTest
@testable import SkillHostCore

/// The host-side pieces of worker isolation that need no process: the output a worker's skill writes,
/// how a worker's end reads to a caller, and the config that decides isolation and limits.
final class WorkerSupportTests: XCTestCase {
    func skill() -> RegisteredSkill {
        let m = SkillManifest(identity: SkillIdentity(id: "t.s", name: "S", version: SemanticVersion("1.0.0")!, category: "c", vendor: "ACME",
                                                      description: "", toolchain: nil, abiMajor: 1, abiMinor: 0, threadSafe: true, hasHealth: false),
                              intents: [IntentManifest(name: "t.do", description: "", inputSchema: ["type": "object"], outputSchema: nil,
                                                       flags: [], surfaces: .all, priority: 0, confidence: 1, keywords: [:], examples: [])])
        return RegisteredSkill(summary: m.summary, manifestText: [], file: SkillFile(path: "/s/t.so", inode: 1, size: 1, mtimeNs: 1), isolation: .process)
    }

    func ingest(_ o: WorkerOutput, _ text: String) {
        Array(text.utf8).withUnsafeBufferPointer { o.ingest($0) }
    }

    // MARK: - Waiters

    /// The lone slot and the dictionary behind it answer as one table by id, whichever holds a waiter.
    func testWaiterTableFindsAndRemovesEveryWaiterByItsID() {
        var t = WaiterTable<Int>()
        XCTAssertTrue(t.isEmpty)
        let w = (1...4).map { _ in WorkerWaiter<Int>(intent: "t.do") }
        for (i, x) in w.enumerated() { t.insert(x, id: UInt64(i + 1)) }
        for (i, x) in w.enumerated() { XCTAssertTrue(t[UInt64(i + 1)] === x) }
        XCTAssertNil(t[0])
        XCTAssertNil(t[9])
        XCTAssertTrue(t.remove(1) === w[0])  // the lone one
        XCTAssertNil(t.remove(1))
        XCTAssertNil(t[1])
        XCTAssertTrue(t.remove(3) === w[2])
        let w5 = WorkerWaiter<Int>(intent: "t.do")
        t.insert(w5, id: 5)  // the lone slot is free again
        XCTAssertTrue(t[5] === w5)
        XCTAssertTrue(t[2] === w[1])
        XCTAssertFalse(t.isEmpty)
        let rest = t.removeAll()
        XCTAssertEqual(Set(rest.map(ObjectIdentifier.init)), Set([w[1], w[3], w5].map(ObjectIdentifier.init)))
        XCTAssertTrue(t.isEmpty)
        XCTAssertNil(t[2])
    }

    // MARK: - Output

    func testOutputKeepsTheLastLinesAndTakesTheFatalNoteOut() {
        let o = WorkerOutput(skillID: "t.s")
        ingest(o, "one\ntwo\nthr")
        ingest(o, "ee\n\nskillhost-worker: fatal signal=11 vmpeak_kb=262080\nfour (unfinished)")
        XCTAssertEqual(o.lastLines(3), ["two", "three", "four (unfinished)"])
        XCTAssertEqual(o.fatalNote, WorkerOutput.FatalNote(signal: 11, vmPeakKB: 262080))
    }

    func testOutputIsBoundedAndLongLinesAreCut() {
        let o = WorkerOutput(skillID: "t.s")
        let line = String(repeating: "x", count: 1000) + "\n"
        for _ in 0..<1000 { ingest(o, line) }  // ~1 MB
        ingest(o, "last\n")
        XCTAssertEqual(o.lastLines(1), ["last"])
        ingest(o, String(repeating: "y", count: 10_000))
        let cut = o.lastLines(3)
        XCTAssertTrue(cut.allSatisfy { $0.count <= 301 }, "shown lines are cut to 300 characters")
    }

    // MARK: - How an end reads

    func death(status: Int32, cause: WorkerStopCause? = nil, note: WorkerOutput.FatalNote? = nil, maxRSSKB: Int = 10_000,
               ready: Bool = true, lines: [String] = ["last words"]) -> WorkerDeath {
        WorkerDeath(status: status, maxRSSKB: maxRSSKB, cause: cause, note: note, wasReady: ready, lastLines: lines)
    }

    func testASignalIsACrashNamingItAndTheLastLines() {
        let e = death(status: SIGSEGV).error(skill: skill(), intent: "t.do", settings: WorkerSettings())
        XCTAssertEqual(e.kind, .crashed)
        XCTAssertTrue(e.message.contains("crashed during t.do") && e.message.contains("SIGSEGV") && e.message.contains("last words"), e.message)
        XCTAssertEqual(e.skillID, "t.s")
    }

    func testAnExitMidCallIsACrash() {
        let e = death(status: 0).error(skill: skill(), intent: "t.do", settings: WorkerSettings())
        XCTAssertEqual(e.kind, .crashed)
        XCTAssertTrue(e.message.contains("exited with status 0 in the middle of a call of t.do"), e.message)
    }

    func testMemoryIsNamedOnlyNearTheLimit() {
        var s = WorkerSettings()
        s.memoryLimitMB = 256
        let near = death(status: SIGSEGV, note: .init(signal: 11, vmPeakKB: 250 * 1024)).error(skill: skill(), intent: "t.do", settings: s)
        XCTAssertTrue(near.message.contains("ran out of memory") && near.message.contains("256 MB") && near.message.contains("workers.memoryLimitMB"), near.message)
        let far = death(status: SIGSEGV, note: .init(signal: 11, vmPeakKB: 120 * 1024)).error(skill: skill(), intent: "t.do", settings: s)
        XCTAssertFalse(far.message.contains("memory"), far.message)
        s.memoryLimitMB = 0
        XCTAssertFalse(death(status: SIGSEGV, note: .init(signal: 11, vmPeakKB: 250 * 1024)).error(skill: skill(), intent: nil, settings: s).message.contains("memory"))
    }

    func testCPULimitProtocolAndCollateralCauses() {
        var s = WorkerSettings()
        s.cpuSecondsPerCall = 3
        XCTAssertTrue(death(status: SIGXCPU).error(skill: skill(), intent: "t.do", settings: s).message.contains("more than 3 CPU seconds"))
        let p = death(status: SIGKILL, cause: .protocolError(detail: "junk")).error(skill: skill(), intent: "t.do", settings: s)
        XCTAssertEqual(p.kind, .internal)
        XCTAssertTrue(p.message.contains("broke the host protocol") && p.message.contains("junk"), p.message)
        let c = death(status: SIGTERM, cause: .deadline(intent: "t.other")).error(skill: skill(), intent: "t.do", settings: s)
        XCTAssertEqual(c.kind, .crashed)
        XCTAssertTrue(c.message.contains("another call (of t.other) overran its deadline"), c.message)
        XCTAssertFalse(death(status: SIGTERM, cause: .deadline(intent: "t.do")).isUnexpected)
        XCTAssertTrue(death(status: SIGSEGV).isUnexpected)
    }

    func testDyingBeforeHelloIsALoadFailure() {
        let e = death(status: SIGSEGV, ready: false).error(skill: skill(), intent: "t.do", settings: WorkerSettings())
        XCTAssertEqual(e.kind, .loadFailed)
        XCTAssertTrue(e.message.contains("could not start in its worker process"), e.message)
    }

    // MARK: - Config

    func load(_ json: String) throws -> HostConfig {
        let file = NSTemporaryDirectory() + "skillhost-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        return try HostConfig.load(explicit: file, paths: HostPaths(environment: ["HOME": "/h"]), environment: [:])
    }

    func testTrustedAndWorkerLimitsFromTheConfig() throws {
        let d = try load("{}")
        XCTAssertEqual(d.trusted, [])
        XCTAssertEqual(d.workers, WorkerSettings())
        XCTAssertEqual(d.workers.memoryLimitMB, 1024)
        let c = try load(#"{"trusted":["a.b","c.d"],"workers":{"memoryLimitMB":0,"openFiles":64,"cpuSecondsPerCall":5,"killGraceMs":50}}"#)
        XCTAssertEqual(c.trusted, ["a.b", "c.d"])
        XCTAssertEqual(c.workers.memoryLimitMB, 0)
        XCTAssertEqual(c.workers.openFiles, 64)
        XCTAssertEqual(c.workers.cpuSecondsPerCall, 5)
        XCTAssertEqual(c.workers.killGraceMs, 50)
        XCTAssertThrowsError(try load(#"{"trusted":[1]}"#)) { XCTAssertTrue(($0 as? SkillError)?.message.contains("\"trusted\"") == true) }
        XCTAssertThrowsError(try load(#"{"workers":{"openFiles":"many"}}"#)) {
            XCTAssertTrue(($0 as? SkillError)?.message.contains("workers.openFiles") == true)
        }
    }
}
