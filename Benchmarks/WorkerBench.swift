import Foundation
import Glibc
import SkillHostCore

/// (c) Skills in worker processes (isolation "process": NOT trusted), called through the real core in
/// this process (`SkillHost.invoke`: input parsed and validated, the call framed over the channel's
/// two pipes to `skillhost-worker serve`, the answer parsed and validated):
///   latency  per call, C echo fixture and Swift EchoSkill, each call timed alone, next to raw
///            ping-pongs with a C child (`PingPong`) with frames of the same sizes, over a socketpair
///            (the issue's baseline) and over two pipes (the channel's own transport). The four are
///            measured in interleaved blocks, so a change in machine load hits all of them alike.
///   memory   of each idle worker (RSS, PSS, USS from /proc/PID/smaps_rollup), found among this
///            process's children by its command line, after its first call and after the timed calls;
///            next to the ping-pong peer (a minimal C process).
///   crash    time from a crash to the next successful call on the restarted worker
///            (Tests/Fixtures/segv_invoke.c: `fixture.segv` dies with SIGSEGV, `fixture.segv.ok`
///            answers), next to a cold start of the same skill's worker (after `shutdown`) and to
///            posix_spawn of the C peer up to its first answer. Rounds interleave crash and cold start.
struct WorkerBench {
    struct Config {
        var calls = 20_000
        var warmup = 1_000
        /// The timed calls of each kind are split into this many interleaved blocks.
        var blocks = 10
        var crashRounds = 9
    }

    struct Latency {
        var name: String
        var detail: String
        /// µs per call.
        var samples: Samples
        var failures: Int
        /// CPU and context switches over all timed calls: this process, and the child that answers
        /// (the worker, or the ping-pong peer); nil where /proc/PID/task could not be read.
        var host = CPUCount.zero
        var child: CPUCount? = .zero
    }

    struct MemoryRow {
        var label: String
        var pid: pid_t
        var memory: ProcMemory?
    }

    /// Request and reply body sizes of one kind of call, and how they were found.
    struct FrameSizes {
        var request: Int
        var reply: Int
        var source: String
        /// read() calls per call in the worker and in this process (from /proc/PID/io), if known.
        var workerReads: Double?
        var hostReads: Double?
    }

    struct Crash {
        var rounds: Int
        /// ms: the crashing call, from invoke to the `crashed` error.
        var crashCall: Samples
        /// ms: from the `crashed` error returned to the next call's success (a new worker).
        var recovery: Samples
        /// ms: crash call started → next success.
        var total: Samples
        /// ms: first call after `shutdown` (worker start, load, hello, call) of the same skill.
        var cold: Samples
        /// Rounds in which the successful call ran on a worker with a new pid.
        var newWorker: Int
        var crashMessage: String
        var problems: [String]
    }

    struct Result {
        /// Over a socketpair: the issue's baseline.
        var pingPong: Latency
        /// Over two pipes: the same transport as the worker channel now.
        var pipePingPong: Latency
        var workers: [Latency]
        var sizes: [String: FrameSizes]
        var memory: [MemoryRow]
        /// ms: first call of each echo skill on a fresh worker (after `shutdown`), per kind.
        var coldEcho: [(String, Samples)]
        /// ms: posix_spawn of the C peer → its first answer.
        var rawStart: Samples
        var crash: Crash
        var hostPID: pid_t
    }

    let locations: Locations
    let workspace: Workspace
    let config: Config

    static let cFile = "echo_c.so"
    static let swiftFile = "libEchoSkill.so"
    static let segvFile = "segv_invoke.so"

    func measure() -> Result {
        let tools = workspace.folder("worker-tools")
        let peer = PingPong.build(into: tools, workspace: workspace)

        // The two echo skills, NOT trusted: each runs in a worker process of its own.
        let dir = workspace.folder("worker-skills")
        do { try FileManager.default.copyItem(atPath: locations.echoSwiftSkill, toPath: dir + "/" + Self.swiftFile) } catch {
            fail("cannot copy \(locations.echoSwiftSkill): \(error.localizedDescription)")
        }
        chmod(dir + "/" + Self.swiftFile, 0o755)
        _ = Fixtures.buildEchoC(locations, into: dir, workspace: workspace)
        let host = openHost(dir: dir, name: "worker", config: "{}")
        for id in ["dev.skillhost.echo", "test.fixture.echo"] where host.registry.skill(id: id)?.isolation != .process {
            fail("\(id) is not registered with isolation \"process\" (a worker); the bench's config must not trust it")
        }
        if !ProcTable.workers().isEmpty {
            fail("this process already has skillhost-worker children before the worker section: \(ProcTable.workers().map { "\($0.pid) \($0.file)" })")
        }

        let cRequest = InvokeRequest(intent: "fixture.echo", input: InvokeBench.input, caller: .automation)
        let swiftRequest = InvokeRequest(intent: "echo.say", input: InvokeBench.input, caller: .automation)

        // First calls (each starts its worker), then each idle worker's memory, found in /proc.
        var memory: [MemoryRow] = []
        for (req, file, label) in [(cRequest, Self.cFile, "C worker (echo_c.c)"), (swiftRequest, Self.swiftFile, "Swift worker (EchoSkill)")] {
            mustEcho(host, req)
            usleep(200_000)  // idle
            guard let pid = ProcTable.worker(serving: file) else {
                fail("no single skillhost-worker child serving \(file) after its first call; children: \(ProcTable.workers().map { "\($0.pid) \($0.file)" })")
            }
            memory.append(MemoryRow(label: "\(label), idle after its first call", pid: pid, memory: ProcMemory.read(pid)))
        }
        let cPID = ProcTable.worker(serving: Self.cFile)!
        let swiftPID = ProcTable.worker(serving: Self.swiftFile)!

        // Warm-up, and the real frame sizes from the counters of the worker (request frames it reads)
        // and of this process (reply frames its reader thread reads).
        let cBody = { () -> Bool in if case .success = host.invokeAndWait(cRequest) { return true } else { return false } }
        let swiftBody = { () -> Bool in if case .success = host.invokeAndWait(swiftRequest) { return true } else { return false } }
        // Timed from one task, as the surfaces call the core (`cBody`/`swiftBody` bridge from a thread).
        let cCall: @Sendable () async -> Bool = { if case .success = await host.invoke(cRequest) { return true } else { return false } }
        let swiftCall: @Sendable () async -> Bool = { if case .success = await host.invoke(swiftRequest) { return true } else { return false } }
        var sizes: [String: FrameSizes] = [:]
        sizes["C"] = warmAndSize(cBody, worker: cPID, fallback: (request: 330, reply: 90))
        sizes["Swift"] = warmAndSize(swiftBody, worker: swiftPID, fallback: (request: 330, reply: 80))
        let pp = PingPong.Peer(executable: peer, requestBytes: sizes["C"]!.request, replyBytes: sizes["C"]!.reply)
        let pipes = PingPong.Peer(executable: peer, requestBytes: sizes["C"]!.request, replyBytes: sizes["C"]!.reply, transport: .pipes)
        for _ in 0..<config.warmup where !pp.roundTrip() || !pipes.roundTrip() { fail("a ping-pong peer stopped answering during warm-up") }
        usleep(100_000)
        memory.append(MemoryRow(label: "ping-pong peer (minimal C process), baseline", pid: pp.pid, memory: ProcMemory.read(pp.pid)))

        // Timed: interleaved blocks of the two ping-pongs, C worker, Swift worker.
        var ppUs: [Double] = [], pipeUs: [Double] = [], cUs: [Double] = [], swiftUs: [Double] = []
        var ppFail = 0, pipeFail = 0, cFail = 0, swiftFail = 0
        var ppCPU = (host: CPUCount.zero, child: CPUCount?.some(.zero))
        var pipeCPU = ppCPU, cCPU = ppCPU, swiftCPU = ppCPU
        let perBlock = max(1, config.calls / config.blocks)
        for _ in 0..<config.blocks {
            ppFail += Self.timeBlock(perBlock, into: &ppUs, cpu: &ppCPU, child: pp.pid) { pp.roundTrip() }
            pipeFail += Self.timeBlock(perBlock, into: &pipeUs, cpu: &pipeCPU, child: pipes.pid) { pipes.roundTrip() }
            cFail += Self.timeBlock(perBlock, into: &cUs, cpu: &cCPU, child: cPID, async: cCall)
            swiftFail += Self.timeBlock(perBlock, into: &swiftUs, cpu: &swiftCPU, child: swiftPID, async: swiftCall)
        }
        pp.stop()
        pipes.stop()
        let calls = perBlock * config.blocks + config.warmup + 1
        usleep(200_000)
        for (pid, label) in [(cPID, "C worker"), (swiftPID, "Swift worker")] {
            let now = label == "C worker" ? ProcTable.worker(serving: Self.cFile) : ProcTable.worker(serving: Self.swiftFile)
            memory.append(MemoryRow(label: "\(label), idle after \(calls) calls" + (now == pid ? "" : " (NEW pid: the worker was replaced)"),
                                    pid: now ?? pid, memory: now.flatMap(ProcMemory.read)))
        }

        // Cold starts of the echo workers: `shutdown` (a clean stop), then one call.
        var coldC: [Double] = [], coldSwift: [Double] = []
        for _ in 0..<config.crashRounds {
            for (req, kind) in [(cRequest, "C"), (swiftRequest, "Swift")] {
                host.shutdown()
                let t0 = monotonicNs()
                let r = host.invokeAndWait(req)
                let ms = Double(monotonicNs() - t0) / 1e6
                guard case .success = r else { fail("\(req.intent) failed on a fresh worker: \(r)") }
                if kind == "C" { coldC.append(ms) } else { coldSwift.append(ms) }
            }
        }
        host.shutdown()

        var rawStart: [Double] = []
        for _ in 0..<config.crashRounds {
            rawStart.append(PingPong.startAndFirstRoundTrip(executable: peer, requestBytes: sizes["C"]!.request, replyBytes: sizes["C"]!.reply))
        }

        let crash = measureCrash()
        return Result(
            pingPong: Latency(name: "raw socketpair ping-pong", detail: "C child via posix_spawn; one send + one read per side, frames of the C call's sizes",
                              samples: Samples(ppUs), failures: ppFail, host: ppCPU.host, child: ppCPU.child),
            pipePingPong: Latency(name: "raw pipe ping-pong", detail: "the same over two pipes, laid out like a worker's channel (one write + one read per side)",
                                  samples: Samples(pipeUs), failures: pipeFail, host: pipeCPU.host, child: pipeCPU.child),
            workers: [
                Latency(name: "worker fixture.echo", detail: "C skill (echo_c.c) in its worker, via SkillHost.invoke", samples: Samples(cUs), failures: cFail,
                        host: cCPU.host, child: cCPU.child),
                Latency(name: "worker echo.say", detail: "Swift skill (SkillKit) in its worker, via SkillHost.invoke", samples: Samples(swiftUs), failures: swiftFail,
                        host: swiftCPU.host, child: swiftCPU.child),
            ],
            sizes: sizes, memory: memory, coldEcho: [("C", Samples(coldC)), ("Swift", Samples(coldSwift))],
            rawStart: Samples(rawStart), crash: crash, hostPID: getpid())
    }

    // MARK: - One kind alone, for profilers

    /// `skillhost-bench loop KIND`: sets up like `measure`, then runs `config.calls` calls of one kind
    /// only (c = the C echo worker, swift = the Swift echo worker, pingpong = the raw baseline), and
    /// prints p50/p99 and CPU per call. For strace -f -c, perf record and valgrind --tool=callgrind,
    /// which then see nothing but setup and those calls.
    func loop(kind: String) -> Latency {
        let tools = workspace.folder("worker-tools")
        let dir = workspace.folder("worker-skills")
        do { try FileManager.default.copyItem(atPath: locations.echoSwiftSkill, toPath: dir + "/" + Self.swiftFile) } catch {
            fail("cannot copy \(locations.echoSwiftSkill): \(error.localizedDescription)")
        }
        chmod(dir + "/" + Self.swiftFile, 0o755)
        _ = Fixtures.buildEchoC(locations, into: dir, workspace: workspace)
        var samples: [Double] = []
        var cpu = (host: CPUCount.zero, child: CPUCount?.some(.zero))
        var failures = 0
        switch kind {
        case "pingpong", "pingpong-pipes":
            let peer = PingPong.build(into: tools, workspace: workspace)
            let pp = PingPong.Peer(executable: peer, requestBytes: 270, replyBytes: 93, transport: kind == "pingpong" ? .socketpair : .pipes)
            for _ in 0..<config.warmup where !pp.roundTrip() { fail("the ping-pong peer stopped answering") }
            failures = Self.timeBlock(config.calls, into: &samples, cpu: &cpu, child: pp.pid) { pp.roundTrip() }
            pp.stop()
        case "c", "swift", "c-trusted", "swift-trusted", "c-trusted-quiet", "swift-trusted-quiet":
            // -trusted: in-process (the skill is in `trusted`); -quiet: with the audit log off.
            let trusted = kind.contains("-trusted"), quiet = kind.hasSuffix("-quiet")
            let hostConfig = trusted ? #"{"trusted":["dev.skillhost.echo","test.fixture.echo"]"# + (quiet ? #","policy":{"audit":{"enabled":false}}}"# : "}") : "{}"
            let host = openHost(dir: dir, name: "loop", config: hostConfig)
            let req = kind.hasPrefix("c") ? InvokeRequest(intent: "fixture.echo", input: InvokeBench.input, caller: .automation)
                                          : InvokeRequest(intent: "echo.say", input: InvokeBench.input, caller: .automation)
            mustEcho(host, req)
            // Under valgrind --trace-children the worker's command line names valgrind: then no child counts.
            let pid = trusted ? -1 : ProcTable.worker(serving: kind.hasPrefix("c") ? Self.cFile : Self.swiftFile) ?? -1
            let body = { () -> Bool in if case .success = host.invokeAndWait(req) { return true } else { return false } }
            let call: @Sendable () async -> Bool = { if case .success = await host.invoke(req) { return true } else { return false } }
            for _ in 0..<config.warmup where !body() { fail("a warm-up call failed") }
            failures = Self.timeBlock(config.calls, into: &samples, cpu: &cpu, child: pid, async: call)
            host.shutdown()
        default:
            fail("loop KIND: c, swift, pingpong, pingpong-pipes, or c|swift-trusted[-quiet] (in-process, audit log off)")
        }
        return Latency(name: "loop \(kind)", detail: "", samples: Samples(samples), failures: failures, host: cpu.host, child: cpu.child)
    }

    // MARK: - Crash → next success

    func measureCrash() -> Crash {
        let dir = workspace.folder("crash-skills")
        let so = dir + "/" + Self.segvFile
        ProcessTimer.mustSucceed(Fixtures.cc, ["-std=c99", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-I", locations.abiInclude,
                                               "-o", so, locations.sourceRoot + "/Tests/Fixtures/segv_invoke.c"],
                                 in: workspace, what: "compiling segv_invoke.c")
        chmod(so, 0o755)
        // Quarantine would refuse the skill after a few crashes: the threshold is raised out of the way
        // (every other health rule stays at its default).
        let host = openHost(dir: dir, name: "crash", config: #"{"health":{"quarantineAfterCrashes":1000000}}"#)
        let crashReq = InvokeRequest(intent: "fixture.segv", input: "{}", caller: .automation)
        let okReq = InvokeRequest(intent: "fixture.segv.ok", input: "{}", caller: .automation)
        func ok() -> Bool { if case .success = host.invokeAndWait(okReq) { return true } else { return false } }
        if !ok() { fail("fixture.segv.ok failed on its first call: \(host.invokeAndWait(okReq))") }

        var crashCall: [Double] = [], recovery: [Double] = [], total: [Double] = [], cold: [Double] = []
        var newWorker = 0
        var message = ""
        var problems: [String] = []
        for round in 0..<config.crashRounds {
            // The worker is up and has answered (the first call above, or the cold start below).
            let before = ProcTable.worker(serving: Self.segvFile)
            let t0 = monotonicNs()
            let crashed = host.invokeAndWait(crashReq)
            let t1 = monotonicNs()
            let answered = host.invokeAndWait(okReq)
            let t2 = monotonicNs()
            switch crashed {
            case .failure(let e) where e.kind == .crashed:
                if message.isEmpty { message = e.message }
            case .failure(let e): problems.append("round \(round): the crash call failed with \(e.kind.rawValue), not crashed: \(e.message)")
            case .success: problems.append("round \(round): the crash call succeeded")
            }
            if case .failure(let e) = answered { problems.append("round \(round): the call after the crash failed: \(e.kind.rawValue): \(e.message)") }
            let after = ProcTable.worker(serving: Self.segvFile)
            if let before, let after, before != after { newWorker += 1 }
            crashCall.append(Double(t1 - t0) / 1e6)
            recovery.append(Double(t2 - t1) / 1e6)
            total.append(Double(t2 - t0) / 1e6)

            // The baseline, under the same health state: a clean stop, then the first call of a new worker.
            host.shutdown()
            let t3 = monotonicNs()
            let fresh = ok()
            cold.append(Double(monotonicNs() - t3) / 1e6)
            if !fresh { problems.append("round \(round): the first call on a fresh worker failed") }
        }
        host.shutdown()
        return Crash(rounds: config.crashRounds, crashCall: Samples(crashCall), recovery: Samples(recovery), total: Samples(total),
                     cold: Samples(cold), newWorker: newWorker, crashMessage: message, problems: problems)
    }

    // MARK: - Helpers

    /// A host on `dir` with its own state folder and `config` as its config file.
    func openHost(dir: String, name: String, config: String) -> SkillHost {
        var env = isolatedEnvironment(state: workspace.root + "/state-\(name)", workspace: workspace)
        env["SKILLHOST_WORKER"] = locations.worker
        let path = workspace.root + "/\(name)-config.json"
        guard FileManager.default.createFile(atPath: path, contents: Data(config.utf8)) else { fail("cannot write \(path)") }
        env["SKILLHOST_CONFIG"] = path
        do { return try SkillHost(HostOptions(skillsDir: dir, environment: env)) } catch {
            fail("cannot open the host on \(dir): \(error)")
        }
    }

    func mustEcho(_ host: SkillHost, _ req: InvokeRequest) {
        switch host.invokeAndWait(req) {
        case .success(let s) where s.result["text"]?.stringValue == InvokeBench.text: break
        case .success(let s): fail("\(req.intent) answered \(s.result.serialized), expected {\"text\":\"\(InvokeBench.text)\"}")
        case .failure(let e): fail("\(req.intent) failed in its worker: \(e)")
        }
    }

    /// Runs the warm-up calls; over a window of them, reads how many bytes the worker read (request
    /// frames, with their 4-byte headers) and this process read (reply frames) per call.
    func warmAndSize(_ body: () -> Bool, worker: pid_t, fallback: (request: Int, reply: Int)) -> FrameSizes {
        let window = min(500, config.warmup)
        for _ in 0..<(config.warmup - window) where !body() { fail("a warm-up call failed") }
        let w0 = ProcTable.io(worker), h0 = ProcTable.io(getpid())
        var failed = 0
        for _ in 0..<window where !body() { failed += 1 }
        let w1 = ProcTable.io(worker), h1 = ProcTable.io(getpid())
        if failed > 0 { fail("\(failed) warm-up calls failed") }
        guard window > 0, let w0, let w1, let h0, let h1 else {
            return FrameSizes(request: fallback.request, reply: fallback.reply, source: "estimated (/proc/PID/io not readable)")
        }
        let n = Double(window)
        let req = Int((Double(w1.rchar - w0.rchar) / n).rounded()) - 4
        let rep = Int((Double(h1.rchar - h0.rchar) / n).rounded()) - 4
        guard (16...16_384).contains(req), (16...16_384).contains(rep) else {
            return FrameSizes(request: fallback.request, reply: fallback.reply,
                              source: "estimated (/proc/PID/io gave \(req) and \(rep) bytes per call)")
        }
        return FrameSizes(request: req, reply: rep, source: "measured: /proc/PID/io rchar over \(window) calls",
                          workerReads: Double(w1.syscr - w0.syscr) / n, hostReads: Double(h1.syscr - h0.syscr) / n)
    }

    /// `timeBlock` for an async body, all calls from one task (as the surfaces call the core).
    static func timeBlock(_ count: Int, into samples: inout [Double], cpu: inout (host: CPUCount, child: CPUCount?), child: pid_t,
                          async body: @escaping @Sendable () async -> Bool) -> Int {
        let c0 = CPUCount.process(child)
        let h0 = CPUCount.ownProcess()
        let (us, failures) = runBlocking { await InvokeBench.timeCalls(count, body) }
        let h1 = CPUCount.ownProcess()
        let c1 = CPUCount.process(child)
        cpu.host = cpu.host + (h1 - h0)
        if let c0, let c1, let sum = cpu.child { cpu.child = sum + (c1 - c0) } else { cpu.child = nil }
        samples += us
        return failures
    }

    /// Times `count` calls of `body`, each alone; appends µs to `samples`, adds the CPU this process and
    /// `child` used over the block to `cpu`; returns the failures.
    static func timeBlock(_ count: Int, into samples: inout [Double], cpu: inout (host: CPUCount, child: CPUCount?), child: pid_t,
                          _ body: () -> Bool) -> Int {
        let c0 = CPUCount.process(child)
        let h0 = CPUCount.ownProcess()
        defer {
            let h1 = CPUCount.ownProcess()
            let c1 = CPUCount.process(child)
            cpu.host = cpu.host + (h1 - h0)
            if let c0, let c1, let sum = cpu.child { cpu.child = sum + (c1 - c0) } else { cpu.child = nil }
        }
        var failures = 0
        samples.reserveCapacity(samples.count + count)
        for _ in 0..<count {
            let t0 = monotonicNs()
            let ok = body()
            let t1 = monotonicNs()
            samples.append(Double(t1 - t0) / 1000)
            if !ok { failures += 1 }
        }
        return failures
    }
}
