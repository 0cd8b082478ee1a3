// skillhost-bench — `make bench`.
//
//   skillhost-bench [scan] [invoke] [worker] [concurrency] [agent] [recognition] [--count N] [--calls N] [--warmup N] [--worker-calls N] [--crash-rounds N]
//   skillhost-bench loop c|swift|pingpong|pingpong-pipes|c-trusted|swift-trusted|c-trusted-quiet|swift-trusted-quiet [--worker-calls N] [--warmup N]
//       one kind of call of (c) or (b) alone (-quiet: audit log off), printing p50/p99 and CPU per call: for strace -f -c, perf record
//       and valgrind --tool=callgrind --trace-children=yes (then the worker's CPU is not counted).
//
// (a) scan: scan and registration of N (200) copies of a small C skill and of a small Swift skill,
//     as whole `skillhost list --json` processes, cold (empty scan cache) and warm (cache in place),
//     next to a raw dlopen+dlsym loop over the same files and one process start, all in this run.
// (b) invoke: in-process invoke latency through SkillHost.invoke (Swift and C echo skills), next to a
//     direct Swift function doing the same JSON work.
// (c) worker: the same echo intents with the skills NOT trusted (each in a `skillhost-worker serve`
//     process), per-call p50/p99 next to a raw socketpair ping-pong with a C child and next to (b);
//     the memory of each idle worker (RSS, PSS, USS); the time from a crash to the next successful
//     call on the restarted worker, next to a cold worker start and a raw process start.
// (f) concurrency: 1000 calls of 300 ms at once to a thread-safe skill in its worker (time to all
//     completed, peak threads), and a quick call's p50 with 64 slow calls in flight next to idle.
// (g) recognition: the agent engine's recognizer alone over 200 synthetic intents (p50 per request).
// (h) agent: `ask` with two skills that each take 100 ms, next to each alone and both in a row; and the
//     engine's own cost per request with instant skills.
// Prints tables (medians, percentiles, ratios), then each goal with "met" / "NOT met" and its numbers.
// Environment: SKILLHOST_BIN_DIR (release bin dir; default: this executable's folder),
// SKILLHOST_SOURCE_DIR (package root, for the C fixture; default: where this file was compiled), TMPDIR.
import Foundation
import Glibc

// MARK: - Arguments

let usage = "usage: skillhost-bench [scan] [invoke] [worker] [concurrency] [agent] [recognition] [sandbox] [--count N] [--calls N] [--warmup N] [--worker-calls N] [--crash-rounds N]\n"
    + "       skillhost-bench loop c|swift|pingpong|pingpong-pipes|c-trusted|swift-trusted|c-trusted-quiet|swift-trusted-quiet [--worker-calls N] [--warmup N]   (one kind of call alone, for profilers)"
// A ping-pong peer that dies must count as a failed round trip, not end this process (SkillHost
// ignores SIGPIPE too, but `loop pingpong*` opens no host).
signal(SIGPIPE, SIG_IGN)
var loopKind: String?
var sections: Set<String> = []
var scanConfig = ScanBench.Config()
var invokeConfig = InvokeBench.Config()
var workerConfig = WorkerBench.Config()
var agentConfig = AgentBench.Config()
var argv = CommandLine.arguments.dropFirst()
while let a = argv.popFirst() {
    func number() -> Int {
        guard let v = argv.popFirst().flatMap({ Int($0) }), v > 0 else { fail("\(a) needs a positive number") }
        return v
    }
    switch a {
    case "scan", "invoke", "worker", "concurrency", "agent", "recognition", "sandbox": sections.insert(a)
    case "loop": loopKind = argv.popFirst() ?? ""
    case "--count": scanConfig.count = number()
    case "--calls": invokeConfig.calls = number()
    case "--warmup": invokeConfig.warmup = number(); workerConfig.warmup = invokeConfig.warmup
    case "--worker-calls": workerConfig.calls = number()
    case "--crash-rounds": workerConfig.crashRounds = number()
    case "--help", "-h":
        say(usage)
        exit(0)
    default: fail("unknown argument \(a); \(usage)")
    }
}
if sections.isEmpty && loopKind == nil { sections = ["scan", "invoke", "worker", "concurrency", "recognition", "agent", "sandbox"] }
if scanConfig.count > 1000 { fail("--count is at most 1000 (copy ids have three digits)") }

/// One line to stdout, written at once (no stdio buffering: the output may be a pipe while progress
/// goes to a terminal).
func say(_ s: String) { FileHandle.standardOutput.write(Data((s + "\n").utf8)) }

/// Progress on stderr, only for a person watching.
func progress(_ s: String) { if isatty(2) != 0 { FileHandle.standardError.write(Data("· \(s)\n".utf8)) } }

func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
}

// MARK: - Run

let began = monotonicNs()
let locations = Locations.discover()
let workspace = Workspace()

var uts = utsname()
uname(&uts)
let machine = withUnsafeBytes(of: &uts.machine) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
say("skillhost-bench — \(ProcessInfo.processInfo.activeProcessorCount) cores, Linux \(machine), load average \(loadAverage()) at start")
say("binaries: \(locations.binDir)   workspace: \(workspace.root)")

var goals: [Report.Goal] = []
var inProcess: [InvokeBench.Result] = []

if sections.contains("scan") {
    let n = scanConfig.count
    progress("building \(n) C copies and \(n) Swift copies")
    let cDir = workspace.folder("skills-c")
    let swiftDir = workspace.folder("skills-swift")
    let tools = workspace.folder("tools")
    let echoC = Fixtures.buildEchoC(locations, into: tools, workspace: workspace)
    let loop = Fixtures.buildLoop(into: tools, workspace: workspace)
    let cCopies = Fixtures.patchedCopies(of: echoC, id: "test.fixture.echo", count: n, prefix: "c", into: cDir, workspace: workspace)
    let swiftCopies = Fixtures.patchedCopies(of: locations.echoSwiftSkill, id: "dev.skillhost.echo", count: n,
                                             prefix: "libEcho", into: swiftDir, workspace: workspace)

    say("")
    say("(a) scan and registration of \(n) skills, whole processes")
    say("    C: \(n) copies of Tests/Fixtures/echo_c.c (\(fileSize(echoC)) bytes), id \"test.fixture.echo\" at byte \(cCopies.offset) patched to test.fixture.e000…")
    say("    Swift: \(n) copies of libEchoSkill.so (\(fileSize(locations.echoSwiftSkill)) bytes), id \"dev.skillhost.echo\" at byte \(swiftCopies.offset) patched to dev.skillhost.e000…")
    say("    every copy of a kind declares the same intents (distinct ids only), so the registry sees one conflict per intent")

    progress("process start")
    let start = ProcessStartBench(locations: locations, workspace: workspace).measure()
    let bench = ScanBench(locations: locations, workspace: workspace, config: scanConfig, loop: loop)
    progress("C: verify, (cold, raw, start) ×\(scanConfig.coldRuns), warm ×\(scanConfig.warmRuns)")
    let c = bench.measure(kind: "C", dir: cDir, files: cCopies.paths)
    progress("Swift: verify, (cold, raw, start) ×\(scanConfig.coldRuns), warm ×\(scanConfig.warmRuns)")
    let swift = bench.measure(kind: "Swift", dir: swiftDir, files: swiftCopies.paths)
    say("")
    say(Report.scanSection(start: start, results: [c, swift]))
    goals += Report.scanGoals([c, swift])
    // The copies are large (Swift: ~150 MB for 200); free the space before the next section.
    try? FileManager.default.removeItem(atPath: cDir)
    try? FileManager.default.removeItem(atPath: swiftDir)
}

if sections.contains("invoke") {
    progress("invoke: \(invokeConfig.warmup) warm-up + \(invokeConfig.calls) timed calls × 4")
    let results = InvokeBench(locations: locations, workspace: workspace, config: invokeConfig).measure()
    inProcess = results
    say("")
    say("(b) in-process invoke of an echo intent through SkillHost.invoke, input \(InvokeBench.input)")
    say(Report.invokeSection(results, config: invokeConfig))
    goals += Report.invokeGoals(results)
}

if let kind = loopKind {
    let r = WorkerBench(locations: locations, workspace: workspace, config: workerConfig).loop(kind: kind)
    let n = Double(r.samples.count)
    say("loop \(kind): \(r.samples.count) calls, p50 \(fmt(r.samples.median)) µs, p99 \(fmt(r.samples.percentile(99))) µs, failed \(r.failures); "
        + "per call: this process \(fmt(Double(r.host.ns) / 1000 / n)) µs CPU, \(fmt(Double(r.host.switches) / n)) switches; "
        + "child \(r.child.map { "\(fmt(Double($0.ns) / 1000 / n)) µs CPU, \(fmt(Double($0.switches) / n)) switches" } ?? "—")")
}

if sections.contains("worker") {
    progress("worker: \(workerConfig.warmup) warm-up + \(workerConfig.calls) timed calls × 3 (ping-pong, C, Swift); memory; \(workerConfig.crashRounds) crash rounds")
    let r = WorkerBench(locations: locations, workspace: workspace, config: workerConfig).measure()
    say("")
    say("(c) invoke into a WORKER process (skills not trusted) through SkillHost.invoke, input \(InvokeBench.input)")
    say(Report.workerSection(r, inProcess: inProcess, config: workerConfig))
    say("")
    say("(d) memory of one idle worker")
    say(Report.memorySection(r))
    say("")
    say("(e) from a crash to the next successful call on the restarted worker (Tests/Fixtures/segv_invoke.c)")
    say(Report.crashSection(r))
    goals += Report.workerGoals(r, inProcess: inProcess)
}

if sections.contains("concurrency") {
    progress("concurrency: bursts of 1000 calls; quick calls with 64 slow ones in flight")
    let r = ConcurrencyBench(locations: locations, workspace: workspace, config: .init()).measure()
    say("")
    say("(f) many calls in flight through SkillHost.invoke (skills in workers)")
    say(Report.concurrencySection(r))
    goals += Report.concurrencyGoals(r)
}

if sections.contains("recognition") {
    let config = RecognitionBench.Config()
    progress("recognition: \(config.intents) synthetic intents, \(config.rounds) rounds")
    let r = RecognitionBench(config: config).measure()
    say("")
    say("(g) recognition alone (KeywordRecognizer.recognize, in this process) with \(r.intents) registered intents")
    say(RecognitionBench.section(r))
    goals += RecognitionBench.goals(r)
}

if sections.contains("agent") {
    progress("agent engine: ask with two \(agentConfig.sleepMs) ms skills")
    let r = AgentBench(locations: locations, workspace: workspace, config: agentConfig).measure()
    say("")
    say("(h) the agent engine: skillhost ask \"run alpha and beta\" (Tests/Fixtures/agent_alpha.c, agent_beta.c, each in a worker)")
    say(Report.agentSection(r))
    goals += Report.agentGoals(r)
}

if sections.contains("sandbox") {
    let config = SandboxBench.Config()
    progress("sandbox: worker start ×\(config.startRounds) and \(config.calls) calls per host, sandbox on and off")
    let rows = SandboxBench(locations: locations, workspace: workspace, config: config).measure()
    say("")
    say("(i) the worker sandbox (Landlock, seccomp with no sockets, no capabilities, cleared environment) on and off (config \"sandbox\": false)")
    say(SandboxBench.section(rows, config: config))
    goals += SandboxBench.goals(rows)
}

if goals.isEmpty && loopKind != nil { exit(0) }
say("")
say("Goals (load average \(loadAverage()) at the end; whole bench \(fmt(Double(monotonicNs() - began) / 1e9, 1)) s)")
say(Report.goals(goals))

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
}
