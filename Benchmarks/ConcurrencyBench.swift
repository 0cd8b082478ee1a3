import Foundation
import Glibc
import SkillHostCore

/// (f) Many calls in flight through the real core in this process, to a thread-safe skill in its worker
/// (Tests/Fixtures/delay_queue.c: each call completes after `delayMs` from one timer thread, so only
/// the host's concurrency is measured):
///   burst   `calls` calls started at once, each taking `delayMs`: the time until all completed, next to
///           `delayMs` itself (a host that parks a thread per call, or serializes, takes many times longer);
///   threads this process's threads at the peak of the burst, next to before it;
///   quick   while `slowCalls` calls of 5 s are in flight on that skill, the p50 of a quick call to
///           another skill (the C echo worker), next to its p50 with nothing in flight.
struct ConcurrencyBench {
    struct Config {
        var calls = 1000
        var delayMs = 300
        var slowCalls = 64
        var quickCalls = 200
        var rounds = 3
    }

    struct Result {
        var burstMs: Samples
        var failures: Int
        var threadsBefore: Int
        var threadsPeak: Int
        var quickIdle: Samples
        var quickBusy: Samples
        var config: Config
    }

    let locations: Locations
    let workspace: Workspace
    let config: Config

    func measure() -> Result {
        let dir = workspace.folder("concurrency-skills")
        _ = Fixtures.buildEchoC(locations, into: dir, workspace: workspace)
        _ = Fixtures.buildFixture("delay_queue", locations, into: dir, workspace: workspace, extra: ["-pthread"])
        let host = WorkerBench(locations: locations, workspace: workspace, config: .init()).openHost(dir: dir, name: "concurrency", config: "{}")
        let delay = InvokeRequest(intent: "fixture.delay", input: "{\"ms\":\(config.delayMs)}", caller: .automation, timeoutMs: 60_000)
        let quick = InvokeRequest(intent: "fixture.echo", input: InvokeBench.input, caller: .automation)
        for r in [delay, quick] {
            guard case .success = host.invokeAndWait(r) else { fail("\(r.intent) failed on its first call") }
        }
        let before = Self.threads()
        let (n, cfg) = (config.calls, config)
        var burst: [Double] = []
        var failures = 0
        var peak = before
        for _ in 0..<config.rounds {
            let (ms, failed, threads) = runBlocking { () -> (Double, Int, Int) in
                let t0 = monotonicNs()
                return await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<n {
                        group.addTask { if case .success = await host.invoke(delay) { return true } else { return false } }
                    }
                    try? await Task.sleep(nanoseconds: UInt64(cfg.delayMs / 2) * 1_000_000)
                    let threads = Self.threads()
                    var failed = 0
                    for await ok in group where !ok { failed += 1 }
                    return (Double(monotonicNs() - t0) / 1e6, failed, threads)
                }
            }
            burst.append(ms)
            failures += failed
            peak = max(peak, threads)
        }

        // Quick calls to the echo worker, idle and then with `slowCalls` 5 s calls in flight.
        let quickCall: @Sendable () async -> Bool = { if case .success = await host.invoke(quick) { return true } else { return false } }
        let (idle, idleFailed) = runBlocking { await InvokeBench.timeCalls(cfg.quickCalls, warmup: 20, quickCall) }
        let slow = InvokeRequest(intent: "fixture.delay", input: #"{"ms":5000}"#, caller: .automation, timeoutMs: 60_000)
        let (busy, busyFailed) = runBlocking { () -> ([Double], Int) in
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<cfg.slowCalls {
                    group.addTask { if case .success = await host.invoke(slow) { return true } else { return false } }
                }
                try? await Task.sleep(nanoseconds: 100_000_000)
                let r = await InvokeBench.timeCalls(cfg.quickCalls, quickCall)
                var failed = r.1
                for await ok in group where !ok { failed += 1 }
                return (r.0, failed)
            }
        }
        host.shutdown()
        return Result(burstMs: Samples(burst), failures: failures + idleFailed + busyFailed, threadsBefore: before, threadsPeak: peak,
                      quickIdle: Samples(idle), quickBusy: Samples(busy), config: config)
    }

    /// The threads of this process now (/proc/self/status).
    static func threads() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
}

extension Report {
    static func concurrencySection(_ r: ConcurrencyBench.Result) -> String {
        let c = r.config
        return table(["measurement", "p50", "min", "max", "baseline", "ratio"], [
            ["\(c.calls) × \(c.delayMs) ms calls at once, until all completed (ms)", fmt(r.burstMs.median), fmt(r.burstMs.min), fmt(r.burstMs.max),
             "one call: \(c.delayMs) ms", ratio(r.burstMs.median / Double(c.delayMs))],
            ["threads in this process at the burst's peak", "\(r.threadsPeak)", "", "", "before: \(r.threadsBefore)", "+\(r.threadsPeak - r.threadsBefore)"],
            ["quick call (C echo worker) with \(c.slowCalls) × 5 s calls in flight (µs)", fmt(r.quickBusy.median), fmt(r.quickBusy.min), fmt(r.quickBusy.max),
             "idle p50 \(fmt(r.quickIdle.median)) µs", ratio(r.quickBusy.median / r.quickIdle.median)],
        ]) + "\n(\(c.rounds) bursts; \(c.quickCalls) quick calls each way; Tests/Fixtures/delay_queue.c completes every call from one timer thread in its worker\(r.failures == 0 ? "" : "; \(r.failures) calls FAILED"))"
    }

    static func concurrencyGoals(_ r: ConcurrencyBench.Result) -> [Goal] {
        let c = r.config
        return [
            Goal(text: "\(c.calls) × \(c.delayMs) ms calls to a thread-safe skill complete in < 2 s",
                 met: r.failures == 0 && r.burstMs.median < 2000,
                 numbers: "p50 \(fmt(r.burstMs.median)) ms over \(c.rounds) bursts; threads \(r.threadsBefore) → \(r.threadsPeak)"),
            Goal(text: "quick call p50 with \(c.slowCalls) slow calls in flight ≤ 2 × its idle p50",
                 met: r.failures == 0 && r.quickBusy.median <= 2 * r.quickIdle.median,
                 numbers: "\(fmt(r.quickBusy.median)) µs vs idle \(fmt(r.quickIdle.median)) µs (\(ratio(r.quickBusy.median / r.quickIdle.median)))"),
        ]
    }
}
