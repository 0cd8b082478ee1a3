import Foundation

/// Prints the tables and the goals. Numbers only; every ratio is against a baseline from this run.
enum Report {
    struct Goal {
        var text: String
        var met: Bool
        var numbers: String
    }

    // MARK: - Tables

    /// Left-aligned first `left` columns, right-aligned the rest, two spaces between columns.
    static func table(_ header: [String], _ rows: [[String]], left: Int = 1) -> String {
        let all = [header] + rows
        let widths = header.indices.map { c in all.map { $0[c].count }.max() ?? 0 }
        func line(_ r: [String]) -> String {
            r.indices.map { c in
                let pad = String(repeating: " ", count: widths[c] - r[c].count)
                return c < left ? r[c] + pad : pad + r[c]
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    static func processRow(_ kind: String, _ what: String, _ runs: [ProcessRun]) -> [String] {
        let wall = Samples(runs.map(\.wallMs)), cpu = Samples(runs.map(\.cpuMs))
        let user = Samples(runs.map(\.userMs)), sys = Samples(runs.map(\.sysMs))
        return [kind, what, "\(runs.count)", fmt(wall.median), fmt(wall.min), fmt(wall.max), fmt(cpu.median),
                fmt(user.median), fmt(sys.median)]
    }

    static let processHeader = ["kind", "measurement", "runs", "wall p50", "min", "max", "CPU p50", "user", "sys"]

    static func scanSection(start: (host: [ProcessRun], worker: [ProcessRun]), results: [ScanBench.Result]) -> String {
        var rows: [[String]] = [
            processRow("—", "one process start: skillhost --help", start.host),
            processRow("—", "one process start: skillhost-worker (no files)", start.worker),
        ]
        for r in results {
            let n = r.files
            rows.append(processRow(r.kind, "raw dlopen+dlsym loop, \(n) files (baseline)", r.raw))
            rows.append(processRow(r.kind, "cold: list --json, empty scan cache", r.cold))
            rows.append(processRow(r.kind, "warm: list --json, cache in place", r.warm))
        }
        var out = table(processHeader, rows, left: 2)
        out += "\n(ms; wall = posix_spawn → wait4; CPU = the child's user+sys from wait4, which includes the scan process it reaps)\n"
        let startMs = Samples(start.host.map(\.wallMs)).median
        let workerMs = Samples(start.worker.map(\.wallMs)).median
        let startCPU = Samples(start.host.map(\.cpuMs)).median
        var ratios: [[String]] = []
        for r in results {
            let raw = Samples(r.raw.map(\.wallMs)).median
            let cold = Samples(r.cold.map(\.wallMs)).median
            let warm = Samples(r.warm.map(\.wallMs)).median
            ratios.append([r.kind, "cold / (raw loop + skillhost start)", ratio(cold / (raw + startMs)),
                           "\(fmt(cold)) / (\(fmt(raw)) + \(fmt(startMs)))"])
            ratios.append([r.kind, "cold / (raw loop + worker start)", ratio(cold / (raw + workerMs)),
                           "\(fmt(cold)) / (\(fmt(raw)) + \(fmt(workerMs)))"])
            ratios.append([r.kind, "cold / raw loop", ratio(cold / raw), "\(fmt(cold)) / \(fmt(raw))"])
            ratios.append([r.kind, "warm wall / skillhost start", ratio(warm / startMs), "\(fmt(warm)) / \(fmt(startMs))"])
            let warmCPU = Samples(r.warm.map(\.cpuMs)).median
            ratios.append([r.kind, "warm CPU beyond one start (ms)", fmt(warmCPU - startCPU),
                           "\(fmt(warmCPU)) − \(fmt(startCPU)) (skillhost --help CPU)"])
            ratios.append([r.kind, "per file, cold − start (ms)", fmt((cold - startMs) / Double(r.files), 3),
                           "raw loop per file: \(fmt(raw / Double(r.files), 3))"])
            ratios.append([r.kind, "skills registered (list --json)", "\(r.registered)/\(r.files)", r.problem ?? "all distinct"])
        }
        out += "\n" + table(["kind", "ratio", "value", "medians (ms)"], ratios, left: 2)
        return out
    }

    static func invokeSection(_ results: [InvokeBench.Result], config: InvokeBench.Config) -> String {
        let fdn = results.first { $0.name == "direct, Foundation" }?.samples.median ?? .nan
        let pj = results.first { $0.name == "direct, project JSON" }?.samples.median ?? .nan
        let rows = results.map { r in
            [r.name, fmt(r.samples.median), fmt(r.samples.percentile(99)), fmt(r.samples.mean), fmt(r.samples.min),
             ratio(r.samples.median / fdn), ratio(r.samples.median / pj), "\(r.failures)", r.detail]
        }
        return table(["measurement", "p50 µs", "p99 µs", "mean", "min", "p50 ÷ direct Fdn", "p50 ÷ direct JSON", "failed", "what"],
                     rows, left: 1)
            + "\n(per call, µs; \(config.calls) timed calls after \(config.warmup) warm-up, each call timed alone)"
    }

    // MARK: - Goals

    static func scanGoals(_ results: [ScanBench.Result], start: [ProcessRun]) -> [Goal] {
        let startMs = Samples(start.map(\.wallMs)).median
        var goals: [Goal] = []
        for r in results {
            let complete = r.registered == r.files
            let short = complete ? "" : "; only \(r.registered) of \(r.files) skills registered (\(r.problem ?? "?"))"
            let raw = Samples(r.raw.map(\.wallMs)).median
            let cold = Samples(r.cold.map(\.wallMs)).median
            let limit = 1.5 * (raw + startMs)
            goals.append(Goal(text: "\(r.kind): cold scan of \(r.files) ≤ 1.5 × (raw dlopen loop + one process start)",
                              met: complete && cold <= limit,
                              numbers: "cold \(fmt(cold)) ms vs limit 1.5 × (\(fmt(raw)) + \(fmt(startMs))) = \(fmt(limit)) ms; ratio \(ratio(cold / (raw + startMs))) (goal ≤ 1.50×)" + short))
            let cpu = Samples(r.warm.map(\.cpuMs)).median
            let wall = Samples(r.warm.map(\.wallMs)).median
            goals.append(Goal(text: "\(r.kind): warm `list` of \(r.files) skills < 20 ms process time (CPU)",
                              met: complete && cpu < 20,
                              numbers: "median CPU \(fmt(cpu)) ms (user \(fmt(Samples(r.warm.map(\.userMs)).median)) + sys \(fmt(Samples(r.warm.map(\.sysMs)).median))), wall \(fmt(wall)) ms; \(ratio(cpu / 20)) of the budget" + short))
        }
        return goals
    }

    static func invokeGoals(_ results: [InvokeBench.Result]) -> [Goal] {
        let fdn = results.first { $0.name == "direct, Foundation" }?.samples.median ?? .nan
        return results.filter { $0.name.hasPrefix("invoke") }.map { r in
            let p50 = r.samples.median
            return Goal(text: "in-process \(r.name) p50 ≤ 10 µs",
                        met: r.failures == 0 && p50 <= 10,
                        numbers: "p50 \(fmt(p50)) µs, p99 \(fmt(r.samples.percentile(99))) µs; direct (Foundation) p50 \(fmt(fdn)) µs; ratio \(ratio(p50 / fdn))"
                            + (r.failures == 0 ? "" : "; \(r.failures) calls FAILED"))
        }
    }

    static func goals(_ goals: [Goal]) -> String {
        goals.map { "[\($0.met ? "met" : "NOT met")] \($0.text)\n          \($0.numbers)" }.joined(separator: "\n")
    }
}
