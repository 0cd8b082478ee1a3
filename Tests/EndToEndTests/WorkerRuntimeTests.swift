import Foundation
import XCTest
@testable import SkillHostCore
import SkillCalls
import SkillLoading
import SkillWire
import Synchronization

/// Several calls through ONE host (a `SkillHost` opened in this test process, running the real
/// `skillhost-worker`): a crashed worker is reaped and replaced on the next call, a deadline kills the
/// worker within its grace period, thread-safe skills share one worker concurrently while others are
/// serialized, and progress and the context store cross the process boundary.
final class WorkerRuntimeTests: EndToEndTestCase {
    var host: SkillHost?

    override func tearDownWithError() throws {
        host?.shutdown()
        host = nil
        if !work.isEmpty { assertNoWorkersLeft() }
        try super.tearDownWithError()
    }

    func openHost(config: String? = nil) throws -> SkillHost {
        var env = environment
        env["SKILLHOST_WORKER"] = E2E.binDir + "/skillhost-worker"
        if let config { env["SKILLHOST_CONFIG"] = try writeConfig(config) }
        let h = try SkillHost(HostOptions(skillsDir: skills, environment: env))
        host = h
        return h
    }


    func workerPID(_ h: SkillHost, _ id: String) throws -> pid_t? {
        guard case .success(let r) = h.invoker.runtime(for: try XCTUnwrap(h.registry.skill(id: id))) else { return nil }
        return (r as? WorkerRuntime)?.workerPID
    }

    /// True once `/proc/PID` is gone: the process ended AND was reaped (a zombie still has its entry).
    func isGone(_ pid: pid_t, within seconds: TimeInterval) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if !FileManager.default.fileExists(atPath: "/proc/\(pid)") { return true }
            usleep(10_000)
        }
        return false
    }

    func testACrashedWorkerIsReapedAndTheNextCallStartsANewOne() throws {
        try addSkill("echo_c.so")
        try addSkill("segv_invoke.so")
        let h = try openHost()
        guard case .success = call(h, "fixture.segv.ok") else { return XCTFail("fixture.segv.ok failed") }
        let first = try XCTUnwrap(try workerPID(h, "test.fixture.segv"))
        guard case .failure(let e) = call(h, "fixture.segv") else { return XCTFail("fixture.segv must fail") }
        XCTAssertEqual(e.kind, .crashed)
        XCTAssertTrue(e.message.contains("SIGSEGV"), e.message)
        XCTAssertTrue(isGone(first, within: 2), "the crashed worker \(first) is reaped (no zombie)")
        guard case .success(let s) = call(h, "fixture.segv.ok") else { return XCTFail("the next call must work again") }
        XCTAssertEqual(s.result, .object(JSONObject([("ok", .bool(true))])))
        let second = try XCTUnwrap(try workerPID(h, "test.fixture.segv"))
        XCTAssertNotEqual(first, second, "a new worker")
        guard case .success = call(h, "fixture.echo", #"{"text":"x"}"#) else { return XCTFail("the other skill keeps answering") }
    }

    func testRepeatedCrashesBackOffButAStableSkillIsNotDelayed() throws {
        try addSkill("segv_invoke.so")
        let h = try openHost(config: #"{"health":{"quarantineAfterCrashes":100}}"#)
        let start = Date()
        for _ in 0..<4 {
            guard case .failure(let e) = call(h, "fixture.segv", timeoutMs: 5000) else { return XCTFail("must crash") }
            XCTAssertEqual(e.kind, .crashed, e.message)
        }
        // Failures 1, 2, 3 → waits of 0, ~50 and ~100 ms before the 2nd, 3rd and 4th start.
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.11)
        // A deadline that ends before the next allowed restart fails at once, as unavailable.
        let quick = Date()
        guard case .failure(let e) = call(h, "fixture.segv.ok", timeoutMs: 20) else { return XCTFail("must wait for the backoff") }
        XCTAssertEqual(e.kind, .unavailable, e.message)
        XCTAssertTrue(e.message.contains("4 times in a row"), e.message)
        XCTAssertLessThan(Date().timeIntervalSince(quick), 0.1)
        // After the backoff the skill answers, and a success resets the count.
        usleep(300_000)
        guard case .success = call(h, "fixture.segv.ok", timeoutMs: 5000) else { return XCTFail("must answer after the backoff") }
    }

    /// The issue's test: 200 calls in a row to a skill that crashes on every third call of its worker,
    /// interleaved with calls to another skill, through one host. Threshold 10 crashes in 600 s: the
    /// 10th crash is call 30; from then on the skill is quarantined and not called.
    func testTwoHundredCallsToASkillThatCrashesEveryThirdCall() throws {
        try addSkill("crash_every_third.so")
        try addSkill("echo_c.so")
        let h = try openHost(config: #"{"health":{"quarantineAfterCrashes":10,"windowSeconds":600}}"#)
        var crashes = 0, successes = 0, quarantinedAt: Int?
        for i in 1...200 {
            switch call(h, "fixture.third", timeoutMs: 5000) {
            case .success(let s):
                XCTAssertNil(quarantinedAt, "call \(i) reached a quarantined skill")
                XCTAssertNotEqual(i % 3, 0, "call \(i) should have crashed")
                XCTAssertEqual(s.result["n"]?.intValue, Int64((i - 1) % 3 + 1), "call \(i)")
                successes += 1
            case .failure(let e) where e.kind == .crashed:
                XCTAssertEqual(i % 3, 0, "only every third call crashes; call \(i): \(e.message)")
                crashes += 1
            case .failure(let e):
                XCTAssertEqual(e.kind, .unavailable, "call \(i): \(e.message)")
                XCTAssertTrue(e.message.contains("quarantined"), e.message)
                if quarantinedAt == nil { quarantinedAt = i }
            }
            // The other skill in the same host: never lost, never delayed.
            let t = Date()
            guard case .success(let echo) = call(h, "fixture.echo", #"{"text":"c\#(i)"}"#, timeoutMs: 2000) else {
                return XCTFail("the echo call next to call \(i) failed")
            }
            XCTAssertEqual(echo.result["text"]?.stringValue, "c\(i)")
            XCTAssertLessThan(Date().timeIntervalSince(t), 2.0)
        }
        XCTAssertEqual(crashes, 10, "quarantined at the 10th crash")
        XCTAssertEqual(successes, 20, "every call before it that was not a third one succeeded")
        XCTAssertEqual(quarantinedAt, 31, "the first call after the 10th crash (call 30) is refused")
        let health = h.lastHealth()["test.fixture.third"]
        XCTAssertEqual(health?.state, .quarantined)
        XCTAssertEqual(health?.crashes, 10)
        XCTAssertEqual(health?.calls, 30)
        h.shutdown()
        XCTAssertEqual(h.lastHealth()["test.fixture.echo"]?.calls, 200, "every echo call counted (flushed at shutdown)")
    }

    func testBackoffDoublesWithJitterAndIsCapped() {
        XCTAssertEqual(WorkerRuntime.backoff(afterFailures: 0), 0)
        XCTAssertEqual(WorkerRuntime.backoff(afterFailures: 1), 0, "the first restart is immediate")
        for (n, ms) in [(2, 50.0), (3, 100.0), (4, 200.0), (30, 5000.0)] {
            let v = Double(WorkerRuntime.backoff(afterFailures: n)) / 1e6
            XCTAssertGreaterThanOrEqual(v, ms * 0.75, "n=\(n)")
            XCTAssertLessThanOrEqual(v, ms * 1.25, "n=\(n)")
        }
    }

    func testADeadlineKillsTheWorkerWithinItsGracePeriod() throws {
        try addSkill("sleep_past.so")
        let h = try openHost()
        guard case .success = call(h, "fixture.sleep.ok") else { return XCTFail("fixture.sleep.ok failed") }
        let pid = try XCTUnwrap(try workerPID(h, "test.fixture.sleep"))
        let start = Date()
        guard case .failure(let e) = call(h, "fixture.sleep", timeoutMs: 300) else { return XCTFail("must time out") }
        XCTAssertEqual(e.kind, .timeout)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
        XCTAssertTrue(isGone(pid, within: 1.5), "SIGTERM, then SIGKILL after 200 ms, then reaped")
        guard case .success = call(h, "fixture.sleep.ok") else { return XCTFail("a new worker answers") }
    }

    func testAThreadSafeSkillServesConcurrentCallsInOneWorker() throws {
        try addSkill("slow.so")
        let h = try openHost()
        guard case .success = call(h, "fixture.slow", #"{"ms":0}"#) else { return XCTFail("warm-up failed") }
        let pid = try workerPID(h, "test.fixture.slow")
        let start = Date()
        let ok = ManagedAtomicCounter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if case .success = call(h, "fixture.slow", #"{"ms":400}"#, timeoutMs: 5000) { ok.increment() }
        }
        XCTAssertEqual(ok.value, 4)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.2, "4 × 400 ms overlapped in one worker")
        XCTAssertEqual(try workerPID(h, "test.fixture.slow"), pid, "the same worker")
    }

    func testASkillThatIsNotThreadSafeNeverHasTwoCallsAtOnce() throws {
        try addSkill("serialized.so")
        let h = try openHost()
        let start = Date()
        let results = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            results.add(call(h, "fixture.serialized", timeoutMs: 5000))
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.29, "three 100 ms calls, one after another")
        for r in results.all {
            guard case .success(let s) = r else { return XCTFail("\(r)") }
            XCTAssertEqual(s.result["maxConcurrent"]?.intValue, 1, s.result.serialized)
        }
    }

    /// A reply resumes a call that was alone on its worker on the worker's reader thread (one thread
    /// wake-up per round trip, see `InlineJobs`), whatever task made it; with other calls in flight on
    /// that worker it resumes through the pool, so their replies never wait behind this caller's code;
    /// and a call made by an actor continues on the reader thread too (its code after the call runs there until it next suspends).
    func testAReplyResumesALoneCallOnItsReaderThreadAndOthersThroughThePool() async throws {
        try addSkill("slow.so")
        let h = try openHost()
        func slow(_ ms: Int) -> InvokeRequest { InvokeRequest(intent: "fixture.slow", input: #"{"ms":\#(ms)}"#, caller: .automation, timeoutMs: 5000) }
        guard case .success = await h.invoke(slow(0)) else { return XCTFail("warm-up failed") }

        // 100 ms: the reply must come after the call suspended (a reply that is there before the wait
        // begins is taken at once, on the calling thread, with no resumption at all).
        let alone = await Task.detached { () -> (Bool, Bool) in
            let r = await h.invoke(slow(100))
            return (r.isSuccess, InlineJobs.onReaderThread)
        }.value
        XCTAssertTrue(alone.0)
        XCTAssertTrue(alone.1, "a call alone on its worker continues on the reader thread")

        let withOthers = await Task.detached { () -> (Bool, Bool) in
            await withTaskGroup(of: (ms: Int, ok: Bool, onReader: Bool).self) { group in
                group.addTask { let r = await h.invoke(slow(600)); return (600, r.isSuccess, InlineJobs.onReaderThread) }
                try? await Task.sleep(nanoseconds: 100_000_000)  // the slow call is in flight
                group.addTask { let r = await h.invoke(slow(0)); return (0, r.isSuccess, InlineJobs.onReaderThread) }
                var quick = (ok: false, onReader: true)
                for await r in group where r.ms == 0 { quick = (r.ok, r.onReader) }
                return quick
            }
        }.value
        XCTAssertTrue(withOthers.0)
        XCTAssertFalse(withOthers.1, "a reply while another call is in flight resumes through the pool")

        // A call made by an actor too: the actor's code after the call runs on the reader thread until
        // it next suspends (the calls run one after another: this shows where they continue, not a race).
        let caller = ActorCaller(host: h)
        var onReader = 0
        for _ in 0..<20 {
            let r = await caller.call(slow(20))
            XCTAssertTrue(r.ok)
            if r.onReader { onReader += 1 }
        }
        XCTAssertGreaterThan(onReader, 0, "a lone call from an actor continues on the reader thread")
        let completed = await caller.completed
        XCTAssertEqual(completed, 20)
    }

    /// The host never blocks writing to a worker. Here a call continues on the worker's reader thread
    /// (it was alone) and sends a frame larger than a pipe while the worker's reader is itself blocked
    /// writing 320 KB of log lines to the host: a host that blocked in that write would never read
    /// them, and both sides would wait for ever (no deadline is armed before a frame is sent). If
    /// that comes back, the watchdog below kills the worker so the test fails instead of hanging.
    func testALargeRequestWhileTheWorkerFloodsTheHostDoesNotDeadlock() throws {
        try addSkill("log_flood.so")
        let h = try openHost()
        guard case .success = call(h, "fixture.logflood.ok") else { return XCTFail("warm-up failed") }
        let big = #"{"text":""# + String(repeating: "x", count: 300_000) + #""}"#
        let done = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[Bool]>([])
        Task.detached {
            for _ in 0..<3 {
                let r = await h.invoke(InvokeRequest(intent: "fixture.logflood", input: big, caller: .automation, timeoutMs: 20_000))
                outcomes.withLock { $0.append(r.isSuccess) }
            }
            done.signal()
        }
        if done.wait(timeout: .now() + 15) == .timedOut {
            if let pid = try workerPID(h, "test.fixture.logflood") { kill(pid, SIGKILL) }
            _ = done.wait(timeout: .now() + 10)
            return XCTFail("three calls with a 300 KB input to a worker that logs 320 KB after each did not finish in 15 s: host and worker deadlocked")
        }
        XCTAssertEqual(outcomes.withLock { $0 }, [true, true, true])
        guard case .success = call(h, "fixture.logflood.ok") else { return XCTFail("the worker still serves") }
    }

    /// A thousand calls in flight cost memory, not threads: each is a suspended task, and the worker's
    /// reply resumes it. (The skill completes every call from one timer thread, so only the host's
    /// concurrency is measured.)
    func testAThousandConcurrentCallsToAThreadSafeSkillAllCompleteWithoutAThreadEach() async throws {
        try addSkill("delay_queue.so")
        let h = try openHost()
        guard case .success = await h.invoke(InvokeRequest(intent: "fixture.delay", input: #"{"ms":0}"#, caller: .automation)) else {
            return XCTFail("warm-up failed")
        }
        let pid = try workerPID(h, "test.fixture.delay")
        let before = Self.threadCount()
        let peak = ManagedAtomicCounter()
        let results = await withTaskGroup(of: Result<InvokeSuccess, SkillError>.self) { group -> [Result<InvokeSuccess, SkillError>] in
            for _ in 0..<1000 {
                group.addTask { await h.invoke(InvokeRequest(intent: "fixture.delay", input: #"{"ms":300}"#, caller: .automation, timeoutMs: 20_000)) }
            }
            // Every call is in flight now (each takes 300 ms); count this process's threads meanwhile.
            try? await Task.sleep(nanoseconds: 150_000_000)
            peak.set(max(peak.value, Self.threadCount()))
            var all: [Result<InvokeSuccess, SkillError>] = []
            for await r in group { all.append(r) }
            return all
        }
        XCTAssertEqual(results.count, 1000)
        let failed = results.compactMap { r -> SkillError? in if case .failure(let e) = r { return e } else { return nil } }
        XCTAssertTrue(failed.isEmpty, "\(failed.count) calls failed, e.g. \(failed.first.map { "\($0.kind.rawValue): \($0.message)" } ?? "")")
        for case .success(let s) in results { XCTAssertEqual(s.result["sleptMs"]?.intValue, 300) }
        XCTAssertEqual(try workerPID(h, "test.fixture.delay"), pid, "one worker served them all")
        XCTAssertLessThan(peak.value, before + 32, "threads in this process with 1000 calls in flight: \(peak.value) (before: \(before)); a thread per call would be ~1000")
    }

    /// The threads of this process (from /proc/self/status).
    static func threadCount() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }

    /// Input nested past the one limit both sides share is refused by the host as invalid_input,
    /// before any worker sees it, and never counts against the skill; input at the limit reaches it.
    func testInputNestedPastTheLimitIsInvalidInputAndTheSkillStaysHealthy() throws {
        try addSkill("echo_c.so")
        let h = try openHost()
        func nested(_ levels: Int) -> String {
            // {"text":"x","deep":[[…]]} — the object is one level, the arrays the rest.
            #"{"text":"x","deep":"# + String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1) + "}"
        }
        for _ in 0..<5 {
            guard case .failure(let e) = call(h, "fixture.echo", nested(JSONLimits.maxDepth + 1)) else { return XCTFail("must be refused") }
            XCTAssertEqual(e.kind, .invalidInput, e.message)
            XCTAssertTrue(e.message.contains("nesting deeper than \(JSONLimits.maxDepth)"), e.message)
        }
        XCTAssertNil(try workerPID(h, "test.fixture.echo"), "no worker was started for refused input")
        let r = call(h, "fixture.echo", nested(JSONLimits.maxDepth))
        guard case .success(let s) = r else { return XCTFail("input at the limit reaches the skill: \(r)") }
        XCTAssertEqual(s.result["text"]?.stringValue, "x")
        let health = h.lastHealth()["test.fixture.echo"]
        XCTAssertEqual(health?.state, .ok)
        XCTAssertEqual(health?.failures ?? -1, 0, "no failure recorded against the skill")
    }

    func testProgressAndContextStoreCrossTheProcessBoundary() throws {
        try addSkill("progress.so")
        let h = try openHost()
        let steps = ResultsBox()
        let r = call(h, "fixture.progress", progress: { step, total, message in steps.addStep("\(step)/\(total) \(message ?? "-")") })
        guard case .success(let s) = r else { return XCTFail("\(r)") }
        XCTAssertEqual(s.result["contextSet"], .bool(true))
        XCTAssertEqual(steps.steps, ["1/3 step one of three", "2/3 step two of three", "3/3 -"])
        XCTAssertEqual(SkillServices.store.get("fixture.progress").map { String(decoding: $0, as: UTF8.self) }, #"{"steps":3}"#,
                       "a worker's context_set reaches the host's store")
    }

    func testShutdownStopsAndReapsEveryWorker() throws {
        try addSkill("echo_c.so")
        try addSkill("fork_child.so")
        let h = try openHost(config: #"{"grants": {"test.fixture.fork": {"programs": true}}}"#)  // fork needs "programs"
        guard case .success = call(h, "fixture.echo", #"{"text":"x"}"#), case .success = call(h, "fixture.fork") else {
            return XCTFail("calls failed")
        }
        XCTAssertEqual(workerProcesses().count, 3, "two workers and the forked child: \(workerProcesses())")
        h.shutdown()
        assertNoWorkersLeft(timeout: 1)
        guard case .success = call(h, "fixture.echo", #"{"text":"again"}"#) else { return XCTFail("a call after shutdown starts a new worker") }
    }
}

/// A counter several threads increment.
final class ManagedAtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func increment() { lock.lock(); n += 1; lock.unlock() }
    func set(_ v: Int) { lock.lock(); n = v; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

/// Results and progress steps collected from several threads.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<InvokeSuccess, SkillError>] = []
    private var stepList: [String] = []
    func add(_ r: Result<InvokeSuccess, SkillError>) { lock.lock(); results.append(r); lock.unlock() }
    func addStep(_ s: String) { lock.lock(); stepList.append(s); lock.unlock() }
    var all: [Result<InvokeSuccess, SkillError>] { lock.lock(); defer { lock.unlock() }; return results }
    var steps: [String] { lock.lock(); defer { lock.unlock() }; return stepList }
}

/// One call through `h` by automation.
func call(_ h: SkillHost, _ intent: String, _ input: String = "{}", timeoutMs: Int? = nil,
          progress: (@Sendable (UInt32, UInt32, String?) -> Void)? = nil) -> Result<InvokeSuccess, SkillError> {
    h.invokeAndWait(InvokeRequest(intent: intent, input: input, caller: .automation, timeoutMs: timeoutMs, progress: progress))
}

private extension Result {
    var isSuccess: Bool { if case .success = self { return true } else { return false } }
}

/// Makes calls from an actor (see `testAReplyResumesALoneCallOnItsReaderThreadAndOthersThroughThePool`).
private actor ActorCaller {
    let host: SkillHost
    private(set) var completed = 0
    init(host: SkillHost) { self.host = host }

    func call(_ request: InvokeRequest) async -> (ok: Bool, onReader: Bool) {
        let r = await host.invoke(request)
        completed += 1
        return (r.isSuccess, InlineJobs.onReaderThread)
    }
}
