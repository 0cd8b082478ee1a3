internal import SkillABI
import Dispatch
import Foundation
import Synchronization

/// The bodies of the C entry points (`init`, `invoke`, `health`) for the skill in registry slot `slot`.
/// None of them lets an error or a Swift value cross into C; none traps on any input from the host.
enum Bridge {
    // MARK: init

    /// ABI `init`: stores the host table (first call wins), logs manifest warnings, runs `setUp`.
    /// Returns 0, or 1 if `setUp` threw (the error is logged through the host), the host's ABI major
    /// differs, or the host's minor is older than `requiredHostABIMinor` (a pre-1.1 host does not check
    /// that itself); the log line names the services the host lacks.
    static func initialize(_ slot: Int, _ host: UnsafePointer<skh_host>?) -> Int32 {
        guard let exported = SkillRegistry.exported(slot: slot) else { return 1 }
        let services = host.map(HostServices.init)
        if let host, host.pointee.abi_major != UInt32(SKH_ABI_VERSION_MAJOR) {
            services?.write(nil, .error, "skill \(exported.id) was built for ABI \(SKH_ABI_VERSION_MAJOR).\(SKH_ABI_VERSION_MINOR), the host serves \(host.pointee.abi_major).\(host.pointee.abi_minor)")
            return 1
        }
        if let services, services.abiMinor < exported.skill.requiredHostABIMinor {
            services.write(nil, .error, "skill \(exported.id) needs ABI \(SKH_ABI_VERSION_MAJOR).\(exported.skill.requiredHostABIMinor) or newer, the host serves \(SKH_ABI_VERSION_MAJOR).\(services.abiMinor)"
                           + (services.missing.isEmpty ? "" : " (missing services: \(services.missing.joined(separator: ", ")))") + "; upgrade skillhost")
            return 1
        }
        exported.setHost(services)
        for warning in exported.exportWarnings { services?.write(nil, .warning, warning) }
        do {
            try exported.skill.setUp(context: exported.ambientContext())
            return 0
        } catch {
            services?.write(nil, .error, "skill \(exported.id): setUp failed: \(error)")
            return 1
        }
    }

    // MARK: invoke

    /// ABI `invoke`: finds the intent among the skill's, copies the input out of the call, reads its
    /// context (parsed and copied only when it differs from the last call's), then serves the call: a
    /// `SynchronousSkill`'s `run` right here, on this thread, with no task, completing before invoke()
    /// returns; any other skill's `execute` as a task that starts on this thread (`Task.immediate`):
    /// work that never suspends completes before invoke() returns, with no hand-off to another thread;
    /// at its first suspension the rest continues on the concurrency pool and invoke() returns.
    /// Completes the call exactly once.
    static func invoke(_ slot: Int, _ call: UnsafePointer<skh_call>?) {
        guard let call else { return }
        let view = CallView(call)
        let exported = SkillRegistry.exported(slot: slot)
        let host = view.host.map { pointer in
            exported?.hostServices.flatMap { $0.pointer == pointer ? $0 : nil } ?? HostServices(pointer)
        } ?? exported?.hostServices
        guard let complete = view.complete else {
            host?.write(nil, .error, "invoke: the call has no complete function; it cannot be answered")
            return
        }
        let session = CallSession(host: host, call: call, complete: complete)
        guard let exported else {
            session.complete(status: Int32(SKH_STATUS_FAILED), json: nil, message: "skill not exported")
            return
        }
        guard let intentPointer = view.intent else {
            session.complete(status: Int32(SKH_STATUS_INVALID_INPUT), json: nil, message: "the call names no intent")
            return
        }
        guard let intent = exported.intent(named: intentPointer) else {
            session.complete(status: Int32(SKH_STATUS_INVALID_INPUT), json: nil,
                             message: "skill \(exported.id) has no intent \(SkillJSON.quote(String(cString: intentPointer)))")
            return
        }
        let input = SkillInput(intent: intent, json: CallView.copy(view.inputJSON, view.inputLength) ?? Array("{}".utf8))
        let fields = withEmptyObjectIfAbsent(CallView.borrow(view.contextJSON, view.contextLength)) {
            ContextDecoding.fields(from: $0, skillID: exported.id)
        }
        exported.remember(fields)
        let context = SkillContext(fields: fields, session: session)
        if let synchronous = exported.synchronous {
            do {
                let result = try synchronous.run(input: input, context: context)
                session.complete(status: Int32(SKH_STATUS_OK), json: result.json, message: result.message)
            } catch {
                finish(session, throwing: error)
            }
            return
        }
        Task.immediate {
            do {
                let result = try await exported.skill.execute(input: input, context: context)
                session.complete(status: Int32(SKH_STATUS_OK), json: result.json, message: result.message)
            } catch {
                finish(session, throwing: error)
            }
        }
    }

    /// `body(bytes)`, or `body` of the bytes of `{}` when `bytes` is nil.
    private static func withEmptyObjectIfAbsent<R>(_ bytes: UnsafeRawBufferPointer?, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let bytes { return body(bytes) }
        let empty: StaticString = "{}"
        return body(UnsafeRawBufferPointer(start: empty.utf8Start, count: empty.utf8CodeUnitCount))
    }

    /// Completes a call whose `execute` threw `error`: a `SkillError` with its status, a `SkillFailure`
    /// with its status and details, anything else as failed with its description.
    private static func finish(_ session: CallSession, throwing error: any Error) {
        switch error {
        case let error as SkillError:
            session.complete(status: error.abiStatus, json: nil, message: error.message.isEmpty ? error.kind : error.message)
        case let failure as SkillFailure:
            let error = failure.error
            session.complete(status: error.abiStatus, json: failure.detailsJSON, message: error.message.isEmpty ? error.kind : error.message)
        default:
            session.complete(status: Int32(SKH_STATUS_FAILED), json: nil, message: String(describing: error))
        }
    }

    // MARK: health

    /// ABI `health`: runs `healthCheck` on a detached task and blocks this (host-owned) thread until it
    /// returns. Stores `{"latencyMs":…,"message":…}` (malloc'd, released by `release`) in `*detail`.
    /// Must not be called from a Swift concurrency thread (the header says the host uses its own thread).
    static func health(_ slot: Int, _ host: UnsafePointer<skh_host>?, _ contextJSON: UnsafePointer<CChar>?,
                       _ detail: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        guard let exported = SkillRegistry.exported(slot: slot) else { return Int32(SKH_HEALTH_UNAVAILABLE) }
        if let host, exported.hostServices == nil { exported.setHost(HostServices(host)) }
        let context: SkillContext
        if let contextJSON {
            // The host passes the context a call would get, so the check uses the real configuration.
            let bytes = UnsafeRawBufferPointer(start: contextJSON, count: strlen(contextJSON))
            let fields = ContextDecoding.fields(from: bytes, skillID: exported.id)
            exported.remember(fields)
            context = SkillContext(fields: fields, session: CallSession(host: exported.hostServices))
        } else {
            context = exported.ambientContext()
        }
        let outcome = HealthOutcome()
        let started = DispatchTime.now().uptimeNanoseconds
        Task.detached {
            outcome.finish(await exported.skill.healthCheck(context: context))
        }
        let health = outcome.wait()
        let elapsedMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        if let detail {
            detail.pointee = strdup(detailJSON(health, latencyMs: health.latencyMs ?? elapsedMs))
        }
        switch health.status {
        case .ok: return Int32(SKH_HEALTH_OK)
        case .degraded: return Int32(SKH_HEALTH_DEGRADED)
        case .unavailable: return Int32(SKH_HEALTH_UNAVAILABLE)
        }
    }

    static func detailJSON(_ health: SkillHealth, latencyMs: Double) -> String {
        let rounded = (latencyMs * 1000).rounded() / 1000
        let number = rounded.isFinite ? String(rounded) : "0"
        return "{\"latencyMs\":\(number),\"message\":\(SkillJSON.quote(health.message))}"
    }
}

/// Hands a `SkillHealth` from the task that computed it to the thread waiting for it.
private final class HealthOutcome: Sendable {
    private let value = Mutex<SkillHealth?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ health: SkillHealth) {
        value.withLock { $0 = health }
        done.signal()
    }

    func wait() -> SkillHealth {
        done.wait()
        return value.withLock { $0 } ?? .unavailable("health check produced no result")
    }
}

extension SkillError {
    /// The `SKH_STATUS_*` code this error completes a call with.
    var abiStatus: Int32 {
        switch self {
        case .invalidInput: Int32(SKH_STATUS_INVALID_INPUT)
        case .unavailable: Int32(SKH_STATUS_UNAVAILABLE)
        case .cancelled: Int32(SKH_STATUS_CANCELLED)
        case .failed: Int32(SKH_STATUS_FAILED)
        }
    }
}
