import Glibc
import SkillWire
import Synchronization

/// The worker's end of the host's socketpair (file descriptor 3). Every frame the worker sends goes
/// through `send`, whole, under one lock, so frames from different threads never interleave.
///
/// Threading: `send` may be called from any thread (skill threads complete calls and log).
/// Errors: if the host is gone (EPIPE, a closed socket), the process ends at once (`hostGone`):
/// there is nobody left to serve.
final class Channel: Sendable {
    let fd: Int32
    private let lock = Mutex(())

    init(fd: Int32) { self.fd = fd }

    /// Seals `frame` (built with `Line.frame`) with its length and writes it.
    func send(_ frame: consuming Line) {
        let bytes = frame.sealed()
        lock.withLock { _ in
            bytes.withUnsafeBytes { buf in
                var off = 0
                while off < buf.count {
                    let n = Glibc.send(fd, buf.baseAddress! + off, buf.count - off, Int32(MSG_NOSIGNAL))
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 && (errno == EBADF || errno == ENOTSOCK) { channelTakenAway() }
                    if n <= 0 { hostGone() }
                    off += n
                }
            }
        }
    }
}

/// The one channel of this process.
let channel = Channel(fd: WireProtocol.workerFD)

/// Exit statuses of `skillhost-worker serve` that the host reads (anything else is the skill's own).
enum WorkerExit {
    /// The skill could not be loaded; a `load_failed` frame said why.
    static let loadFailed: Int32 = 4
    /// The host sent something this worker cannot read.
    static let hostProtocolBroken: Int32 = 5
    /// Skill code closed or replaced file descriptor 3, the channel to the host.
    static let channelTakenAway: Int32 = 6
}

/// Skill code closed (or replaced) fd 3: nothing can reach the host any more. Say so on the output
/// pipe (through the private copy, in case stdout and stderr are gone too) and end with the status
/// the host reads as "closed its channel".
func channelTakenAway() -> Never {
    FatalNote.say("skillhost-worker: file descriptor 3 (the channel to the host) was closed by skill code; stopping\n")
    _exit(WorkerExit.channelTakenAway)
}

/// The host closed its end (it exited, crashed or was killed): end this process now, together with
/// anything the skill forked (they share the worker's process group, which the host created for it),
/// even if skill code is stuck on another thread.
func hostGone() -> Never {
    if getpgrp() == getpid() { kill(0, SIGKILL) }
    _exit(0)
}
