import Dispatch
import Glibc
import SkillABI
import SkillCalls
import SkillLoading
import SkillSandbox
import SkillWire
import Synchronization

// `skillhost-worker serve FILE --id ID --fd 5 --identity DEV:INO:SIZE:MTIME [--memory-mb N] [--open-files N] [--cpu-seconds N] [--parallel-invokes]`
//   FILE names the skill in messages; what is loaded is descriptor 5, which the host opened and checked
//   (see ServeLoading.swift). Frames from the host arrive on fd 4, frames to it go to fd 3 (two pipes:
//   see `WireProtocol.workerSendFD`); all three are close-on-exec here, so programs a skill starts
//   hold none of them. SIGPIPE is caught by a handler that does nothing (`catchBrokenPipes`).
//
// Threads:
//   main      applies the limits, loads the skill, says hello, then waits forever.
//   reader    (started first) reads frames from the host (the operations are `WireOp`, in SkillWire)
//             and starts each call by running the skill's invoke() itself: the header says invoke()
//             returns promptly, so a call costs no hand-off to another thread. A skill without
//             SKH_SKILL_THREAD_SAFE gets its next call only when the previous one has returned and
//             completed (queued meanwhile; started by the reader, or by a serial queue when the
//             completion comes later from the skill's own thread).
//   watcher   blocks in poll() for the host's end of the request pipe to close (POLLHUP, no data read);
//             then it ends the process at once (`hostGone`), even if skill code holds the reader.
//   health    a serial queue (health is [serialized] with itself, and may block).
// (`CPUBudget` arms the per-call CPU limit at most every 250 ms, not with syscalls on every call.)

/// What the command line says.
struct ServeOptions {
    var file = ""
    var id = ""
    /// The checked skill file the host handed over, and what the scan recorded about it.
    var fd: Int32 = -1
    var identity = ""
    var limits = WorkerLimits()
    /// Run a thread-safe skill's invoke() calls on Dispatch's pool, overlapping (`skillhost validate`).
    var parallelInvokes = false

    init(_ args: [String]) {
        var i = 0
        func int(_ k: Int) -> Int { k < args.count ? Int(args[k]) ?? 0 : 0 }
        while i < args.count {
            switch args[i] {
            case "--id": id = i + 1 < args.count ? args[i + 1] : ""; i += 2
            case "--fd": fd = Int32(int(i + 1)); i += 2
            case "--identity": identity = i + 1 < args.count ? args[i + 1] : ""; i += 2
            case "--memory-mb": limits.memoryMB = int(i + 1); i += 2
            case "--open-files": limits.openFiles = int(i + 1); i += 2
            case "--cpu-seconds": limits.cpuSecondsPerCall = int(i + 1); i += 2
            case "--parallel-invokes": parallelInvokes = true; i += 1
            default:
                if file.isEmpty { file = args[i] }
                i += 1
            }
        }
    }
}

/// The loaded skill, set once by main before hello (the reader waits for `ready` before using it).
nonisolated(unsafe) var servedSkill: UnsafePointer<skh_skill>! = nil
/// Its id, for log lines.
nonisolated(unsafe) var servedSkillID = ""
let ready = DispatchSemaphore(value: 0)
/// Starts a serialized skill's queued call when the previous one completed on the skill's own thread.
let invokeQueueSerial = DispatchQueue(label: "skillhost.worker.invoke")
let healthQueue = DispatchQueue(label: "skillhost.worker.health")
/// invoke() functions currently running (a clean shutdown waits for them).
let invokesRunning = Atomic<Int>(0)
/// Set once by main before hello: see `ServeOptions.parallelInvokes`.
nonisolated(unsafe) var parallelInvokes = false

func runServeMode(_ args: [String]) -> Never {
    let options = ServeOptions(args)
    guard !options.file.isEmpty, !options.id.isEmpty else {
        loadFailed("load_failed", "skillhost-worker serve: FILE and --id ID are required")
    }
    for fd in [WireProtocol.workerSendFD, WireProtocol.workerReceiveFD] {
        guard let id = ChannelIdentity(fd), id.isPipe else {
            let msg = "skillhost-worker serve: file descriptors 3 and 4 must be the host's pipes (started by skillhost, not by hand, or by a skillhost of another build)\n"
            _ = msg.withCString { write(2, $0, strlen($0)) }
            exit(2)
        }
        channelIdentities.append(id)
        // Not for programs a skill starts: a daemon that kept the request pipe open would keep the
        // host writing to a worker that is gone.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    _ = fcntl(options.fd, F_SETFD, FD_CLOEXEC)
    catchBrokenPipes()
    // Before any other thread exists and before the skill's file is loaded (see Sandbox.swift).
    Sandbox.apply(args, file: options.file)
    // The reader first: if the host goes away while the skill loads, this process goes too.
    startDetachedThread(readFrames)
    startDetachedThread(stackSize: 64 * 1024, watchHost)

    parallelInvokes = options.parallelInvokes
    let problems = options.limits.apply()
    CPUBudget.seconds.store(options.limits.cpuSecondsPerCall, ordering: .relaxed)
    FatalNote.install()

    // 1. The skill file: the descriptor the host opened and checked, checked again here (under the
    //    sandbox applied above, whose rules let dlopen open /proc/self/fd/N: the file's path is allowed).
    let file = receiveSkillFile(options)
    // 2. dlopen of /proc/self/fd/N, the entry, ABI negotiation and the id check (SkillLoading).
    _ = WorkerServices.table  // the handlers, before any skill code runs
    let skill = loadSkill(file, options)
    if let initFn = skill.pointee.`init` {
        let rc = initFn(WorkerServices.table)
        if rc != 0 {
            loadFailed("load_failed", "skill \(options.id) (\(options.file)) refused to start: its init returned \(rc)")
        }
    }
    servedSkill = skill
    servedSkillID = options.id
    var hello = Line.frame(.hello)
    hello.key(.protocol, number: WireProtocol.version)
    hello.key(.pid, number: getpid())
    hello.key(.skill); hello.quoted(options.id)
    hello.key(.threadSafe); hello.bool(skill.pointee.flags & UInt32(SKH_SKILL_THREAD_SAFE) != 0)
    hello.key(.hasHealth); hello.bool(skill.pointee.health != nil)
    hello.key(.limitProblems); hello.strings(problems)
    Sandbox.writeHello(&hello)
    channel.send(&hello)
    ready.signal()
    while true { pause() }
}

/// Tells the host why the skill cannot be served, and exits.
func loadFailed(_ kind: StaticString, _ message: String) -> Never {
    var f = Line.frame(.loadFailed)
    f.key(.protocol, number: WireProtocol.version)
    f.key(.pid, number: getpid())
    f.key(.kind); f.raw("\""); f.raw(kind); f.raw("\"")
    f.key(.message); f.quoted(message)
    channel.send(&f)
    exit(WorkerExit.loadFailed)
}

/// The reader thread: frames from the host until end-of-file.
@Sendable func readFrames() {
    var reader = FrameReader()
    var isReady = false
    let fd = WireProtocol.workerReceiveFD
    while true {
        // Straight into read(): a pipe's reader is woken by data only (see `WireProtocol.workerSendFD`);
        // and straight into the reader's buffer (no copy through a chunk).
        let n = reader.receive { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 && (errno == EBADF || errno == EINVAL || errno == EISDIR) { channelTakenAway(fd) }
        if n <= 0 {
            // The end of the request pipe — unless skill code put something else on fd 4 (/dev/null).
            if let replaced = channelReplaced() { channelTakenAway(replaced) }
            hostGone()
        }
        while true {
            // Each frame is handled where it was read (`handle` copies what it keeps).
            let handled: Void?
            do {
                handled = try reader.withNext { frame in
                    if !isReady { ready.wait(); ready.signal(); isReady = true }
                    handle(frame)
                }
            } catch {
                // Not the host's bytes if skill code replaced fd 4 (a file, a socket): its fault, not the host's.
                if let replaced = channelReplaced() { channelTakenAway(replaced) }
                protocolBroken("the host sent \(error)")
            }
            if handled == nil { break }
        }
    }
}

/// The watcher thread: waits (without reading) until the host's end of the request pipe is closed
/// (a hang-up, which poll() reports whatever events are asked for; asking for none, it is not woken
/// by the frames the reader reads).
@Sendable func watchHost() {
    var p = pollfd(fd: WireProtocol.workerReceiveFD, events: 0, revents: 0)
    while true {
        let r = poll(&p, 1, -1)
        if r < 0 && errno == EINTR { continue }
        if r < 0 || p.revents & Int16(POLLHUP | POLLERR) != 0 { break }
        if p.revents & Int16(POLLNVAL) != 0 { channelTakenAway(WireProtocol.workerReceiveFD) }
    }
    hostGone()
}

/// A frame from the host we cannot read means host and worker disagree: say so on stderr and stop.
func protocolBroken(_ why: String) -> Never {
    let msg = "skillhost-worker: \(why); stopping\n"
    _ = msg.withCString { write(2, $0, strlen($0)) }
    _exit(WorkerExit.hostProtocolBroken)
}

func handle(_ frame: UnsafeBufferPointer<UInt8>) {
    guard let f = FrameMembers(frame) else {
        if let replaced = channelReplaced() { channelTakenAway(replaced) }
        protocolBroken("the host sent a frame that is not a JSON object")
    }
    let op = f[.op].flatMap { WireOp(named: frame, $0) }
    let id = UInt64(bitPattern: f.int(.id) ?? 0), intent = f.string(.intent) ?? "", deadlineMs = f.int(.deadlineMs) ?? -1
    let (input, context, store, view) = (f[.input], f[.context], f[.store], f[.view])
    guard let op else { return }  // a newer host's operation: ignored
    switch op {
    case .invoke:
        guard let input, let context, !intent.isEmpty else { protocolBroken("the host sent an invoke frame without intent, input or context") }
        if let store { replaceStore(UnsafeBufferPointer(rebasing: frame[store])) }
        startInvoke(id: id, intent: intent, input: UnsafeBufferPointer(rebasing: frame[input]),
                    context: UnsafeBufferPointer(rebasing: frame[context]), deadline: CallDeadline(millisecondsFromNow: deadlineMs),
                    view: view.map { contextEntries(UnsafeBufferPointer(rebasing: frame[$0])) })
    case .cancel:
        ServedCalls.runningCall(id: id)?.cancelled.store(true, ordering: .relaxed)
    case .health:
        let ctx = context.map { Array(frame[$0]) } ?? Array("{}".utf8)
        startHealth(id: id, context: ctx)
    case .shutdown:
        // Let invoke() functions that are running return (so what they log reaches the host), briefly.
        var waited = 0
        while invokesRunning.load(ordering: .acquiring) > 0 && waited < 200 { usleep(1000); waited += 1 }
        _exit(0)
    case .hello, .loadFailed, .complete, .progress, .log, .contextSet:
        break  // worker → host operations: never sent this way
    }
}

func replaceStore(_ object: UnsafeBufferPointer<UInt8>) {
    SkillServices.store.replace(with: contextEntries(object))
}

/// A JSON object of context-store entries as key → JSON bytes.
func contextEntries(_ object: UnsafeBufferPointer<UInt8>) -> [String: [UInt8]] {
    guard let members = JSONScan.members(object) else { return [:] }
    var entries: [String: [UInt8]] = [:]
    for m in members { entries[m.key(in: object)] = Array(object[m.value]) }
    return entries
}

func startInvoke(id: UInt64, intent: String, input: UnsafeBufferPointer<UInt8>, context: UnsafeBufferPointer<UInt8>,
                 deadline: CallDeadline, view: [String: [UInt8]]?) {
    let skill = servedSkill!
    let call = ServedCalls.start(id: id, intent: intent, input: input, context: context, deadline: deadline, view: view)
    guard skill.pointee.invoke != nil else {
        call.complete(status: SKH_STATUS_FAILED, result: nil, length: 0, message: "the skill has no invoke function")
        return
    }
    if skill.pointee.flags & UInt32(SKH_SKILL_THREAD_SAFE) != 0 {
        if parallelInvokes { DispatchQueue.global().async { run(call) } } else { run(call) }
    } else {
        SerialCalls.submit(call)
    }
}

/// Calls the skill's invoke() for `call` on this thread.
func run(_ call: CallSlot) {
    invokesRunning.add(1, ordering: .acquiringAndReleasing)
    CPUBudget.callStarts()
    servedSkill!.pointee.invoke!(call.call)
    invokesRunning.subtract(1, ordering: .acquiringAndReleasing)
    call.invokeReturned()
}

/// The calls of a skill without SKH_SKILL_THREAD_SAFE: one at a time, in arrival order; the next
/// starts when the previous one has returned from invoke() and completed.
enum SerialCalls {
    private static let state = Mutex<(busy: Bool, queue: [CallSlot], head: Int)>((false, [], 0))

    static func submit(_ call: CallSlot) {
        let now = state.withLock { s -> Bool in
            if s.busy { s.queue.append(call); return false }
            s.busy = true
            return true
        }
        if now { start(call) }
    }

    private static func start(_ call: CallSlot) {
        call.onFinish = { onInvokingThread in
            guard let next = takeNext() else { return }
            // Never start skill code from inside the skill's own complete(): it may hold its locks.
            if onInvokingThread { start(next) } else { invokeQueueSerial.async { start(next) } }
        }
        run(call)
    }

    private static func takeNext() -> CallSlot? {
        state.withLock { s in
            guard s.head < s.queue.count else {
                s.queue.removeAll(keepingCapacity: true)
                s.head = 0
                s.busy = false
                return nil
            }
            defer { s.head += 1 }
            return s.queue[s.head]
        }
    }
}

func startHealth(id: UInt64, context: [UInt8]) {
    healthQueue.async {
        let skill = servedSkill!
        var f = Line.frame(.health)
        f.key(.id, number: id)
        guard let fn = skill.pointee.health else {
            f.key(.status, number: SKH_HEALTH_OK)
            f.key(.declared); f.bool(false)
            f.key(.detail); f.raw("null")
            channel.send(&f)
            return
        }
        var detail: UnsafeMutablePointer<CChar>? = nil
        var text = context
        text.append(0)
        let rc = text.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { fn(WorkerServices.table, $0.baseAddress, &detail) }
        }
        f.key(.status, number: rc)
        f.key(.declared); f.bool(true)
        f.key(.detail)
        if let d = detail {
            let u = UnsafeBufferPointer(start: UnsafeRawPointer(d).assumingMemoryBound(to: UInt8.self), count: strlen(d))
            if JSONScan.isValid(u) { f.rawJSON(u) } else { f.raw("null") }
            skill.pointee.release?(d)
        } else {
            f.raw("null")
        }
        channel.send(&f)
    }
}
