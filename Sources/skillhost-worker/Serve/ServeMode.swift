import Dispatch
import Glibc
import SkillABI
import SkillWire
import Synchronization

// `skillhost-worker serve FILE --id ID [--memory-mb N] [--open-files N] [--cpu-seconds N]`
//
// Threads:
//   main      applies the limits, loads the skill, says hello, then waits forever.
//   reader    (started first) reads frames from the host; at end-of-file it ends the process at once
//             (`hostGone`), whatever skill code is doing. It never runs skill code itself.
//   invoke    a serial queue for a skill without SKH_SKILL_THREAD_SAFE (the next invoke starts after
//             the previous one returned and completed), else Dispatch's global queue.
//   health    a serial queue (health is [serialized] with itself).
//
// Frames, host → worker:
//   {"op":"invoke","id":N,"intent":S,"input":{…},"context":{…}[,"store":{key: value…}][,"deadlineMs":N]}
//     (deadlineMs: milliseconds the host will wait, -1 or absent: no deadline; for time_left_ms)
//     [,"view":{key: value…}]  context-store entries this call reads before the shared store
//   {"op":"cancel","id":N}   {"op":"health","id":N,"context":{…}}   {"op":"shutdown"}
// worker → host:
//   {"op":"hello","protocol":1,"pid":N,"skill":S,"threadSafe":B,"hasHealth":B,"limitProblems":[…]}
//   {"op":"load_failed","protocol":1,"pid":N,"kind":K,"message":S}     (then exit 4)
//   {"op":"complete","id":N,"status":N,"message":S|null,"result":JSON|null}  ("resultText":S if not JSON)
//   {"op":"progress","id":N,"step":N,"total":N,"message":S|null}
//   {"op":"log","id":N|null,"level":N,"message":S}   (a second complete() adds "event":"complete_twice","intent":S)
//   {"op":"health","id":N,"status":N,"declared":B,"detail":JSON|null}
//   {"op":"context_set","key":S,"value":JSON}

/// What the command line says.
struct ServeOptions {
    var file = ""
    var id = ""
    var limits = WorkerLimits()

    init(_ args: [String]) {
        var i = 0
        func int(_ k: Int) -> Int { k < args.count ? Int(args[k]) ?? 0 : 0 }
        while i < args.count {
            switch args[i] {
            case "--id": id = i + 1 < args.count ? args[i + 1] : ""; i += 2
            case "--memory-mb": limits.memoryMB = int(i + 1); i += 2
            case "--open-files": limits.openFiles = int(i + 1); i += 2
            case "--cpu-seconds": limits.cpuSecondsPerCall = int(i + 1); i += 2
            default:
                if file.isEmpty { file = args[i] }
                i += 1
            }
        }
    }
}

/// The loaded skill, set once by main before hello (the reader waits for `ready` before using it).
nonisolated(unsafe) var servedSkill: UnsafePointer<skh_skill>! = nil
let ready = DispatchSemaphore(value: 0)
let invokeQueueSerial = DispatchQueue(label: "skillhost.worker.invoke")
let healthQueue = DispatchQueue(label: "skillhost.worker.health")
/// invoke() functions currently running (a clean shutdown waits for them).
let invokesRunning = Atomic<Int>(0)

func runServeMode(_ args: [String]) -> Never {
    let options = ServeOptions(args)
    guard !options.file.isEmpty, !options.id.isEmpty else {
        loadFailed("load_failed", "skillhost-worker serve: FILE and --id ID are required")
    }
    var st = stat()
    guard fstat(WireProtocol.workerFD, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else {
        let msg = "skillhost-worker serve: file descriptor 3 must be the host's socket (started by skillhost, not by hand)\n"
        _ = msg.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    // Before any other thread exists and before the skill's file is loaded (see Sandbox.swift).
    Sandbox.apply(args, file: options.file)
    // The reader first: if the host goes away while the skill loads, this process goes too.
    startDetachedThread(readFrames)

    let problems = options.limits.apply()
    CPUBudget.seconds.store(options.limits.cpuSecondsPerCall, ordering: .relaxed)
    FatalNote.install()

    guard let handle = dlopen(options.file, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
        let why = dlerror().map { String(cString: $0) } ?? "unknown error"
        let limit = options.limits.memoryMB > 0 && why.contains("map")
            ? " (this worker's address space is limited to \(options.limits.memoryMB) MB by workers.memoryLimitMB; raise it)" : ""
        loadFailed("load_failed", "cannot load \"\(options.file)\": \(why)\(limit)")
    }
    guard let sym = dlsym(handle, SKH_ENTRY_SYMBOL) else {
        loadFailed("load_failed", "\"\(options.file)\" does not export \(SKH_ENTRY_SYMBOL)")
    }
    guard let skill = unsafeBitCast(sym, to: skh_entry_fn.self)() else {
        loadFailed("load_failed", "\"\(options.file)\": \(SKH_ENTRY_SYMBOL) returned NULL")
    }
    guard skill.pointee.abi_major == UInt32(SKH_ABI_VERSION_MAJOR) else {
        loadFailed("incompatible", "\"\(options.file)\" is built for ABI \(skill.pointee.abi_major).\(skill.pointee.abi_minor); this worker serves \(SKH_ABI_VERSION_MAJOR).x")
    }
    guard let idp = skill.pointee.id, String(cString: idp) == options.id else {
        loadFailed("incompatible", "\"\(options.file)\" is not the skill the scan recorded (\(options.id))")
    }
    if let initFn = skill.pointee.`init` {
        let rc = initFn(WorkerServices.table)
        if rc != 0 {
            loadFailed("load_failed", "skill \(options.id) (\(options.file)) refused to start: its init returned \(rc)")
        }
    }
    servedSkill = skill
    var hello = Line.frame("hello")
    hello.key("protocol"); hello.number(WireProtocol.version)
    hello.key("pid"); hello.number(getpid())
    hello.key("skill"); hello.quoted(options.id)
    hello.key("threadSafe"); hello.bool(skill.pointee.flags & UInt32(SKH_SKILL_THREAD_SAFE) != 0)
    hello.key("hasHealth"); hello.bool(skill.pointee.health != nil)
    hello.key("limitProblems"); hello.raw("[")
    for (k, p) in problems.enumerated() {
        if k > 0 { hello.raw(",") }
        hello.quoted(p)
    }
    hello.raw("]")
    Sandbox.writeHello(&hello)
    channel.send(hello)
    ready.signal()
    while true { pause() }
}

/// Tells the host why the skill cannot be served, and exits.
func loadFailed(_ kind: StaticString, _ message: String) -> Never {
    var f = Line.frame("load_failed")
    f.key("protocol"); f.number(WireProtocol.version)
    f.key("pid"); f.number(getpid())
    f.key("kind"); f.raw("\""); f.raw(kind); f.raw("\"")
    f.key("message"); f.quoted(message)
    channel.send(f)
    exit(WorkerExit.loadFailed)
}

/// The reader thread: frames from the host until end-of-file.
@Sendable func readFrames() {
    var reader = FrameReader()
    var chunk = [UInt8](repeating: 0, count: 65536)
    var isReady = false
    while true {
        let n = chunk.withUnsafeMutableBytes { read(WireProtocol.workerFD, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 && (errno == EBADF || errno == ENOTSOCK) { channelTakenAway() }
        if n <= 0 { hostGone() }
        chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        while true {
            let frame: [UInt8]?
            do { frame = try reader.next() } catch {
                protocolBroken("the host sent \(error)")
            }
            guard let frame else { break }
            if !isReady { ready.wait(); ready.signal(); isReady = true }
            frame.withUnsafeBufferPointer { handle($0) }
        }
    }
}

/// A frame from the host we cannot read means host and worker disagree: say so on stderr and stop.
func protocolBroken(_ why: String) -> Never {
    let msg = "skillhost-worker: \(why); stopping\n"
    _ = msg.withCString { write(2, $0, strlen($0)) }
    _exit(WorkerExit.hostProtocolBroken)
}

func handle(_ frame: UnsafeBufferPointer<UInt8>) {
    guard let members = JSONScan.members(frame) else { protocolBroken("the host sent a frame that is not a JSON object") }
    var op = "", id: UInt64 = 0, intent = "", deadlineMs: Int64 = -1
    var input: Range<Int>? = nil, context: Range<Int>? = nil, store: Range<Int>? = nil, view: Range<Int>? = nil
    for m in members {
        switch m.key {
        case "op": op = JSONScan.string(frame, m.value) ?? ""
        case "id": id = UInt64(JSONScan.int(frame, m.value) ?? 0)
        case "intent": intent = JSONScan.string(frame, m.value) ?? ""
        case "input": input = m.value
        case "context": context = m.value
        case "store": store = m.value
        case "view": view = m.value
        case "deadlineMs": deadlineMs = Int64(JSONScan.int(frame, m.value) ?? -1)
        default: break
        }
    }
    switch op {
    case "invoke":
        guard let input, let context, !intent.isEmpty else { protocolBroken("the host sent an invoke frame without intent, input or context") }
        if let store { replaceStore(UnsafeBufferPointer(rebasing: frame[store])) }
        startInvoke(id: id, intent: intent, input: UnsafeBufferPointer(rebasing: frame[input]),
                    context: UnsafeBufferPointer(rebasing: frame[context]), deadline: CallDeadline(millisecondsFromNow: deadlineMs),
                    view: view.map { contextEntries(UnsafeBufferPointer(rebasing: frame[$0])) })
    case "cancel":
        ServedCall.running.withLock { $0[id] }?.cancelled.store(true, ordering: .relaxed)
    case "health":
        let ctx = context.map { Array(frame[$0]) } ?? Array("{}".utf8)
        startHealth(id: id, context: ctx)
    case "shutdown":
        // Let invoke() functions that are running return (so what they log reaches the host), briefly.
        var waited = 0
        while invokesRunning.load(ordering: .acquiring) > 0 && waited < 200 { usleep(1000); waited += 1 }
        _exit(0)
    default:
        break  // a newer host's frame this worker does not know: ignored
    }
}

func replaceStore(_ object: UnsafeBufferPointer<UInt8>) {
    WorkerContextStore.shared.replace(with: contextEntries(object))
}

/// A JSON object of context-store entries as key → JSON bytes.
func contextEntries(_ object: UnsafeBufferPointer<UInt8>) -> [String: [UInt8]] {
    guard let members = JSONScan.members(object) else { return [:] }
    var entries: [String: [UInt8]] = [:]
    for m in members { entries[m.key] = Array(object[m.value]) }
    return entries
}

func startInvoke(id: UInt64, intent: String, input: UnsafeBufferPointer<UInt8>, context: UnsafeBufferPointer<UInt8>,
                 deadline: CallDeadline, view: [String: [UInt8]]?) {
    let skill = servedSkill!
    let call = ServedCall(id: id, intent: intent, input: input, context: context, deadline: deadline, view: view, host: WorkerServices.table)
    guard let invoke = skill.pointee.invoke else {
        call.complete(status: SKH_STATUS_FAILED, result: nil, length: 0, message: "the skill has no invoke function")
        return
    }
    let serialized = skill.pointee.flags & UInt32(SKH_SKILL_THREAD_SAFE) == 0
    let pointer = SendablePointer(call.call)
    let run: @Sendable () -> Void = {
        invokesRunning.add(1, ordering: .acquiringAndReleasing)
        CPUBudget.callStarts()
        invoke(pointer.p)
        invokesRunning.subtract(1, ordering: .acquiringAndReleasing)
    }
    if serialized {
        invokeQueueSerial.async {
            run()
            call.finished.wait()
        }
    } else {
        DispatchQueue.global().async(execute: run)
    }
}

func startHealth(id: UInt64, context: [UInt8]) {
    healthQueue.async {
        let skill = servedSkill!
        var f = Line.frame("health")
        f.key("id"); f.number(id)
        guard let fn = skill.pointee.health else {
            f.key("status"); f.number(SKH_HEALTH_OK)
            f.key("declared"); f.bool(false)
            f.key("detail"); f.raw("null")
            channel.send(f)
            return
        }
        var detail: UnsafeMutablePointer<CChar>? = nil
        var text = context
        text.append(0)
        let rc = text.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { fn(WorkerServices.table, $0.baseAddress, &detail) }
        }
        f.key("status"); f.number(rc)
        f.key("declared"); f.bool(true)
        f.key("detail")
        if let d = detail {
            let u = UnsafeBufferPointer(start: UnsafeRawPointer(d).assumingMemoryBound(to: UInt8.self), count: strlen(d))
            if JSONScan.isValid(u) { f.rawJSON(u) } else { f.raw("null") }
            skill.pointee.release?(d)
        } else {
            f.raw("null")
        }
        channel.send(f)
    }
}

/// A pointer handed to another thread; the object it points into keeps it alive (see ServedCall).
struct SendablePointer: @unchecked Sendable {
    let p: UnsafeMutablePointer<skh_call>
    init(_ p: UnsafeMutablePointer<skh_call>) { self.p = p }
}
