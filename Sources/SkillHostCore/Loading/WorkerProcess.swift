import Dispatch
import Glibc
import SkillABI
import SkillCalls
import SkillLoading
import SkillWire
import Synchronization

/// One running `skillhost-worker serve` process for one skill, and the host's side of its channel: two
/// pipes, requests to the worker's fd 4 and replies from its fd 3 (see `WireProtocol.workerSendFD` for
/// why pipes); its stdout and stderr go to one more pipe read here. The worker gets the skill file as
/// fd 5, opened and checked by the host at start (`SkillLoading`).
///
/// Threads (its own POSIX threads, never Dispatch's pool, because they block):
///   reader   polls the reply pipe and the output pipe; routes answers to waiters by id, progress to the
///            caller, logs to the skill log, output to `WorkerOutput`. When the channel ends (or breaks)
///            it finalizes: waits for the exit, fails every pending waiter with the cause, closes the
///            descriptors, and tells the owner (`onEnd`).
///   watcher  waits for the process to end without reaping it (waitid WNOWAIT), kills what is left of
///            its process group (anything the skill forked), reaps it (no zombie) and wakes the reader.
/// Callers (tasks, any thread) send frames under `sendLock` and await `WorkerWaiter`s with their
/// deadline: no thread is held per call in flight; the reader resumes the waiting task. No thread of
/// the host ever blocks writing to the worker: what the request pipe cannot take now waits in
/// `SendState.queued`, and the reader writes it as the worker reads (see `send`). A blocking write
/// could deadlock: the reader thread runs the code of a call it resumes (`InlineJobs`), and a worker
/// whose reader is itself blocked writing to the host (a skill logging more than a pipe holds) would
/// never read it.
///
/// Ownership: a `WorkerRuntime` owns the current process; `LiveWorkers` holds every process that has
/// not ended, so that the host can stop them all when it exits. The descriptors are closed by the
/// finalizer only, under `sendLock`, so no caller ever writes to a closed (or reused) descriptor.
/// Signals are sent to the process group only before the watcher has reaped the worker (`reaped`), so
/// a reused pid is never hit. The reader thread's side is in WorkerProcess+Reader.swift.
final class WorkerProcess: Sendable {
    struct State {
        var ready = false
        var loadError: SkillError?
        var death: WorkerDeath?
        var calls = WaiterTable<RawCompletion>()
        var probes = WaiterTable<WorkerHealthAnswer>()
        var nextID: UInt64 = 1
        var cause: WorkerStopCause?
        var reaped = false
        var exit: (status: Int32, maxRSSKB: Int)?
    }

    /// Guarded by `sendLock`: whether the channel is closed, the context-store version last sent, the
    /// bytes the request pipe could not take yet (from `queuedStart` on; they go before any new frame),
    /// and the buffer frames are assembled in (kept between sends, so a send allocates nothing; one
    /// that a large frame grew beyond `keptFrameCapacity` is dropped after that frame).
    struct SendState {
        var closed = false
        var storeVersion: UInt64 = 0
        var queued: [UInt8] = []
        var queuedStart = 0
        var frame = Line()
        var hasQueued: Bool { queuedStart < queued.count }
    }

    /// The largest frame buffer `SendState.frame` keeps for the next send.
    static let keptFrameCapacity = 64 << 10

    /// Bytes waiting for a worker that does not read beyond which a send fails (its call then ends at
    /// its deadline, which stops the worker).
    static let maxQueuedBytes = 2 * WireProtocol.maxFrameBytes

    let skill: RegisteredSkill
    let settings: WorkerSettings
    let pid: pid_t
    let output: WorkerOutput
    /// The write end of the request pipe (non-blocking; written under `sendLock` only).
    let requests: Int32
    /// The read end of the reply pipe (non-blocking; read by the reader thread only).
    let replies: Int32
    let outputFD: Int32
    /// Wakes the reader's poll: the watcher writes a byte here when the process has ended (and records
    /// the exit first), a sender when it queued bytes for the reader to write (`send`).
    let wake: (read: Int32, write: Int32)
    let state = Mutex(State())
    let sendLock = Mutex(SendState())
    /// Opens at hello, at a load failure, and at the end.
    let readiness = Latch()
    let exitSignal = DispatchSemaphore(value: 0)
    /// Signalled (and passed on) once the finalizer is done.
    let endSignal = DispatchSemaphore(value: 0)
    let onEnd: @Sendable (WorkerProcess, WorkerDeath) -> Void
    /// Where the reader counts what the worker reports beyond completions (shared with the owner).
    let events: WorkerEvents
    /// Lets a reply resume its call on the reader thread (see `InlineJobs`). Reader thread only.
    let inline = InlineSlot()
    /// Where the sandbox the worker reports in its hello is kept, and the plan it was started under.
    let sandboxRecord: SandboxFacts.Record?
    /// The reader thread's stack: a main thread's, because a call resumed inline runs its caller's code there.
    static let readerStackSize = 8 << 20

    private init(skill: RegisteredSkill, settings: WorkerSettings, pid: pid_t, requests: Int32, replies: Int32, outputFD: Int32,
                 wake: (Int32, Int32), events: WorkerEvents, sandboxRecord: SandboxFacts.Record?,
                 onEnd: @escaping @Sendable (WorkerProcess, WorkerDeath) -> Void) {
        self.skill = skill
        self.sandboxRecord = sandboxRecord
        self.events = events
        self.settings = settings
        self.pid = pid
        self.requests = requests
        self.replies = replies
        self.outputFD = outputFD
        self.wake = wake
        self.onEnd = onEnd
        output = WorkerOutput(skillID: skill.id)
    }

    /// Starts a worker for `skill` (it loads the skill and says hello on its own; see `waitReady`).
    /// `sandbox`: how the worker is confined (nil: not at all); its data folder is created first.
    static func start(skill: RegisteredSkill, workerPath: String, settings: WorkerSettings, events: WorkerEvents = WorkerEvents(),
                      sandbox: WorkerSandbox? = nil, reports: SandboxReports? = nil,
                      onEnd: @escaping @Sendable (WorkerProcess, WorkerDeath) -> Void) -> Result<WorkerProcess, SkillError> {
        func failure(_ what: String) -> Result<WorkerProcess, SkillError> {
            .failure(SkillError(.internal, "cannot start a worker process for skill \(skill.id): \(what): \(String(cString: strerror(errno)))", skillID: skill.id))
        }
        if let why = sandbox?.prepare() { return .failure(SkillError(.internal, "cannot start a worker process for skill \(skill.id): \(why)", skillID: skill.id)) }
        // The worker loads the descriptor opened and checked here (its fd 5), never the path.
        let file: CheckedSkillFile
        switch skill.openChecked() {
        case .failure(let e): return .failure(e)
        case .success(let f): file = f
        }
        var pipes: [(read: Int32, write: Int32)] = []  // requests, replies, output, wake
        for _ in 0..<4 {
            guard let p = Descriptors.pipe() else {
                let code = errno
                for p in pipes { close(p.read); close(p.write) }
                errno = code
                return failure("pipe")
            }
            pipes.append(p)
        }
        let (request, reply, out, wake) = (pipes[0], pipes[1], pipes[2], pipes[3])
        var args = ["serve", skill.file.path, "--id", skill.id, "--fd", String(WireProtocol.workerSkillFD), "--identity", file.identity.text]
        if settings.memoryLimitMB > 0 { args += ["--memory-mb", String(settings.memoryLimitMB)] }
        if settings.openFiles > 0 { args += ["--open-files", String(settings.openFiles)] }
        if settings.cpuSecondsPerCall > 0 { args += ["--cpu-seconds", String(settings.cpuSecondsPerCall)] }
        if settings.parallelInvokes { args.append("--parallel-invokes") }
        args += sandbox?.arguments ?? []
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(executable: workerPath, arguments: args, layout: .worker(output: out.write, send: reply.write, receive: request.read),
                                         environment: settings.timeZone.isEmpty ? [:] : ["TZ": settings.timeZone],
                                         base: sandbox?.environment,
                                         passing: [file.fd])
        } catch {
            for p in pipes { close(p.read); close(p.write) }
            return .failure(SkillError(error.kind, "cannot start a worker process for skill \(skill.id): \(error.message)", hint: error.hint, skillID: skill.id))
        }
        for fd in [request.read, reply.write, out.write] { close(fd) }
        for fd in [request.write, reply.read, out.read, wake.read, wake.write] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let w = WorkerProcess(skill: skill, settings: settings, pid: pid, requests: request.write, replies: reply.read, outputFD: out.read,
                              wake: wake, events: events, sandboxRecord: reports.flatMap { r in sandbox.map { SandboxFacts.Record(reports: r, plan: $0.plan) } }, onEnd: onEnd)
        LiveWorkers.add(w)
        // Without its threads nobody would read or reap it; this is as bad as it gets, but stay clean.
        func abandon() -> Result<WorkerProcess, SkillError> {
            let code = errno
            for fd in [request.write, reply.read, out.read, wake.read, wake.write] { close(fd) }
            LiveWorkers.remove(w)
            errno = code
            return failure("pthread_create")
        }
        guard startDetachedThread({ w.watch() }) else {
            _ = kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return abandon()
        }
        guard startDetachedThread(stackSize: readerStackSize, { w.readLoop() }) else {
            _ = kill(-pid, SIGKILL)
            w.exitSignal.wait()  // the watcher reaps it (and has written to `wake` by then)
            return abandon()
        }
        return .success(w)
    }

    // MARK: - Calls

    /// Waits until the worker has loaded its skill (hello). Returns nil when it is ready, else why not:
    /// its load failure, its death, or (deadline passed) a timeout, after which the worker is stopped.
    nonisolated(nonsending) func waitReady(until deadline: DispatchTime, intent: String?) async -> SkillError? {
        _ = await readiness.wait(until: deadline)
        let (ready, loadError, death) = state.withLock { ($0.ready, $0.loadError, $0.death) }
        if let loadError { return loadError }
        if let death { return death.error(skill: skill, intent: intent, settings: settings) }
        if ready { return nil }
        terminate(.deadline(intent: intent ?? "a health check"))
        return SkillError(.timeout, "skill \(skill.id) did not finish loading in its worker process before the deadline; the worker was stopped",
                          hint: "its static initializers or init are slow or stuck; `skillhost inspect \(skill.file.path)` reads it with the scan deadline", skillID: skill.id)
    }

    /// Takes the next request id and lets `insert` file the waiter under it (in `calls` or `probes`),
    /// unless the worker has ended: then the error says why, for `intent`.
    private func register(intent: String?, _ insert: (inout State, UInt64) -> Void) -> Result<UInt64, SkillError> {
        state.withLock { s in
            if let d = s.death { return .failure(d.error(skill: skill, intent: intent, settings: settings)) }
            let id = s.nextID
            s.nextID += 1
            insert(&s, id)
            return .success(id)
        }
    }

    /// Sends one call and waits for its completion until `deadline`. Nil means the deadline passed
    /// (the call is forgotten; a late completion is dropped); the caller decides what happens to the worker.
    ///
    /// Cancelling sends the worker a `cancel` frame (the skill's `is_cancelled` turns true); a skill that
    /// has not completed `Cancellation.graceMs` later gets its worker stopped, and the call ends `cancelled`.
    nonisolated(nonsending) func call(intent: String, input: [UInt8], context: String, deadline: DispatchTime,
              progress: (@Sendable (UInt32, UInt32, String?) -> Void)?,
              cancellation: Cancellation? = nil, view: ContextView? = nil) async -> Result<RawCompletion, SkillError>? {
        let waiter = WorkerWaiter<RawCompletion>(intent: intent, progress: progress, worker: self)
        let id: UInt64
        switch register(intent: intent, { s, id in s.calls.insert(waiter, id: id) }) {
        case .failure(let e): return .failure(e)
        case .success(let i): id = i
        }
        waiter.id = id
        output.callStarted()
        // A send that fails means the worker is going away: the finalizer resolves the waiter with why.
        _ = send(.invoke, withStore: true) { f in
            f.key(.id, number: id)
            f.key(.intent, quoted: intent)
            f.key(.input, rawJSON: input)
            f.key(.context, rawJSON: context)
            f.key(.deadlineMs, number: CallDeadline(deadline).millisecondsLeft)
            if let view {
                f.key(.view); f.raw("{")
                for (i, (k, v)) in view.sorted(by: { $0.key < $1.key }).enumerated() {
                    if i > 0 { f.raw(",") }
                    f.quoted(k)
                    f.raw(":")
                    f.rawJSON(v)
                }
                f.raw("}")
            }
        }
        cancellation?.onCancel(waiter)
        if let outcome = await waiter.wait(until: deadline) { return outcome }
        _ = state.withLock { $0.calls.remove(id) }
        return nil
    }

    /// The call of `waiter` was cancelled: a `cancel` frame tells the worker (the skill's
    /// `is_cancelled` turns true); a skill that has not completed `Cancellation.graceMs` later gets its
    /// worker stopped, and the call ends `cancelled`.
    func cancelled(_ waiter: WorkerWaiter<RawCompletion>) {
        _ = send(.cancel, withStore: false) { $0.key(.id, number: waiter.id) }
        let intent = waiter.intent ?? "a call"
        HostTimers.shared.schedule(afterMs: Cancellation.graceMs) { [self] in
            let stopped = waiter.resolve(.failure(SkillError(
                .cancelled, "\(intent) was cancelled; skill \(skill.id) did not stop within \(Cancellation.graceMs) ms, so its worker was stopped",
                hint: "the next call starts a new worker; a skill should check is_cancelled during long work", skillID: skill.id)))
            if stopped { terminate(.cancelled(intent: intent)) }
        }
    }

    /// Asks the skill's health function, waiting until `deadline`; nil when no answer came in time
    /// (the worker is left running: health is [serialized] and may block, the next probe queues behind).
    nonisolated(nonsending) func health(context: String, deadline: DispatchTime) async -> Result<WorkerHealthAnswer, SkillError>? {
        let waiter = WorkerWaiter<WorkerHealthAnswer>(intent: nil)
        let id: UInt64
        switch register(intent: nil, { s, id in s.probes.insert(waiter, id: id) }) {
        case .failure(let e): return .failure(e)
        case .success(let i): id = i
        }
        _ = send(.health, withStore: false) { f in
            f.key(.id, number: id)
            f.key(.context, rawJSON: context)
        }
        if let outcome = await waiter.wait(until: deadline) { return outcome }
        _ = state.withLock { $0.probes.remove(id) }
        return nil
    }

    /// Sends one `op` frame whose members `members` writes (after the op; the frame is opened and
    /// closed here), with the context store added if it changed since the last frame that carried it.
    /// Writes it — or as much as the request pipe takes now, queueing the rest for the reader thread
    /// (`flushQueued`), which writes it as the worker reads. Never blocks.
    /// The frame is assembled under `sendLock` in the worker's kept buffer (`SendState.frame`), so
    /// `members` runs under that lock: it must only write the line.
    /// False if the channel is closed, the write failed (EPIPE: the worker is gone), or the worker has
    /// left `maxQueuedBytes` unread.
    private func send(_ op: WireOp, withStore: Bool, _ members: (inout Line) -> Void = { _ in }) -> Bool {
        sendLock.withLock { s -> Bool in
            guard !s.closed else { return false }
            var frame = Line()
            swap(&frame, &s.frame)  // the kept buffer, uniquely held while it is written
            defer {
                frame.bytes.removeAll(keepingCapacity: frame.bytes.capacity <= Self.keptFrameCapacity)
                swap(&frame, &s.frame)
            }
            frame.open(op)
            members(&frame)
            if withStore, let (version, store) = SkillServices.store.snapshot(ifNewerThan: s.storeVersion) {
                frame.key(.store); frame.rawJSON(store)
                s.storeVersion = version
            }
            frame.seal()
            if s.hasQueued {
                guard s.queued.count - s.queuedStart + frame.bytes.count <= Self.maxQueuedBytes else { return false }
                s.queued.append(contentsOf: frame.bytes)
                return true
            }
            let written = frame.bytes.withUnsafeBytes { writeAvailable($0) }
            guard let written else { return false }
            if written < frame.bytes.count {
                s.queued = Array(frame.bytes[written...])
                s.queuedStart = 0
                var byte: UInt8 = 2
                _ = write(wake.write, &byte, 1)  // the reader polls for room from now on
            }
            return true
        }
    }

    /// Writes what the request pipe takes now of `bytes`; the count written, or nil on an error other
    /// than a full pipe (SIGPIPE is ignored: see `SkillHost`).
    private func writeAvailable(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var off = 0
        while off < bytes.count {
            let n = write(requests, bytes.baseAddress! + off, bytes.count - off)
            if n > 0 { off += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            return nil
        }
        return off
    }

    /// Whether bytes wait for room in the request pipe (the reader then polls for it).
    var hasQueued: Bool { sendLock.withLock { $0.hasQueued } }

    /// Writes queued bytes while the request pipe takes them (reader thread, when it has room). On an
    /// error the queue is dropped: the worker is gone, and the finalizer tells its callers why.
    func flushQueued() {
        sendLock.withLock { s in
            guard !s.closed, s.hasQueued else { return }
            let written = s.queued.withUnsafeBytes { writeAvailable(UnsafeRawBufferPointer(rebasing: $0[s.queuedStart...])) }
            guard let written else {
                (s.queued, s.queuedStart) = ([], 0)
                return
            }
            s.queuedStart += written
            if !s.hasQueued {
                (s.queued, s.queuedStart) = ([], 0)
            } else if s.queuedStart > 1 << 20 && s.queuedStart > s.queued.count / 2 {
                s.queued.removeFirst(s.queuedStart)  // do not keep a large written prefix around
                s.queuedStart = 0
            }
        }
    }

    // MARK: - Stopping

    /// Stops the worker because of `cause`: SIGTERM to its process group now, SIGKILL after the grace
    /// period if it is still there. Calls still in flight end with an error naming the cause.
    func terminate(_ cause: WorkerStopCause) {
        let sent = state.withLock { s -> Bool in
            guard !s.reaped else { return false }
            if s.cause == nil { s.cause = cause }
            _ = kill(-pid, SIGTERM)
            return true
        }
        guard sent else { return }
        HostTimers.shared.schedule(afterMs: settings.killGraceMs) { [self] in signalGroup(SIGKILL) }
    }

    /// Sends `sig` to the worker's process group, unless the worker has been reaped.
    func signalGroup(_ sig: Int32) {
        state.withLock { s in if !s.reaped { _ = kill(-pid, sig) } }
    }

    /// Asks the worker to exit (a `shutdown` frame: it lets running invoke() functions return, briefly).
    func beginStop() {
        state.withLock { s in if s.cause == nil { s.cause = .shutdown } }
        _ = send(.shutdown, withStore: false)
    }

    /// Waits until the finalizer is done; false if `deadline` passed first.
    func awaitEnd(until deadline: DispatchTime) -> Bool {
        guard endSignal.wait(timeout: deadline) == .success else { return false }
        endSignal.signal()
        return true
    }

    /// A clean stop: `beginStop`, then SIGKILL if it has not ended after `grace`. Returns when it has ended.
    func stop(grace: DispatchTimeInterval) {
        beginStop()
        if !awaitEnd(until: .now() + grace) {
            signalGroup(SIGKILL)
            _ = awaitEnd(until: .now() + .seconds(2))
        }
    }

    var hasEnded: Bool { state.withLock { $0.death != nil } }

    /// Loaded (hello received) and not ended: what `waitReady` would answer at once with no error.
    var isReady: Bool { state.withLock { $0.ready && $0.death == nil && $0.loadError == nil } }

    // MARK: - Watcher thread

    private func watch() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        // The worker is a zombie now: its pid (= its process group id) cannot be reused yet.
        state.withLock { s in
            _ = kill(-pid, SIGKILL)  // whatever the skill forked and left behind
            s.reaped = true
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        state.withLock { $0.exit = (status, Int(usage.ru_maxrss)) }
        // Wake the reader BEFORE signalling: the reader closes `wake` (in finalize) only after
        // `exitSignal`, so writing afterwards could hit a descriptor number already reused by the
        // next worker's channel — one stray byte there reads as a broken protocol and kills it.
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        exitSignal.signal()
    }
}
