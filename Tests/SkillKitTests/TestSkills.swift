import Foundation
import Synchronization
import SkillKit

struct PlainError: Error, CustomStringConvertible {
    var description: String { "plain error from the probe" }
}

/// What `probe.late` observed through its context after its call had completed.
let lateObservations = Mutex<[String: String]>([:])

/// `probe.suspend` waits (suspended, not blocking a thread) until this is true.
let suspendGate = Atomic<Bool>(false)

/// A skill with one intent per behaviour the bridge must handle.
struct ProbeSkill: AgentSkill {
    let id = "dev.skillkit.test.probe"
    let name = "Probe"
    let version = "0.1.0"
    let category = "testing"
    let vendor = "skillkit tests"
    let description = "Exercises the SkillKit bridge."
    let supportedIntents = [
        SkillIntent(name: "probe.ok", description: "Succeeds.", inputSchema: #"{"type":"object"}"#,
                    outputSchema: #"{"type":"object"}"#, flags: [.readOnly, .idempotent],
                    keywords: ["en": ["probe", "ok"], "zh": ["探针"]],
                    examples: [SkillExample(lang: "en", text: "probe it", input: #"{"x":1}"#),
                               SkillExample(lang: "en", text: "bad example", input: "not json")]),
        SkillIntent(name: "probe.unavailable", description: "Throws SkillError.unavailable.",
                    inputSchema: #"{"type":"object"}"#, flags: [.destructive], surfaces: [.human, .agent],
                    priority: 7, confidence: 0.25),
        SkillIntent(name: "probe.throw", description: "Throws a plain error.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "probe.decode", description: "Decodes {title, count}.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "probe.context", description: "Returns its context.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "probe.services", description: "Uses the host services.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "probe.late", description: "Uses services after completing.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "probe.suspend", description: "Suspends until the test opens suspendGate.", inputSchema: #"{"type":"object"}"#),
    ]

    struct DecodeParams: Decodable { let title: String; let count: Int? }

    struct ContextEcho: Encodable {
        let locale: String, timeZone: String, now: Date, caller: String, dataDirectory: String, config: [String: String]
    }

    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        switch input.intent {
        case "probe.ok":
            return try SkillResult(["b": "2", "a": "1"], message: "fine")
        case "probe.unavailable":
            if String(decoding: input.json, as: UTF8.self).contains("details") {
                throw SkillFailure(.unavailable("the probe's server is down"), details: ["retryAfterSeconds": 30])
            }
            throw SkillError.unavailable("the probe's server is down")
        case "probe.throw":
            throw PlainError()
        case "probe.decode":
            let p = try input.decode(DecodeParams.self)
            return try SkillResult(["title": p.title])
        case "probe.context":
            return try SkillResult(ContextEcho(locale: context.locale, timeZone: context.timeZone.identifier,
                                               now: context.now, caller: context.caller,
                                               dataDirectory: context.dataDirectory,
                                               config: try context.config([String: String].self)))
        case "probe.services":
            context.progress(step: 1, total: 2, message: "half way")
            context.log(.info, "probe services log line")
            let stored = context.setContextValue("probe.key", json: Array(#"{"v":42}"#.utf8))
            let read = context.contextValue("probe.key").map { String(decoding: $0, as: UTF8.self) } ?? "nil"
            return try SkillResult(["stored": stored ? "yes" : "no", "read": read,
                                    "cancelled": context.isCancelled ? "yes" : "no",
                                    "missing": context.missingHostServices.joined(separator: ","),
                                    "timeLeft": context.timeLeft.map { "\($0.components.seconds)s" } ?? "nil"])
        case "probe.late":
            let ctx = context
            Task.detached {
                try? await Task.sleep(nanoseconds: 100_000_000)
                ctx.progress(step: 2, total: 2, message: "after completion")
                ctx.log(.info, "probe late log line")
                let observations = [
                    "isCancelled": ctx.isCancelled ? "true" : "false",
                    "contextValue": ctx.contextValue("probe.key") == nil ? "nil" : "value",
                    "setContextValue": ctx.setContextValue("probe.late", json: Array("1".utf8)) ? "true" : "false",
                ]
                lateObservations.withLock { $0 = observations }
            }
            return SkillResult(json: Array("{}".utf8))
        case "probe.suspend":
            while !suspendGate.load(ordering: .acquiring) { try await Task.sleep(nanoseconds: 1_000_000) }
            return try SkillResult(["after": "suspending"])
        default:
            throw SkillError.failed("unexpected intent \(input.intent)")
        }
    }

    func healthCheck(context: SkillContext) async -> SkillHealth {
        .degraded("probe is half awake", latencyMs: 12.5)
    }
}

struct BrokenSetUpError: Error, CustomStringConvertible {
    var description: String { "missing credentials file" }
}

/// Not thread-safe; its setUp throws; its health check reports unavailable without a latency.
struct FragileSkill: AgentSkill {
    let id = "dev.skillkit.test.fragile"
    let name = "Fragile"
    let version = "0.1.0"
    let category = "testing"
    let vendor = "skillkit tests"
    let description = "Fails in setUp."
    let isThreadSafe = false
    let supportedIntents = [SkillIntent(name: "fragile.do", description: "Does it.", inputSchema: #"{"type":"object"}"#)]

    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        SkillResult(json: Array("null".utf8))
    }

    func setUp(context: SkillContext) throws { throw BrokenSetUpError() }

    func healthCheck(context: SkillContext) async -> SkillHealth {
        try? await Task.sleep(nanoseconds: 20_000_000)
        return .unavailable("nothing works")
    }
}

/// Serves `versioned.greet` in versions 1 and 2 (a breaking change shipped the ABI 1.1 way) and cannot
/// work on a host older than ABI 1.1.
struct VersionedSkill: AgentSkill {
    let id = "dev.skillkit.test.versioned"
    let name = "Versioned"
    let version = "2.0.0"
    let category = "testing"
    let vendor = "skillkit tests"
    let description = "Two versions of one intent."
    let requiredHostABIMinor = 1
    let supportedIntents = [
        SkillIntent(name: "versioned.greet", description: "Version 1.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "versioned.greet", description: "Version 2.", inputSchema: #"{"type":"object"}"#, version: 2),
    ]

    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        try SkillResult(["served": input.intent])
    }
}

/// A `SynchronousSkill`: `run` records the thread it ran on and whether it ran inside a task.
struct SyncProbeSkill: SynchronousSkill {
    let id = "dev.skillkit.test.syncprobe"
    let name = "Sync probe"
    let version = "0.1.0"
    let category = "testing"
    let vendor = "skillkit tests"
    let description = "Exercises the bridge's synchronous path."
    let supportedIntents = [
        SkillIntent(name: "sync.where", description: "Returns where run ran.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "sync.decode", description: "Decodes {title}.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "sync.unavailable", description: "Throws SkillError.unavailable.", inputSchema: #"{"type":"object"}"#),
        SkillIntent(name: "sync.throw", description: "Throws a plain error.", inputSchema: #"{"type":"object"}"#),
    ]

    /// The thread `sync.where` ran on (`pthread_self`).
    static let lastThread = Mutex<UInt>(0)

    func run(input: SkillInput, context: SkillContext) throws -> SkillResult {
        switch input.intent {
        case "sync.where":
            Self.lastThread.withLock { $0 = UInt(pthread_self()) }
            return try SkillResult(["inTask": withUnsafeCurrentTask { $0 != nil } ? "yes" : "no", "locale": context.locale],
                                   message: "ran")
        case "sync.decode":
            struct Params: Decodable { let title: String }
            return try SkillResult(["title": input.decode(Params.self).title])
        case "sync.unavailable":
            throw SkillError.unavailable("the sync probe's server is down")
        default:
            throw PlainError()
        }
    }
}
