import Dispatch
import Foundation
import SkillHostCore

/// (b) In-process invoke latency through the real core — `SkillHost(...).invoke(...)` in this process:
/// input JSON parsed and validated against the schema, the skill called through the C ABI, its result
/// parsed and validated — next to a direct Swift function in this process that does the work an echo
/// skill does (decode {"text":…}, build the result's JSON bytes). Every call is timed on its own.
struct InvokeBench {
    struct Config {
        var warmup = 1_000
        var calls = 20_000
    }

    struct Result {
        var name: String
        var detail: String
        /// Per call, µs.
        var samples: Samples
        var failures: Int
    }

    static let text = "hello, skillhost"
    static let input = #"{"text":"hello, skillhost"}"#

    let locations: Locations
    let workspace: Workspace
    let config: Config

    func measure() -> [Result] {
        // A skills folder with the Swift echo skill and the C echo fixture, and a host opened on it.
        let dir = workspace.folder("invoke-skills")
        do { try FileManager.default.copyItem(atPath: locations.echoSwiftSkill, toPath: dir + "/libEchoSkill.so") } catch {
            fail("cannot copy \(locations.echoSwiftSkill): \(error.localizedDescription)")
        }
        chmod(dir + "/libEchoSkill.so", 0o755)
        _ = Fixtures.buildEchoC(locations, into: dir, workspace: workspace)
        var env = isolatedEnvironment(state: workspace.root + "/state-invoke", workspace: workspace)
        env["SKILLHOST_WORKER"] = locations.worker
        // Measured in-process: both echo skills are trusted (every other skill would run in a worker).
        let config = workspace.root + "/invoke-config.json"
        guard FileManager.default.createFile(atPath: config, contents: Data(#"{"trusted":["dev.skillhost.echo","test.fixture.echo"]}"#.utf8)) else {
            fail("cannot write \(config)")
        }
        env["SKILLHOST_CONFIG"] = config
        let host: SkillHost
        do { host = try SkillHost(HostOptions(skillsDir: dir, environment: env)) } catch {
            fail("cannot open the host on \(dir): \(error)")
        }
        // The same, with the audit log off: what the audit line (one write to the log per call) costs.
        let quietConfig = workspace.root + "/invoke-config-no-audit.json"
        guard FileManager.default.createFile(atPath: quietConfig, contents: Data(#"{"trusted":["dev.skillhost.echo","test.fixture.echo"],"policy":{"audit":{"enabled":false}}}"#.utf8)) else {
            fail("cannot write \(quietConfig)")
        }
        var quietEnv = isolatedEnvironment(state: workspace.root + "/state-invoke-no-audit", workspace: workspace)
        quietEnv["SKILLHOST_WORKER"] = locations.worker
        quietEnv["SKILLHOST_CONFIG"] = quietConfig
        let quietHost: SkillHost
        do { quietHost = try SkillHost(HostOptions(skillsDir: dir, environment: quietEnv)) } catch {
            fail("cannot open the host without audit on \(dir): \(error)")
        }

        for id in ["dev.skillhost.echo", "test.fixture.echo"] where host.registry.skill(id: id)?.isolation != .inProcess {
            fail("\(id) is not registered in-process; the trusted list in the bench's config did not apply")
        }

        let swiftRequest = InvokeRequest(intent: "echo.say", input: Self.input, caller: .automation)
        let cRequest = InvokeRequest(intent: "fixture.echo", input: Self.input, caller: .automation)
        for req in [swiftRequest, cRequest] {
            switch host.invokeAndWait(req) {
            case .success(let s) where s.result["text"]?.stringValue == Self.text: break
            case .success(let s):
                fail("\(req.intent) answered \(s.result.serialized), expected {\"text\":\"\(Self.text)\"}")
            case .failure(let e):
                fail("\(req.intent) failed: \(e)")
            }
        }

        let inputBytes = Array(Self.input.utf8)
        return [
            timeAsync("invoke echo.say", "Swift skill (SkillKit), via SkillHost.invoke") {
                if case .success = await host.invoke(swiftRequest) { return true } else { return false }
            },
            timeAsync("invoke fixture.echo", "C skill (echo_c.c), via SkillHost.invoke") {
                if case .success = await host.invoke(cRequest) { return true } else { return false }
            },
            timeAsync("invoke fixture.echo, no audit", "the same with the audit log off (policy.audit.enabled false)") {
                if case .success = await quietHost.invoke(cRequest) { return true } else { return false }
            },
            timeAsync("invoke echo.say, no audit", "the same with the audit log off") {
                if case .success = await quietHost.invoke(swiftRequest) { return true } else { return false }
            },
            time("direct, Foundation", "JSONDecoder + JSONEncoder, as EchoSkill does") {
                !DirectEcho.foundation(inputBytes).isEmpty
            },
            time("direct, project JSON", "JSON.parse + JSON.serialized (SkillHostCore)") {
                !DirectEcho.projectJSON(inputBytes).isEmpty
            },
            time("thread hand-off", "Task.detached { signal } + DispatchSemaphore.wait, no work") {
                DirectEcho.handOff()
            },
        ]
    }

    /// `time` for an async body, called from one task (as a surface calls the core: no bridge from a
    /// thread per call).
    func timeAsync(_ name: String, _ detail: String, _ body: @escaping @Sendable () async -> Bool) -> Result {
        let (calls, warmup) = (config.calls, config.warmup)
        let (us, failures) = runBlocking { await Self.timeCalls(calls, warmup: warmup, body) }
        return Result(name: name, detail: detail, samples: Samples(us), failures: failures)
    }

    /// Times `count` calls of `body` after `warmup` untimed ones, each alone: µs per call, failures.
    static func timeCalls(_ count: Int, warmup: Int = 0, _ body: @Sendable () async -> Bool) async -> ([Double], Int) {
        var failures = 0
        for _ in 0..<warmup where !(await body()) { failures += 1 }
        var us = [Double](repeating: 0, count: count)
        for i in 0..<count {
            let t0 = monotonicNs()
            let ok = await body()
            let t1 = monotonicNs()
            us[i] = Double(t1 - t0) / 1000
            if !ok { failures += 1 }
        }
        return (us, failures)
    }

    /// Warms up, then times each of `config.calls` calls of `body` on its own (CLOCK_MONOTONIC, about
    /// 20–30 ns of overhead per reading).
    func time(_ name: String, _ detail: String, _ body: () -> Bool) -> Result {
        var failures = 0
        for _ in 0..<config.warmup where !body() { failures += 1 }
        var us = [Double](repeating: 0, count: config.calls)
        for i in 0..<config.calls {
            let t0 = monotonicNs()
            let ok = body()
            let t1 = monotonicNs()
            us[i] = Double(t1 - t0) / 1000
            if !ok { failures += 1 }
        }
        return Result(name: name, detail: detail, samples: Samples(us), failures: failures)
    }
}

/// What a skill's echo does, as plain Swift functions in this process: the baseline for (b).
enum DirectEcho {
    struct SayInput: Decodable {
        let text: String
        let `repeat`: Int?
    }

    struct SayOutput: Encodable {
        let text: String
    }

    /// The same work as EchoSkill's `echo.say`: a fresh JSONDecoder pass over the input and a fresh
    /// JSONEncoder (sorted keys, unescaped slashes) for the result bytes.
    @inline(never)
    static func foundation(_ input: [UInt8]) -> [UInt8] {
        do {
            let p = try JSONDecoder().decode(SayInput.self, from: Data(input))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Array(try encoder.encode(SayOutput(text: p.text)))
        } catch {
            return []
        }
    }

    /// The hand-off a SkillKit skill makes per call, with no work in it: start a detached task, let it
    /// signal a semaphore, wait for it on this thread (the host's wait for `complete`).
    @inline(never)
    static func handOff() -> Bool {
        let done = DispatchSemaphore(value: 0)
        Task.detached { done.signal() }
        done.wait()
        return true
    }

    /// The same with the host's own JSON: parse, read "text", serialize {"text":…}.
    @inline(never)
    static func projectJSON(_ input: [UInt8]) -> [UInt8] {
        guard let json = try? JSON.parse(input), let text = json["text"]?.stringValue else { return [] }
        return Array(JSON.object(JSONObject([("text", .string(text))])).serialized.utf8)
    }
}
