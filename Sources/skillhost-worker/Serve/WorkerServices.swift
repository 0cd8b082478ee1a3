import Glibc
import SkillABI
import SkillWire
import Synchronization

/// The `skh_host` table skills get inside a worker. Each service becomes a frame to the host, or is
/// answered here:
///   log, progress      → `log` / `progress` frames (the host writes them to its log / the caller).
///   is_cancelled       → the call's flag, set by the host's `cancel` frame.
///   context_get / _set → the call's view (sent with the invoke frame), then a worker-local store
///                        (`WorkerContextStore`), see there.
///   free               → free(3); everything handed to the skill is malloc'ed.
///   time_left_ms       → the call's deadline, sent by the host as `deadlineMs` with the invoke frame.
/// Allocated once, never freed (skills keep the pointer for good). Every service is [any-thread].
enum WorkerServices {
    nonisolated(unsafe) static let table: UnsafePointer<skh_host> = {
        let p = UnsafeMutablePointer<skh_host>.allocate(capacity: 1)
        p.initialize(to: skh_host(
            abi_major: UInt32(SKH_ABI_VERSION_MAJOR), abi_minor: UInt32(SKH_ABI_VERSION_MINOR),
            struct_size: UInt32(MemoryLayout<skh_host>.size), reserved0: 0,
            log: { call, level, message in
                var f = Line.frame(.log)
                f.key("id")
                if let c = ServedCall.from(call) { f.number(c.id) } else { f.raw("null") }
                f.key("level"); f.number(level)
                f.key("message"); f.text(message)
                channel.send(f)
            },
            progress: { call, step, total, message in
                guard let c = ServedCall.from(call), !c.isCompleted else { return }
                var f = Line.frame(.progress)
                f.key("id"); f.number(c.id)
                f.key("step"); f.number(step)
                f.key("total"); f.number(total)
                f.key("message"); f.text(message)
                channel.send(f)
            },
            is_cancelled: { call in
                guard let c = ServedCall.from(call) else { return 0 }
                return c.cancelled.load(ordering: .relaxed) ? 1 : 0
            },
            context_get: { call, key, outLen in
                guard let key else { return nil }
                let name = String(cString: key)
                guard let value = ServedCall.from(call)?.view?[name] ?? WorkerContextStore.shared.get(name) else { return nil }
                let p = malloc(value.count + 1)!.assumingMemoryBound(to: CChar.self)
                value.withUnsafeBytes { UnsafeMutableRawPointer(p).copyMemory(from: $0.baseAddress!, byteCount: value.count) }
                p[value.count] = 0
                outLen?.pointee = value.count
                return p
            },
            context_set: { _, key, json, len in
                guard let key, let json else { return 1 }
                let u = UnsafeBufferPointer(start: UnsafeRawPointer(json).assumingMemoryBound(to: UInt8.self), count: len)
                guard JSONScan.isValid(u) else { return 1 }
                let k = String(cString: key)
                WorkerContextStore.shared.set(k, Array(u))
                var f = Line.frame(.contextSet)
                f.key("key"); f.quoted(k)
                f.key("value"); f.rawJSON(u)
                channel.send(f)
                return 0
            },
            free: { p in Glibc.free(p) },
            time_left_ms: { call in ServedCall.from(call)?.deadline.millisecondsLeft ?? -1 }))
        return UnsafePointer(p)
    }()
}

/// The shared context store as a worker sees it: a copy of the host's store, sent by the host with
/// an `invoke` frame whenever the host's store changed since the last call it sent this worker,
/// plus this worker's own writes. A write (`context_set`) is applied here at once and sent to the
/// host, which applies it to its store: other skills see it from their next call, this worker at
/// once. Values are JSON bytes; readers get copies. Thread-safe.
final class WorkerContextStore: Sendable {
    static let shared = WorkerContextStore()
    private let values = Mutex<[String: [UInt8]]>([:])
    func get(_ key: String) -> [UInt8]? { values.withLock { $0[key] } }
    func set(_ key: String, _ value: [UInt8]) { values.withLock { $0[key] = value } }
    /// Replaces the whole store with the host's copy.
    func replace(with snapshot: [String: [UInt8]]) { values.withLock { $0 = snapshot } }
}
