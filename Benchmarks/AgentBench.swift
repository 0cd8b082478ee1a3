import Dispatch
import Foundation
import SkillHostCore

/// (h) The agent engine: `ask` of one sentence that names two skills, each of which takes `sleepMs`
/// (the C fixtures Tests/Fixtures/agent_alpha.c and agent_beta.c, in worker processes as usual), next to
/// each skill called alone and both called one after the other through `SkillHost.invoke`, in this run.
/// Then the same with instant skills (sleepMs 0): the engine's own cost per request (recognition, plan,
/// two dispatches, synthesis) is the difference between `ask` and the slower single call.
struct AgentBench {
    struct Config {
        var runs = 15
        var sleepMs = 100
    }

    struct Result {
        var sleepMs: Int
        var ask: Samples, alpha: Samples, beta: Samples, sequential: Samples
        var askInstant: Samples, alphaInstant: Samples, betaInstant: Samples
        var failures: Int
    }

    let locations: Locations
    let workspace: Workspace
    let config: Config

    func measure() -> Result {
        let dir = workspace.folder("agent-skills")
        for name in ["agent_alpha", "agent_beta"] {
            let out = dir + "/\(name).so"
            ProcessTimer.mustSucceed(Fixtures.cc, ["-std=c99", "-O2", "-fPIC", "-shared", "-I", locations.abiInclude,
                                                   "-I", locations.sourceRoot + "/Tests/Fixtures", "-o", out,
                                                   locations.sourceRoot + "/Tests/Fixtures/\(name).c"], in: workspace, what: "compiling \(name).c")
            chmod(out, 0o755)
        }
        var failures = 0
        let slow = Session(dir: dir, sleepMs: config.sleepMs, name: "slow", workspace: workspace, locations: locations)
        let instant = Session(dir: dir, sleepMs: 0, name: "instant", workspace: workspace, locations: locations)
        func series(_ n: Int, _ body: () -> Bool) -> Samples {
            _ = body(); _ = body()  // warm: workers started, manifests parsed, code paged in
            var ms: [Double] = []
            for _ in 0..<n {
                let t0 = monotonicNs()
                if !body() { failures += 1 }
                ms.append(Double(monotonicNs() - t0) / 1e6)
            }
            return Samples(ms)
        }
        let n = config.runs
        return Result(
            sleepMs: config.sleepMs,
            ask: series(n) { slow.ask() }, alpha: series(n) { slow.invoke("fixture.alpha.run") },
            beta: series(n) { slow.invoke("fixture.beta.run") },
            sequential: series(n) { slow.invoke("fixture.alpha.run") && slow.invoke("fixture.beta.run") },
            askInstant: series(n * 4) { instant.ask() }, alphaInstant: series(n * 4) { instant.invoke("fixture.alpha.run") },
            betaInstant: series(n * 4) { instant.invoke("fixture.beta.run") },
            failures: failures)
    }

    /// A host over the two fixtures with their sleep configured, and an engine on it (no traces).
    struct Session {
        let host: SkillHost
        let engine: AgentEngine

        init(dir: String, sleepMs: Int, name: String, workspace: Workspace, locations: Locations) {
            let configPath = workspace.root + "/agent-\(name).json"
            let text = #"{"skills":{"test.fixture.alpha":{"sleepMs":\#(sleepMs)},"test.fixture.beta":{"sleepMs":\#(sleepMs)}}}"#
            guard FileManager.default.createFile(atPath: configPath, contents: Data(text.utf8)) else { fail("cannot write \(configPath)") }
            var env = isolatedEnvironment(state: workspace.root + "/state-agent-\(name)", workspace: workspace)
            env["SKILLHOST_WORKER"] = locations.worker
            env["SKILLHOST_CONFIG"] = configPath
            do { host = try SkillHost(HostOptions(skillsDir: dir, environment: env)) } catch { fail("cannot open the host on \(dir): \(error)") }
            engine = AgentEngine(host: host, traces: nil)
        }

        /// "run alpha and beta": both steps must answer.
        func ask() -> Bool {
            let request = AgentRequest(text: "run alpha and beta", source: .script, caller: .automation,
                                       timeZone: host.timeZone, now: Int(time(nil)))
            let r = engine.start(request).wait()
            guard r.status == "answered", r.steps.count == 2 else {
                fail("ask \"run alpha and beta\" did not run both fixtures: \(r.answer)")
            }
            return true
        }

        func invoke(_ intent: String) -> Bool {
            if case .success = host.invokeAndWait(InvokeRequest(intent: intent, input: "{}", caller: .automation)) { return true }
            return false
        }
    }
}
