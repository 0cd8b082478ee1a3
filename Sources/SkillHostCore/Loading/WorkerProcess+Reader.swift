import Dispatch
import Glibc
import SkillABI
import SkillCalls
import SkillLoading
import SkillWire
import Synchronization

/// The reader thread of a `WorkerProcess`: the only reader of the channel and the output pipe, and the
/// one that finalizes the worker (see `WorkerProcess` for the threads and who owns what).
/// Errors: a frame that is not the protocol marks the worker `protocolError` and ends it; callers
/// waiting on it get `internal`. Every other end is reported by `WorkerDeath`.
extension WorkerProcess {
    // MARK: - Reader thread

    func readLoop() {
        InlineJobs.adoptCurrentThread()
        var reader = FrameReader()
        var chunk = [UInt8](repeating: 0, count: 65536)
        var outputOpen = true
        var exited = false
        var channelOpen = true
        var fds = [pollfd](repeating: pollfd(), count: 4)  // filled each round, allocated once
        // Rounds since the last `poll` that read the channel without one (see below); `.max`: poll next.
        var unpolled = Int.max
        reading: while channelOpen {
            // A call resumed inline by the frames just read; it usually sent the next request.
            let resumed = inline.drain()
            let queued = !exited && hasQueued
            if resumed && !queued && !exited && unpolled < Self.roundsBetweenPolls {
                // Read first: a worker answers a short call while this thread finishes the one before
                // (it is woken on this CPU and runs first), so its reply is usually there already, and
                // a `poll` would only say so (one system call per call saved). Nothing there: poll next
                // round. At least every `roundsBetweenPolls` rounds a real `poll` looks at the output,
                // the wake byte and the request pipe, so none of them waits long behind the replies.
                unpolled += 1
                fds[0].revents = Int16(POLLIN)
                (fds[1].revents, fds[2].revents, fds[3].revents) = (0, 0, 0)
            } else {
                unpolled = 0
                fds[0] = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
                fds[1] = pollfd(fd: outputOpen ? outputFD : -1, events: Int16(POLLIN), revents: 0)
                fds[2] = pollfd(fd: exited ? -1 : wake.read, events: Int16(POLLIN), revents: 0)
                // Room in the request pipe, while frames wait for it (`send`).
                fds[3] = pollfd(fd: queued ? requests : -1, events: Int16(POLLOUT), revents: 0)
                let r = poll(&fds, 4, exited ? 0 : -1)
                if r < 0 {
                    if errno == EINTR { continue }
                    break
                }
            }
            if fds[3].revents != 0 { flushQueued() }
            if fds[2].revents != 0 {
                // A sender's byte (bytes queued: polled for above from the next round) or the watcher's
                // (the process ended: it recorded the exit before writing).
                while chunk.withUnsafeMutableBytes({ read(wake.read, $0.baseAddress, $0.count) }) > 0 {}
                exited = state.withLock { $0.exit != nil }
            }
            if fds[1].revents != 0 || exited, outputOpen {
                outputOpen = drainOutput(&chunk)
            }
            if fds[0].revents != 0 || exited {
                // Read everything there is: after the exit, frames the worker sent before it died.
                while true {
                    // Straight into the reader's buffer (no copy through `chunk`).
                    let n = reader.receive { read(replies, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                        if unpolled > 0 { unpolled = .max }  // read first, found nothing: poll next round
                        break
                    }
                    if n <= 0 { channelOpen = false; break }
                    do {
                        // Each frame is handled in the reader's buffer (no copy); nil: not a problem.
                        while let outcome = try reader.withNext({ handle($0) }) {
                            if let problem = outcome {
                                brokeProtocol(problem)
                                break reading
                            }
                        }
                    } catch {
                        let preview = String(decoding: reader.preview(24).map { $0 < 0x20 || $0 >= 0x7f ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
                        brokeProtocol("\(error.reason); it sent \"\(preview)\"")
                        break reading
                    }
                    if exited { continue }
                    break
                }
            }
            if exited { break }
        }
        // The channel ended (or broke): the process is ending or must end. After an end-of-file, give a
        // process that is exiting anyway a moment, so its own exit status is what callers hear about.
        if !exited && !state.withLock({ $0.cause != nil }) {
            if exitSignal.wait(timeout: .now() + .milliseconds(100)) == .success {
                exitSignal.signal()
            } else {
                state.withLock { s in if s.cause == nil { s.cause = .channelClosed } }
            }
        }
        signalGroupIfAlive(SIGKILL)
        exitSignal.wait()
        if outputOpen { _ = drainOutput(&chunk) }
        finalize()
        inline.drain()
        InlineJobs.leaveCurrentThread()
    }

    /// How many rounds in a row the reader may read the channel without a `poll` (see `readLoop`).
    static let roundsBetweenPolls = 8

    /// SIGKILL if the worker has not exited yet (it closed its channel, or broke the protocol).
    private func signalGroupIfAlive(_ sig: Int32) {
        state.withLock { s in if !s.reaped && s.exit == nil { _ = kill(-pid, sig) } }
    }

    private func brokeProtocol(_ detail: String) {
        state.withLock { s in if s.cause == nil { s.cause = .protocolError(detail: detail) } }
    }

    /// Reads what is available from the output pipe; false at its end.
    private func drainOutput(_ chunk: inout [UInt8]) -> Bool {
        var budget = 1 << 20  // do not let a flood starve the channel
        while budget > 0 {
            let n = chunk.withUnsafeMutableBytes { read(outputFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return true }  // EAGAIN: nothing more now
            if n == 0 { return false }
            chunk.withUnsafeBufferPointer { output.ingest(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            budget -= n
        }
        return true
    }

    private func finalize() {
        let lines = output.lastLines()
        let note = output.fatalNote
        let (death, calls, probes) = state.withLock { s -> (WorkerDeath, [WorkerWaiter<RawCompletion>], [WorkerWaiter<WorkerHealthAnswer>]) in
            let exit = s.exit ?? (0, 0)
            let d = WorkerDeath(status: exit.status, maxRSSKB: exit.maxRSSKB, cause: s.cause, note: note,
                                wasReady: s.ready, lastLines: lines)
            s.death = d
            return (d, s.calls.removeAll(), s.probes.removeAll())
        }
        sendLock.withLock { s in
            s.closed = true
            close(requests)
        }
        close(replies)
        close(outputFD)
        close(wake.read)
        close(wake.write)
        LiveWorkers.remove(self)
        // The owner first (it counts the failure and sets the backoff), so that a caller woken below
        // and calling again at once already sees the backoff.
        onEnd(self, death)
        for w in calls { w.resolve(.failure(death.error(skill: skill, intent: w.intent, settings: settings))) }
        for w in probes { w.resolve(.failure(death.error(skill: skill, intent: nil, settings: settings))) }
        if calls.isEmpty && probes.isEmpty && death.isUnexpected && death.wasReady {
            HostLog.warning(death.error(skill: skill, intent: nil, settings: settings).message + " (while idle; a new worker starts with the next call)")
        }
        readiness.open()
        endSignal.signal()
    }

    // MARK: - Frames from the worker

    /// Routes one frame (its body, valid only during the call: nothing here keeps it); returns a
    /// description of the problem if it is not the protocol.
    /// The frame is scanned in place (`JSONScan`, the worker's own reader): only values the host keeps
    /// (a result, a health detail, a context value) become `JSON` trees.
    private func handle(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard let f = FrameMembers(b), let opText = f[.op], b[opText.lowerBound] == 0x22 else {
            let shown = String(decoding: b.prefix(60).map { $0 < 0x20 || $0 >= 0x7f ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
            return "it sent a frame that is not a JSON object with an \"op\": \"\(shown)\""
        }
        guard let op = WireOp(named: b, opText) else { return nil }  // a newer worker's operation: ignored
        return handle(f, op)
    }

    private func handle(_ f: FrameMembers, _ op: WireOp) -> String? {
        let ready = state.withLock { $0.ready }
        if !ready && op != .hello && op != .loadFailed && op != .log {
            return "it sent \"\(op.rawValue)\" before \"hello\""
        }
        let id = f.int(.id).map { UInt64(bitPattern: $0) } ?? 0
        switch op {
        case .hello:
            guard f.int(.protocol) == Int64(WireProtocol.version) else {
                return "it speaks protocol \(f.raw(.protocol) ?? "?"), this host \(WireProtocol.version) (skillhost-worker is from another build; reinstall so both come from one)"
            }
            state.withLock { $0.ready = true }
            SandboxFacts.record(skill: skill.id, hello: f.json(.sandbox), into: sandboxRecord)
            if let problems = f.json(.limitProblems)?.arrayValue, !problems.isEmpty {
                HostLog.warning("skill \(skill.id)'s worker could not apply every limit: " + problems.compactMap(\.stringValue).joined(separator: "; "))
            }
            readiness.open()
        case .loadFailed:
            let kind = f.string(.kind).flatMap(ErrorKind.init(rawValue:)) ?? .loadFailed
            let message = f.string(.message) ?? "the worker could not load the skill"
            state.withLock { $0.loadError = SkillError(kind, message, hint: kind == .incompatible ? "run the command again; the folder will be rescanned" : nil, skillID: skill.id) }
            readiness.open()
        case .complete:
            guard let status = f.int(.status) else { return "it sent a \"complete\" without a status" }
            let completion: RawCompletion
            if f.has(.result) {
                guard let r = f.json(.result) else { return "it sent a \"complete\" whose result is not JSON" }
                completion = RawCompletion(status: Int32(truncatingIfNeeded: status), result: nil, message: f.string(.message), parsedResult: r)
            } else {
                let text = f.string(.resultText)
                completion = RawCompletion(status: Int32(truncatingIfNeeded: status), result: text.map { Array($0.utf8) },
                                           message: f.string(.message),
                                           resultProblem: f.string(.resultProblem) ?? (text == nil ? nil : "is not JSON"))
            }
            let (waiter, alone) = state.withLock { s in (s.calls.remove(id), s.calls.isEmpty && s.probes.isEmpty) }
            if let w = waiter {
                inline.resuming(alone: alone, w, with: .success(completion))
            } else {
                HostLog.warning("skill \(skill.id) completed a call after the host stopped waiting; the late result was dropped")
            }
        case .progress:
            guard let w = state.withLock({ $0.calls[id] }) else { return nil }
            w.progress?(UInt32(clamping: f.int(.step) ?? 0), UInt32(clamping: f.int(.total) ?? 0), f.string(.message))
        case .log:
            if f.string(.event) == "complete_twice" { events.recordCompletedTwice(intent: f.string(.intent) ?? "?") }
            SkillLog.shared.write(skill: skill.id, level: Int32(clamping: f.int(.level) ?? 1), f.string(.message) ?? "")
        case .health:
            let answer = WorkerHealthAnswer(status: Int32(truncatingIfNeeded: f.int(.status) ?? Int64(SKH_HEALTH_UNAVAILABLE)),
                                            declared: f.raw(.declared) != "false",
                                            detail: f.json(.detail).flatMap { $0 == .null ? nil : $0 })
            state.withLock { $0.probes.remove(id) }?.resolve(.success(answer))
        case .contextSet:
            guard let key = f.string(.key), let value = f.bytes(.value).map(Array.init) else { return "it sent a \"context_set\" without key or value" }
            SkillServices.store.set(key, value)
        case .invoke, .cancel, .shutdown:
            return "it sent \"\(op.rawValue)\", an operation only the host sends"
        }
        return nil
    }
}

/// Readings of a worker frame's members that need the host's own JSON tree.
private extension FrameMembers {
    /// The value's JSON text (e.g. `true`).
    func raw(_ key: WireKey) -> String? { self[key].map { String(decoding: UnsafeBufferPointer(rebasing: frame[$0]), as: UTF8.self) } }
    /// The value as a `JSON` tree (nil when absent; a scanned value always parses).
    func json(_ key: WireKey) -> JSON? {
        self[key].flatMap { try? JSON.parse(UnsafeBufferPointer(rebasing: frame[$0]), maxDepth: JSONLimits.frameDepth) }
    }
}
