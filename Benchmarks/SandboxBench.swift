import Foundation
import Glibc
import SkillHostCore

/// (i) What the worker sandbox costs (issue 11): the same two echo skills (C fixture, Swift EchoSkill)
/// in workers of two hosts that differ only in the config's `"sandbox"` (true: Landlock, seccomp — which
/// also refuses every socket —, capabilities dropped, a cleared environment; false: none of it).
///   start    the first call after `shutdown` (worker spawn, sandbox, load, hello, the call), in rounds
///            that alternate sandboxed and not, so machine load hits both alike.
///   per call one call at a time on a running worker, in interleaved blocks of both hosts.
struct SandboxBench {
    struct Config {
        var startRounds = 15
        var calls = 6_000
        var blocks = 6
        var warmup = 500
    }

    struct Row {
        var kind: String
        /// ms, first call on a fresh worker.
        var startOn: Samples, startOff: Samples
        /// µs per call on a running worker.
        var callOn: Samples, callOff: Samples
        var mode: String
        /// µs the worker itself spent applying the sandbox (its hello's `applyMicros`), per start.
        var apply: Samples
    }

    let locations: Locations
    let workspace: Workspace
    let config: Config

    func measure() -> [Row] {
        let dir = workspace.folder("sandbox-skills")
        do { try FileManager.default.copyItem(atPath: locations.echoSwiftSkill, toPath: dir + "/libEchoSkill.so") } catch {
            fail("cannot copy \(locations.echoSwiftSkill): \(error.localizedDescription)")
        }
        chmod(dir + "/libEchoSkill.so", 0o755)
        _ = Fixtures.buildEchoC(locations, into: dir, workspace: workspace)
        let worker = WorkerBench(locations: locations, workspace: workspace, config: WorkerBench.Config())
        let on = worker.openHost(dir: dir, name: "sandbox-on", config: "{}")
        let off = worker.openHost(dir: dir, name: "sandbox-off", config: #"{"sandbox": false}"#)
        defer { on.shutdown(); off.shutdown() }
        var rows: [Row] = []
        for (kind, intent, id) in [("C echo", "fixture.echo", "test.fixture.echo"), ("Swift echo", "echo.say", "dev.skillhost.echo")] {
            let req = InvokeRequest(intent: intent, input: InvokeBench.input, caller: .automation)
            var startOn: [Double] = [], startOff: [Double] = [], apply: [Double] = []
            for round in 0..<config.startRounds {
                for (host, into) in round % 2 == 0 ? [(on, 0), (off, 1)] : [(off, 1), (on, 0)] {
                    host.shutdown()
                    let t = monotonicNs()
                    worker.mustEcho(host, req)
                    let ms = Double(monotonicNs() - t) / 1e6
                    if into == 0 {
                        startOn.append(ms)
                        if let f = on.sandboxFact(of: id) { apply.append(Double(f.applyMicros)) }
                    } else { startOff.append(ms) }
                }
            }
            for _ in 0..<config.warmup { worker.mustEcho(on, req); worker.mustEcho(off, req) }
            var callOn: [Double] = [], callOff: [Double] = []
            let perBlock = max(config.calls / config.blocks, 1)
            for block in 0..<config.blocks {
                for (host, into) in block % 2 == 0 ? [(on, 0), (off, 1)] : [(off, 1), (on, 0)] {
                    for _ in 0..<perBlock {
                        let t = monotonicNs()
                        worker.mustEcho(host, req)
                        let us = Double(monotonicNs() - t) / 1e3
                        if into == 0 { callOn.append(us) } else { callOff.append(us) }
                    }
                }
            }
            let mode = on.registry.skill(id: id).map { on.sandboxStatus(of: $0).mode } ?? "?"
            rows.append(Row(kind: kind, startOn: Samples(startOn), startOff: Samples(startOff),
                            callOn: Samples(callOn), callOff: Samples(callOff), mode: mode, apply: Samples(apply)))
        }
        return rows
    }

    static func section(_ rows: [Row], config: Config) -> String {
        var out = Report.table(["skill", "sandbox", "start p50 (ms)", "start p90", "call p50 (µs)", "call p99"],
                               rows.flatMap { r in [
                                   [r.kind, "on (\(r.mode))", fmt(r.startOn.median), fmt(r.startOn.percentile(90)), fmt(r.callOn.median), fmt(r.callOn.percentile(99))],
                                   [r.kind, "off", fmt(r.startOff.median), fmt(r.startOff.percentile(90)), fmt(r.callOff.median), fmt(r.callOff.percentile(99))],
                               ] })
        for r in rows {
            out += "\n    \(r.kind): the worker spends p50 \(fmt(r.apply.median / 1000)) ms (p90 \(fmt(r.apply.percentile(90) / 1000))) applying the sandbox (its hello's applyMicros)"
        }
        out += "\n    start: first call after shutdown (spawn, sandbox, load, hello, call), \(config.startRounds) rounds alternating on/off;"
        out += "\n    call: \(config.calls) calls per host in \(config.blocks) interleaved blocks, after \(config.warmup) warm-up calls each."
        return out
    }

    static func goals(_ rows: [Row]) -> [Report.Goal] {
        rows.flatMap { r -> [Report.Goal] in
            let startDelta = r.startOn.median - r.startOff.median
            let callDelta = (r.callOn.median - r.callOff.median) / r.callOff.median * 100
            let applyMs = r.apply.median / 1000
            return [
                Report.Goal(text: "\(r.kind): the sandbox adds ≤ 2 ms to a worker's start", met: startDelta <= 2,
                            numbers: "whole start p50 \(fmt(r.startOn.median)) ms sandboxed vs \(fmt(r.startOff.median)) ms not: \(startDelta >= 0 ? "+" : "")\(fmt(startDelta)) ms (goal ≤ 2.00); of which applying it in the worker p50 \(fmt(applyMs)) ms"),
                Report.Goal(text: "\(r.kind): the sandbox costs ≤ 3 % per call", met: callDelta <= 3,
                            numbers: "call p50 \(fmt(r.callOn.median)) µs sandboxed vs \(fmt(r.callOff.median)) µs not: \(callDelta >= 0 ? "+" : "")\(fmt(callDelta, 1)) % (goal ≤ 3.0 %)"),
            ]
        }
    }
}
