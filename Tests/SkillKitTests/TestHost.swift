import Foundation
import SkillABI
import Synchronization
@testable import SkillKit

/// What the stub host saw: completions, log lines, progress reports, the context store.
struct Completion: Sendable, Equatable {
    let callID: UInt64
    let status: Int32
    let json: String?
    let message: String?
}

final class HostRecorder: Sendable {
    struct State {
        var completions: [Completion] = []
        var logs: [(callID: UInt64?, level: Int32, message: String)] = []
        var progress: [(callID: UInt64, step: UInt32, total: UInt32, message: String?)] = []
        var store: [String: String] = [:]
        var cancelled: Set<UInt64> = []
    }
    let state = Mutex(State())

    func completions(_ callID: UInt64) -> [Completion] {
        state.withLock { $0.completions.filter { $0.callID == callID } }
    }

    /// Waits until `callID` has completed, then a little longer to catch a second completion.
    func waitForCompletion(_ callID: UInt64, timeout: TimeInterval = 10) -> [Completion] {
        let deadline = Date().addingTimeInterval(timeout)
        while completions(callID).isEmpty, Date() < deadline { usleep(1000) }
        usleep(50_000)
        return completions(callID)
    }

    func logs(containing text: String) -> [String] {
        state.withLock { $0.logs.map(\.message).filter { $0.contains(text) } }
    }
}

let recorder = HostRecorder()

/// A host services table backed by `recorder`. `size` lets a test pretend to be an older host that
/// declares a shorter table. Never freed: a skill may keep the pointer for the rest of the process.
func makeHost(size: Int = MemoryLayout<skh_host>.size, minor: UInt32 = UInt32(SKH_ABI_VERSION_MINOR)) -> UnsafePointer<skh_host> {
    var host = skh_host()
    host.abi_major = UInt32(SKH_ABI_VERSION_MAJOR)
    host.abi_minor = minor
    host.struct_size = UInt32(size)
    host.log = { call, level, message in
        let text = message.map { String(cString: $0) } ?? ""
        recorder.state.withLock { $0.logs.append((call?.pointee.call_id, level, text)) }
    }
    host.progress = { call, step, total, message in
        guard let call else { return }
        let text = message.map { String(cString: $0) }
        recorder.state.withLock { $0.progress.append((call.pointee.call_id, step, total, text)) }
    }
    host.is_cancelled = { call in
        guard let call else { return 0 }
        return recorder.state.withLock { $0.cancelled.contains(call.pointee.call_id) } ? 1 : 0
    }
    host.context_get = { _, key, length in
        guard let key, let value = recorder.state.withLock({ $0.store[String(cString: key)] }) else { return nil }
        length?.pointee = value.utf8.count
        return strdup(value)
    }
    host.context_set = { _, key, json, length in
        guard let key, let json else { return 1 }
        let text = String(decoding: UnsafeRawBufferPointer(start: json, count: length), as: UTF8.self)
        recorder.state.withLock { $0.store[String(cString: key)] = text }
        return 0
    }
    host.free = { free($0) }
    host.time_left_ms = { call in call == nil ? -1 : 1500 }
    let pointer = UnsafeMutablePointer<skh_host>.allocate(capacity: 1)
    pointer.initialize(to: host)
    return UnsafePointer(pointer)
}

let sharedHost = SendablePointer(makeHost())

struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafePointer<T>
    init(_ pointer: UnsafePointer<T>) { self.pointer = pointer }
}

private let nextCallID = Atomic<UInt64>(1)

/// Builds a `skh_call` the way a host does, invokes `skill` with it and waits for its completions.
/// `afterInvoke` runs as soon as invoke() has returned, before the wait.
/// The call and its strings are freed only after the completion arrived (the ABI's lifetime rule).
@discardableResult
func invoke(_ skill: UnsafePointer<skh_skill>, intent: String, input: String,
            context: String = #"{"dataDir":"/tmp/skillkit-tests","now":"2025-03-01T09:30:00+08:00"}"#,
            host: UnsafePointer<skh_host> = sharedHost.pointer, callSize: Int = MemoryLayout<skh_call>.size,
            beforeInvoke: (UInt64) -> Void = { _ in },
            afterInvoke: (UInt64) -> Void = { _ in }) -> (id: UInt64, completions: [Completion]) {
    let id = nextCallID.add(1, ordering: .relaxed).oldValue
    let call = UnsafeMutablePointer<skh_call>.allocate(capacity: 1)
    var c = skh_call()
    c.struct_size = UInt32(callSize)
    c.call_id = id
    c.intent = UnsafePointer(strdup(intent))
    c.input_json = UnsafePointer(strdup(input))
    c.input_len = input.utf8.count
    c.context_json = UnsafePointer(strdup(context))
    c.context_len = context.utf8.count
    c.host = host
    c.complete = { call, status, json, length, message in
        let text = json.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) }
        let completion = Completion(callID: call!.pointee.call_id, status: status, json: text,
                                    message: message.map { String(cString: $0) })
        recorder.state.withLock { $0.completions.append(completion) }
    }
    call.initialize(to: c)
    beforeInvoke(id)
    skill.pointee.invoke(call)
    afterInvoke(id)
    let completions = recorder.waitForCompletion(id)
    if !completions.isEmpty {
        free(UnsafeMutablePointer(mutating: c.intent))
        free(UnsafeMutablePointer(mutating: c.input_json))
        free(UnsafeMutablePointer(mutating: c.context_json))
        call.deallocate()
    }
    return (id, completions)
}

/// The exported struct of a skill, typed.
func manifest(_ skill: some AgentSkill) -> UnsafePointer<skh_skill> {
    exportSkill(skill).assumingMemoryBound(to: skh_skill.self)
}

/// The exported struct of a `SynchronousSkill` (exported as one: `exportSkill`'s overload).
func manifest(_ skill: some SynchronousSkill) -> UnsafePointer<skh_skill> {
    exportSkill(skill).assumingMemoryBound(to: skh_skill.self)
}

func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

func jsonObject(_ text: String?) -> [String: Any]? {
    guard let text else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
}
