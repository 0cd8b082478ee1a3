// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up: SkillABI (the C contract) → SkillKit (SDK linked into Swift skills only) and
// SkillHostCore (the host) → the `skillhost` CLI, the `skillhost-worker` run helper and the
// `skillhost-scan` scan child; SkillWire is the protocol between the host and its children, used by
// both sides; SkillLoading is the one loader (open once, check, dlopen the checked descriptor) that the
// host, the scan child and the worker share; SkillCalls is the one call side of the ABI (call slot, host
// services, context store) of the host's in-process runtime and the worker; SkillSandbox is the sandbox
// of the worker and the scan child.
// Bundled skills under Plugins/ are separate dynamic-library products: the host never links them.

/// For `skillhost-scan` and every Swift module it links: no implicit `import _Concurrency` or
/// `import _StringProcessing`, so the scan process loads only the Swift core library (and Glibc's
/// overlay) and starts in ~3 ms instead of ~7 (a cold `skillhost list` waits for it). These modules use
/// neither concurrency nor regexes; EndToEndTests' ScanBinaryTests checks the binary's NEEDED list.
let coreOnly: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-implicit-concurrency-module-import",
                                              "-Xfrontend", "-disable-implicit-string-processing-module-import"])]
let package = Package(
    name: "skillhost",
    products: [
        .executable(name: "skillhost", targets: ["skillhost"]),
        .executable(name: "skillhost-worker", targets: ["skillhost-worker"]),
        .executable(name: "skillhost-scan", targets: ["skillhost-scan"]),
        .executable(name: "skillhost-bench", targets: ["skillhost-bench"]),
        .library(name: "SkillKit", targets: ["SkillKit"]),
        .library(name: "CalendarSkill", type: .dynamic, targets: ["CalendarSkill"]),
        .library(name: "WeatherSkill", type: .dynamic, targets: ["WeatherSkill"]),
        .library(name: "ReminderSkill", type: .dynamic, targets: ["ReminderSkill"]),
        .library(name: "EchoSkill", type: .dynamic, targets: ["EchoSkill"]),
    ],
    targets: [
        // The C ABI: a header and compile-time layout checks, nothing else.
        .target(name: "SkillABI", path: "Sources/SkillABI"),
        // Fixed-arity wrappers for Landlock, seccomp, prctl and capset (Swift cannot call variadic
        // syscall/prctl). Used by SkillSandbox (the worker's and the scan process's sandbox) and by
        // the host to report what the kernel supports. Not part of the skill ABI.
        .target(name: "SkillSandboxC", path: "Sources/SkillSandboxC"),
        // The Swift runtime's global-enqueue hook, through which a worker's reader thread runs the task
        // a reply resumed (see Sources/SkillHostCore/Support/Async/InlineJobs.swift). Host only.
        .target(name: "SkillAsyncC", path: "Sources/SkillAsyncC"),

        // SDK for skill authors. Linked into skills, never into the host.
        .target(name: "SkillKit", dependencies: ["SkillABI"]),

        // The host ↔ worker protocol (frames, a JSON scanner) shared by both sides. No Foundation.
        .target(name: "SkillWire", swiftSettings: coreOnly),

        // Opening, checking and loading skill files (descriptor and folder checks, ELF checks, dlopen of
        // the checked descriptor, entry, ABI negotiation): the one loader of the host, the scan child
        // and the worker. No Foundation.
        .target(name: "SkillLoading", dependencies: ["SkillABI", "SkillWire"], swiftSettings: coreOnly),
        // Calling a loaded skill (the `skh_call` slot, the `skh_host` services, the context store): the
        // one call side of the host's in-process runtime and the worker. Not linked into the scan child
        // (it calls no skill, and this module needs Synchronization). No Foundation.
        .target(name: "SkillCalls", dependencies: ["SkillABI", "SkillWire"]),
        // The sandbox (namespaces, capabilities, Landlock, seccomp) that the worker and the scan child
        // apply to themselves before they load a skill. No Foundation.
        .target(name: "SkillSandbox", dependencies: ["SkillSandboxC", "SkillWire"], swiftSettings: coreOnly),

        // The host: scanner, loader, registry, invoker.
        .target(name: "SkillHostCore", dependencies: ["SkillABI", "SkillWire", "SkillSandboxC", "SkillAsyncC", "SkillLoading", "SkillCalls"]),
        // The agent surface: MCP (JSON-RPC over stdio) as a thin adapter over the core. No Foundation.
        .target(name: "SkillHostMCP", dependencies: ["SkillHostCore", "SkillWire"]),
        .executableTarget(name: "skillhost", dependencies: ["SkillHostCore", "SkillHostMCP"]),
        // Runs skills in isolated worker processes. No Foundation.
        .executableTarget(name: "skillhost-worker", dependencies: ["SkillABI", "SkillWire", "SkillSandboxC", "SkillLoading", "SkillCalls",
                                                                  "SkillSandbox"]),
        // Reads what skills declare in a sandboxed child process; links only the Swift core library.
        .executableTarget(name: "skillhost-scan", dependencies: ["SkillABI", "SkillWire", "SkillSandboxC", "SkillLoading", "SkillSandbox"],
                          swiftSettings: coreOnly),

        // Bundled skills, each its own .so.
        .target(name: "CalendarSkill", dependencies: ["SkillKit"], path: "Plugins/CalendarSkill/Sources",
                exclude: []),
        .target(name: "WeatherSkill", dependencies: ["SkillKit"], path: "Plugins/WeatherSkill/Sources"),
        .target(name: "ReminderSkill", dependencies: ["SkillKit"], path: "Plugins/ReminderSkill/Sources"),
        .target(name: "EchoSkill", dependencies: ["SkillKit"], path: "Plugins/EchoSkill/Sources"),

        // `make bench`: scan/registration and invoke latency next to baselines measured in the same run.
        .executableTarget(name: "skillhost-bench", dependencies: ["SkillHostCore"], path: "Benchmarks",
                          exclude: ["mcp_floor_server.c", "mcp_bench.py", "mcp_echo_server.py", "instructions.sh"]),

        .testTarget(name: "SkillHostCoreTests", dependencies: ["SkillHostCore"]),
        .testTarget(name: "SkillWireTests", dependencies: ["SkillWire"]),
        .testTarget(name: "SkillLoadingTests", dependencies: ["SkillLoading"]),
        .testTarget(name: "SkillSandboxTests", dependencies: ["SkillSandbox", "SkillSandboxC"]),
        .testTarget(name: "SkillHostMCPTests", dependencies: ["SkillHostMCP", "SkillHostCore"]),
        .testTarget(name: "SkillKitTests", dependencies: ["SkillKit"]),
        // Every skill defines `skillhost_entry`; the test executable links several skills, and never
        // calls that symbol, so the duplicates are allowed there (each .so has exactly one).
        .testTarget(name: "PluginTests", dependencies: ["CalendarSkill", "WeatherSkill", "ReminderSkill"],
                    linkerSettings: [.unsafeFlags(["-Xlinker", "--allow-multiple-definition"])]),
        // Runs the real binaries; WorkerRuntimeTests also open a SkillHost in the test process to make
        // several calls through one host (restarts, concurrency).
        .testTarget(name: "EndToEndTests", dependencies: ["SkillHostCore", "SkillWire", "SkillLoading", "SkillCalls"]),
    ]
)
