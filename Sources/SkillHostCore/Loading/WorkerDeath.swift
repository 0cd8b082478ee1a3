import Glibc

/// Why the host itself stopped a worker (when it did), which decides how the end reads to callers.
enum WorkerStopCause: Sendable, Equatable {
    /// A call of `intent` overran its deadline: SIGTERM, then SIGKILL after the grace period.
    case deadline(intent: String)
    /// The worker wrote something that is not the protocol; `detail` says what.
    case protocolError(detail: String)
    /// The host is shutting the worker down (exit, or `SkillHost.shutdown`).
    case shutdown
    /// A call of `intent` was cancelled and the skill did not stop within the grace period.
    case cancelled(intent: String)
    /// The worker closed its end of the channel but did not exit (skill code closed fd 3 or 4).
    case channelClosed
}

/// How a worker process ended, and what the callers still waiting on it are told.
struct WorkerDeath: Sendable {
    /// The raw wait status.
    var status: Int32
    /// Peak resident memory (ru_maxrss), KiB.
    var maxRSSKB: Int
    var cause: WorkerStopCause?
    var note: WorkerOutput.FatalNote?
    /// Whether it had said hello (finished loading) before it ended.
    var wasReady: Bool
    /// The last lines the skill wrote to stdout/stderr.
    var lastLines: [String]

    var signal: Int32? { status & 0x7f == 0 ? nil : status & 0x7f }
    var exitCode: Int32 { (status >> 8) & 0xff }

    /// True when the host did not ask for this end (a crash, an exit, a kill from outside).
    var isUnexpected: Bool {
        switch cause {
        case nil, .protocolError?, .channelClosed?: return true
        case .deadline?, .shutdown?, .cancelled?: return false
        }
    }

    /// "was killed by SIGSEGV (segmentation fault)" / "exited with status 0".
    var how: String { (signal != nil ? "was " : "") + waitStatusDescription(status) }

    private var wrote: String {
        lastLines.isEmpty ? "" : "; it last wrote: " + lastLines.joined(separator: " | ")
    }

    /// Whether the end looks like the address-space limit: the worker's peak address space (from its
    /// fatal-signal note) or resident memory came within 10 % of the limit.
    func ranOutOfMemory(limitMB: Int) -> Bool {
        guard limitMB > 0, signal != nil else { return false }
        let limitKB = limitMB * 1024
        if let note, note.vmPeakKB * 10 >= limitKB * 9 { return true }
        return maxRSSKB * 10 >= limitKB * 9
    }

    /// The error for a caller whose `intent` call (nil: a health probe) was in flight when the worker ended.
    func error(skill: RegisteredSkill, intent: String?, settings: WorkerSettings) -> SkillError {
        let id = skill.id
        let during = intent.map { " during \($0)" } ?? ""
        let vendorHint = "a bug in the skill: report it to its vendor (\(skill.summary.vendor)) with this message; the next call starts a new worker"
        switch cause {
        case .protocolError(let detail)?:
            return SkillError(.internal, "skill \(id)'s worker broke the host protocol\(during): \(detail)",
                              hint: "skill code must not read or write file descriptors 3 and 4 (the worker's channel to the host); \(vendorHint)", skillID: id)
        case .deadline(let other)?:
            return SkillError(.crashed, "skill \(id)'s worker was stopped\(during) because another call (of \(other)) overran its deadline",
                              hint: "calls in flight in one worker end together; retry", skillID: id)
        case .channelClosed?:
            return SkillError(.crashed, "skill \(id)'s worker closed its channel to the host\(during) and was stopped\(wrote)",
                              hint: "skill code must not close file descriptors 3 and 4 (the worker's channel to the host); \(vendorHint)", skillID: id)
        case .shutdown?:
            return SkillError(.unavailable, "skill \(id)'s worker was stopped\(during) because the host is shutting down", skillID: id)
        case .cancelled(let other)?:
            return SkillError(.crashed, "skill \(id)'s worker was stopped\(during) because a cancelled call (of \(other)) did not stop in time",
                              hint: "calls in flight in one worker end together; retry", skillID: id)
        case nil:
            break
        }
        guard wasReady else {
            // skillhost-worker refused the channel it was given: it is not this host's build.
            if signal == nil && exitCode == 2, lastLines.contains(where: { $0.hasPrefix("skillhost-worker serve: file descriptors 3 and 4 must be") }) {
                var e = SkillError(.internal, "skill \(id) could not start in its worker process: the skillhost-worker it ran is from another build of skillhost and does not take this host's channel\(wrote)",
                                   hint: "reinstall skillhost so that skillhost and skillhost-worker come from one build (or point SKILLHOST_WORKER at the matching skillhost-worker); the skill's health is not affected", skillID: id)
                e.causedByHost = true
                return e
            }
            if ranOutOfMemory(limitMB: settings.memoryLimitMB) {
                return SkillError(.loadFailed, "skill \(id) (\(skill.file.path)) could not start in its worker process: the worker reached its address-space limit of \(settings.memoryLimitMB) MB (workers.memoryLimitMB) while loading the skill, and \(how)\(wrote)",
                                  hint: "raise \"workers\": {\"memoryLimitMB\": …} in the config (a worker with a Swift skill needs 100–200 MB of address space to start)", skillID: id)
            }
            return SkillError(.loadFailed, "skill \(id) (\(skill.file.path)) could not start in its worker process: the worker \(how) while loading the skill or running its init\(wrote)",
                              hint: "`skillhost validate \(skill.file.path)` loads it the same way and shows the crash; debug the skill's initializer with a program of your own that dlopens the file under gdb", skillID: id)
        }
        if ranOutOfMemory(limitMB: settings.memoryLimitMB) {
            let reached = note.map { "reached \($0.vmPeakKB / 1024) MB of address space, against its limit of \(settings.memoryLimitMB) MB" }
                ?? "reached its address-space limit of \(settings.memoryLimitMB) MB"
            return SkillError(.crashed, "skill \(id) ran out of memory\(during): its worker process \(reached) (workers.memoryLimitMB), and \(how)\(wrote)",
                              hint: "if the skill really needs more, raise \"workers\": {\"memoryLimitMB\": …} in the config; otherwise report the leak to its vendor (\(skill.summary.vendor))", skillID: id)
        }
        if signal == SIGXCPU {
            return SkillError(.crashed, "skill \(id) used more than \(settings.cpuSecondsPerCall) CPU second\(settings.cpuSecondsPerCall == 1 ? "" : "s")\(during) (workers.cpuSecondsPerCall) and its worker process \(how)\(wrote)",
                              hint: "if the work is really that long, raise \"workers\": {\"cpuSecondsPerCall\": …} in the config; otherwise the skill is stuck in a loop: report it to its vendor (\(skill.summary.vendor))", skillID: id)
        }
        if let s = signal {
            let outside = s == SIGKILL || s == SIGTERM ? " (not by skillhost: by another process, or the kernel's out-of-memory killer)" : ""
            return SkillError(.crashed, "skill \(id) crashed\(during): its worker process \(how)\(outside)\(wrote)", hint: vendorHint, skillID: id)
        }
        // skillhost-worker's WorkerExit.hostProtocolBroken: the host sent what the worker cannot read.
        if signal == nil && exitCode == 5 && lastLines.contains(where: { $0.hasPrefix("skillhost-worker: the host sent") }) {
            var e = SkillError(.internal, "skill \(id)'s worker could not read what this host sent it\(during) (a host bug, not the skill's)\(wrote)",
                               hint: "report it to skillhost's maintainers with this message; the skill's health is not affected", skillID: id)
            e.causedByHost = true
            return e
        }
        // skillhost-worker's WorkerExit.channelTakenAway, with the line it writes before it exits.
        if signal == nil && exitCode == 6, let line = lastLines.first(where: { $0.hasPrefix("skillhost-worker: file descriptor ") }) {
            let fd = line.dropFirst("skillhost-worker: file descriptor ".count).prefix(while: \.isNumber)
            return SkillError(.crashed, "skill \(id)'s worker lost its channel to the host\(during): skill code closed or replaced file descriptor \(fd)",
                              hint: "skill code must not close file descriptors 3 and 4 (the worker's channel to the host); \(vendorHint)", skillID: id)
        }
        let mid = intent.map { " in the middle of a call of \($0)" } ?? ""
        return SkillError(.crashed, "skill \(id)'s worker process \(how)\(mid) (the skill ended the process, e.g. with exit())\(wrote)",
                          hint: vendorHint, skillID: id)
    }
}
