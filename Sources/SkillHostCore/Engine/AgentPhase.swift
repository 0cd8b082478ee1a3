import Dispatch
import Synchronization

/// Where the engine is with a request (the seed's `AgentPhase`). Phases only move forward:
/// idle → understanding → planning → dispatching/executing (interleaved while steps run in parallel)
/// → collecting → synthesizing → finished | failed.
public enum AgentPhase: Sendable, Equatable {
    case idle
    case understanding
    case planning
    case dispatching(intent: String)
    /// A step runs: `step` of `total` plan steps; `detail` is the skill's latest progress report.
    case executing(skill: String, intent: String, step: Int, total: Int, detail: String?)
    case collecting
    case synthesizing
    case finished
    case failed(reason: String)

    /// Order: a phase never follows one of higher rank.
    var rank: Int {
        switch self {
        case .idle: return 0
        case .understanding: return 1
        case .planning: return 2
        case .dispatching, .executing: return 3
        case .collecting: return 4
        case .synthesizing: return 5
        case .finished, .failed: return 6
        }
    }

    public var name: String {
        switch self {
        case .idle: return "idle"
        case .understanding: return "understanding"
        case .planning: return "planning"
        case .dispatching: return "dispatching"
        case .executing: return "executing"
        case .collecting: return "collecting"
        case .synthesizing: return "synthesizing"
        case .finished: return "finished"
        case .failed: return "failed"
        }
    }

    /// One line for a terminal: "executing calendar.events.list 1/2 (reading 2 calendars)".
    public var line: String {
        switch self {
        case .dispatching(let intent): return "dispatching \(intent)"
        case .executing(_, let intent, let step, let total, let detail):
            return "executing \(intent) \(step)/\(total)" + (detail.map { " (\($0))" } ?? "")
        case .failed(let reason): return "failed: \(reason)"
        case .finished: return "done"
        default: return name
        }
    }

    public var json: JSON {
        var o = JSONObject([("phase", .string(name))])
        switch self {
        case .dispatching(let intent): o["intent"] = .string(intent)
        case .executing(let skill, let intent, let step, let total, let detail):
            o["skill"] = .string(skill); o["intent"] = .string(intent)
            o["step"] = .int(Int64(step)); o["total"] = .int(Int64(total))
            if let detail { o["detail"] = .string(detail) }
        case .failed(let reason): o["reason"] = .string(reason)
        default: break
        }
        return .object(o)
    }
}

/// A phase and when it began, in milliseconds since the request started.
public struct PhaseEvent: Sendable {
    public var phase: AgentPhase
    public var atMs: Double

    public var json: JSON {
        guard case .object(var o) = phase.json else { return phase.json }
        o["atMs"] = .double((atMs * 10).rounded() / 10)
        return .object(o)
    }
}

/// Publishes one request's phases as an `AsyncStream` every surface can observe, and keeps them for the
/// trace. Enforces the order: a phase of lower rank than the last one, or anything after
/// finished/failed, is dropped. Texts from skills in a phase (progress, a failure's reason) are
/// published with the request's known secrets cut out (`secrets`). Thread-safe: steps report from any thread.
final class PhaseChannel: Sendable {
    let stream: AsyncStream<PhaseEvent>
    /// The request's secret texts, learned as its steps are planned and run (`TraceRedaction`).
    let secrets = SecretTexts()
    private let continuation: AsyncStream<PhaseEvent>.Continuation
    private let state = Mutex<(rank: Int, done: Bool, events: [PhaseEvent])>((0, false, []))
    private let started: UInt64

    init() {
        (stream, continuation) = AsyncStream<PhaseEvent>.makeStream(bufferingPolicy: .unbounded)
        started = DispatchTime.now().uptimeNanoseconds
    }

    /// Milliseconds since this request started.
    var elapsedMs: Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6 }

    func emit(_ raw: AgentPhase) {
        let phase = secrets.scrub(raw)
        let event = state.withLock { s -> PhaseEvent? in
            guard !s.done, phase.rank >= s.rank else { return nil }
            s.rank = phase.rank
            if phase.rank == 6 { s.done = true }
            let e = PhaseEvent(phase: phase, atMs: elapsedMs)
            s.events.append(e)
            return e
        }
        guard let event else { return }
        continuation.yield(event)
        if event.phase.rank == 6 { continuation.finish() }
    }

    var events: [PhaseEvent] { state.withLock { $0.events } }
}
