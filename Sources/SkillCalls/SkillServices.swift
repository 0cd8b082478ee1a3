import Glibc
import SkillABI
import SkillWire

/// The one `skh_host` table skills get, on either side of the wire: log, progress, cancellation,
/// context store, time left. What differs between the host's process and a worker is what a log line,
/// a context write and a misuse become (a line on stderr or a frame to the host): `Handlers`, installed
/// once per process before any skill is loaded (`install`).
///   log           → `Handlers.log`
///   progress      → the call's `onProgress`, while it runs
///   is_cancelled  → the call's flag
///   context_get   → the call's view, then `store`; a malloc'ed NUL-terminated copy
///   context_set   → checked JSON (`JSONLimits`), into `store`, then `Handlers.contextSet`
///   free          → free(3): everything handed to a skill is malloc'ed
///   time_left_ms  → the call's deadline
/// The table is allocated once and never freed (skills keep the pointer for good). Every service is
/// [any-thread].
public enum SkillServices {
    public struct Handlers: Sendable {
        public var log: @Sendable (_ call: CallSlot?, _ level: Int32, _ message: UnsafePointer<CChar>?) -> Void
        public var misuse: @Sendable (_ call: CallSlot, _ what: CallSlot.Misuse) -> Void
        /// After `store` took the value.
        public var contextSet: @Sendable (_ key: String, _ value: UnsafeBufferPointer<UInt8>) -> Void

        public init(log: @escaping @Sendable (CallSlot?, Int32, UnsafePointer<CChar>?) -> Void,
                    misuse: @escaping @Sendable (CallSlot, CallSlot.Misuse) -> Void,
                    contextSet: @escaping @Sendable (String, UnsafeBufferPointer<UInt8>) -> Void) {
            (self.log, self.misuse, self.contextSet) = (log, misuse, contextSet)
        }
    }

    /// Set by `install`, before any skill code runs; never changed afterwards.
    nonisolated(unsafe) private(set) static var handlers = Handlers(log: { _, _, _ in }, misuse: { _, _ in }, contextSet: { _, _ in })

    /// The context store skills read and write (see `ContextStore`).
    public static let store = ContextStore()

    /// Installs what this process does with log lines, context writes and misuse. Call once, before
    /// the first skill is loaded.
    public static func install(_ h: Handlers) { handlers = h }

    public nonisolated(unsafe) static let table: UnsafePointer<skh_host> = {
        let p = UnsafeMutablePointer<skh_host>.allocate(capacity: 1)
        p.initialize(to: skh_host(
            abi_major: UInt32(SKH_ABI_VERSION_MAJOR), abi_minor: UInt32(SKH_ABI_VERSION_MINOR),
            struct_size: UInt32(MemoryLayout<skh_host>.size), reserved0: 0,
            log: { call, level, message in handlers.log(CallSlot.from(call), level, message) },
            progress: { call, step, total, message in
                guard let slot = CallSlot.from(call), slot.isRunning else { return }
                slot.onProgress?(slot, step, total, message)
            },
            is_cancelled: { call in CallSlot.from(call)?.cancelled.load(ordering: .relaxed) == true ? 1 : 0 },
            context_get: { call, key, outLen in
                guard let key else { return nil }
                let name = String(cString: key)
                guard let value = CallSlot.from(call)?.view?[name] ?? store.get(name) else { return nil }
                let p = malloc(value.count + 1)!.assumingMemoryBound(to: CChar.self)
                value.withUnsafeBytes { if let b = $0.baseAddress { UnsafeMutableRawPointer(p).copyMemory(from: b, byteCount: value.count) } }
                p[value.count] = 0
                outLen?.pointee = value.count
                return p
            },
            context_set: { _, key, json, len in
                guard let key, let json else { return 1 }
                let u = UnsafeBufferPointer(start: UnsafeRawPointer(json).assumingMemoryBound(to: UInt8.self), count: len)
                guard JSONScan.isValid(u) else { return 1 }
                let name = String(cString: key)
                store.set(name, Array(u))
                handlers.contextSet(name, u)
                return 0
            },
            free: { p in Glibc.free(p) },
            time_left_ms: { call in CallSlot.from(call)?.deadline.millisecondsLeft ?? -1 }))
        return UnsafePointer(p)
    }()
}
