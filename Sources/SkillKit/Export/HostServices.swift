internal import SkillABI

/// The host's `skh_host` services table, read with `struct_size` checks: a service that lies beyond the
/// size the host declared (an older host) is treated as absent. The table is owned by the host and valid
/// for the rest of the process, so this value may be copied and used from any thread.
struct HostServices: @unchecked Sendable {
    typealias LogFn = @convention(c) (UnsafePointer<skh_call>?, Int32, UnsafePointer<CChar>?) -> Void
    typealias ProgressFn = @convention(c) (UnsafePointer<skh_call>?, UInt32, UInt32, UnsafePointer<CChar>?) -> Void
    typealias CancelledFn = @convention(c) (UnsafePointer<skh_call>?) -> Int32
    typealias GetFn = @convention(c) (UnsafePointer<skh_call>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?) -> UnsafeMutablePointer<CChar>?
    typealias SetFn = @convention(c) (UnsafePointer<skh_call>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int) -> Int32
    typealias FreeFn = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias TimeLeftFn = @convention(c) (UnsafePointer<skh_call>?) -> Int64

    let pointer: UnsafePointer<skh_host>
    let log: LogFn?
    let progress: ProgressFn?
    let isCancelled: CancelledFn?
    let contextGet: GetFn?
    let contextSet: SetFn?
    let free: FreeFn?
    /// ABI 1.1.
    let timeLeft: TimeLeftFn?
    /// The host's ABI minor (`skh_host.abi_minor`).
    let abiMinor: UInt32

    init(_ pointer: UnsafePointer<skh_host>) {
        self.pointer = pointer
        let raw = UnsafeRawPointer(pointer)
        let size = Int(raw.load(fromByteOffset: MemoryLayout<skh_host>.offset(of: \.struct_size)!, as: UInt32.self))
        func field<T>(_ offset: Int?, _: T.Type) -> T? {
            guard let offset, offset + MemoryLayout<T>.size <= size else { return nil }
            return raw.load(fromByteOffset: offset, as: T?.self)
        }
        log = field(MemoryLayout<skh_host>.offset(of: \.log), LogFn.self)
        progress = field(MemoryLayout<skh_host>.offset(of: \.progress), ProgressFn.self)
        isCancelled = field(MemoryLayout<skh_host>.offset(of: \.is_cancelled), CancelledFn.self)
        contextGet = field(MemoryLayout<skh_host>.offset(of: \.context_get), GetFn.self)
        contextSet = field(MemoryLayout<skh_host>.offset(of: \.context_set), SetFn.self)
        free = field(MemoryLayout<skh_host>.offset(of: \.free), FreeFn.self)
        timeLeft = field(MemoryLayout<skh_host>.offset(of: \.time_left_ms), TimeLeftFn.self)
        abiMinor = pointer.pointee.abi_minor
    }

    /// The services this SDK knows that the host's table lacks (an older host), by their C names.
    /// Computed when asked (rarely), so the table itself holds no reference: copying it per call
    /// costs no retain or release.
    var missing: [String] {
        [("log", log == nil), ("progress", progress == nil), ("is_cancelled", isCancelled == nil),
         ("context_get", contextGet == nil), ("context_set", contextSet == nil), ("free", free == nil),
         ("time_left_ms", timeLeft == nil)].filter(\.1).map(\.0)
    }

    func write(_ call: UnsafePointer<skh_call>?, _ level: LogLevel, _ message: String) {
        guard let log else { return }
        message.withCString { log(call, level.abiValue, $0) }
    }
}
