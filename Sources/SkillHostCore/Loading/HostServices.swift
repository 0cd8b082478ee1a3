import FoundationEssentials
import Glibc
import SkillABI
import SkillWire
import Synchronization

/// The `skh_host` table the host hands to every skill: log, progress, cancellation, context store,
/// time left.
/// One table per process, allocated once and never freed (skills keep the pointer for good).
enum HostServices {
    nonisolated(unsafe) static let table: UnsafePointer<skh_host> = {
        let p = UnsafeMutablePointer<skh_host>.allocate(capacity: 1)
        p.initialize(to: skh_host(
            abi_major: UInt32(SKH_ABI_VERSION_MAJOR), abi_minor: UInt32(SKH_ABI_VERSION_MINOR),
            struct_size: UInt32(MemoryLayout<skh_host>.size), reserved0: 0,
            log: { call, level, message in
                let who = CallTicket.from(call)?.skillID ?? "skill"
                let text = message.map { String(cString: $0) } ?? ""
                SkillLog.shared.write(skill: who, level: level, text)
            },
            progress: { call, step, total, message in
                guard let t = CallTicket.from(call), !t.isFinished else { return }
                t.onProgress?(step, total, message.map { String(cString: $0) })
            },
            is_cancelled: { call in
                guard let t = CallTicket.from(call) else { return 0 }
                return t.cancelled.load(ordering: .relaxed) ? 1 : 0
            },
            context_get: { call, key, outLen in
                guard let key else { return nil }
                let name = String(cString: key)
                guard let value = CallTicket.from(call)?.view?[name] ?? ContextStore.shared.get(name) else { return nil }
                let p = UnsafeMutablePointer<CChar>.allocate(capacity: value.count + 1)
                value.withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { p.initialize(from: $0.baseAddress!, count: b.count) } }
                p[value.count] = 0
                outLen?.pointee = value.count
                return p
            },
            context_set: { _, key, json, len in
                guard let key, let json else { return 1 }
                let bytes = json.withMemoryRebound(to: UInt8.self, capacity: len) { Array(UnsafeBufferPointer(start: $0, count: len)) }
                guard (try? JSON.parse(bytes)) != nil else { return 1 }
                ContextStore.shared.set(String(cString: key), bytes)
                return 0
            },
            free: { p in p?.deallocate() },
            time_left_ms: { call in CallTicket.from(call)?.deadline.millisecondsLeft ?? -1 }))
        return UnsafePointer(p)
    }()
}

/// The shared context store skills read and write through the host services. Values are JSON
/// bytes; readers get a copy (a snapshot), never shared mutable state. Skills in worker processes get
/// a copy of the whole store with a call whenever it changed since their last call, and their writes
/// come back through `set` (see `WorkerContextStore` in skillhost-worker). Thread-safe.
final class ContextStore: Sendable {
    static let shared = ContextStore()
    private let values = Mutex<(version: UInt64, map: [String: [UInt8]])>((0, [:]))
    func get(_ key: String) -> [UInt8]? { values.withLock { $0.map[key] } }
    func set(_ key: String, _ value: [UInt8]) {
        values.withLock { v in
            v.map[key] = value
            v.version += 1
        }
    }

    /// The store as one JSON object, with its version, if the version differs from `version`.
    func snapshot(ifNewerThan version: UInt64) -> (UInt64, [UInt8])? {
        values.withLock { v -> (UInt64, [UInt8])? in
            guard v.version != version else { return nil }
            var out: [UInt8] = [UInt8(ascii: "{")]
            for (k, value) in v.map.sorted(by: { $0.key < $1.key }) {
                if out.count > 1 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: JSON.quote(k).utf8)
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: value)
            }
            out.append(UInt8(ascii: "}"))
            return (v.version, out)
        }
    }
}

/// Where skills' log lines go: stderr, prefixed with the skill id, filtered by level
/// (`SKILLHOST_LOG=debug|info|warning|error`, default warning). Never stdout. Thread-safe.
final class SkillLog: Sendable {
    static let shared = SkillLog()
    let minimum: Int32 = {
        switch ProcessInfo.processInfo.environment["SKILLHOST_LOG"] {
        case "debug": return 0
        case "info": return 1
        case "error": return 3
        default: return 2
        }
    }()
    private let lock = Mutex(())

    func write(skill: String, level: Int32, _ text: String) {
        guard level >= minimum else { return }
        let name = ["debug", "info", "warning", "error"][Int(max(0, min(3, level)))]
        let line = "[\(skill)] \(name): \(text)\n"
        lock.withLock { _ in writeStandardError(line) }
    }
}
