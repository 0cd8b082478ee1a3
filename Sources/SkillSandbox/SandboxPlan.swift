/// What the host tells a worker to enforce, from its command line (`skillhost-worker serve FILE …`):
///
///     --sandbox                 turn the sandbox on (without it, nothing below is applied)
///     --allow-read PATH         read-only: a file, or a folder and everything below it
///     --allow-write PATH        read-write (create, write, rename, remove; no device nodes, no execute)
///     --allow-connect PORT      TCP connect to PORT on any address (repeatable); none: no network at all
///     --allow-programs          execve and fork (and execute rights on the system folders)
///
/// The host resolves grants to these (placeholders filled in, the skill's data folder and its own
/// file included); the worker adds what any process needs to run (see `SystemPaths`). Unknown flags
/// are ignored, so `ServeOptions` and this parser read the same argument list side by side.
struct SandboxPlan: Equatable {
    var enabled = false
    var read: [String] = []
    var write: [String] = []
    var ports: [UInt16] = []
    var programs = false

    /// Whether the skill has any network: a granted port.
    var network: Bool { !ports.isEmpty }

    init(arguments args: [String]) {
        var i = 0
        func value() -> String? { i + 1 < args.count ? args[i + 1] : nil }
        while i < args.count {
            switch args[i] {
            case "--sandbox": enabled = true; i += 1
            case "--allow-programs": programs = true; i += 1
            case "--allow-read": if let v = value() { read.append(v) }; i += 2
            case "--allow-write": if let v = value() { write.append(v) }; i += 2
            case "--allow-connect": if let v = value(), let p = UInt16(v), p > 0 { ports.append(p) }; i += 2
            default: i += 1
            }
        }
    }
}
