import Glibc
import SkillWire
import Synchronization

/// The worker's sending end of the channel: the write end of the host's reply pipe (file descriptor 3;
/// frames from the host arrive on fd 4, see `readFrames`). Every frame the worker sends goes through
/// `send`, whole, under one lock, so frames from different threads never interleave.
///
/// Threading: `send` may be called from any thread (skill threads complete calls and log).
/// Errors: if the host is gone (its read end closed), the `write` fails with EPIPE (see
/// `catchBrokenPipes`) and the process ends at once with its process group (`hostGone`): nobody is
/// left to serve.
final class Channel: Sendable {
    let fd: Int32
    private let lock = Mutex(())

    init(fd: Int32) { self.fd = fd }

    /// Seals `frame` (built with `Line.frame`) with its length, in place (`Line.seal`), and writes
    /// it; the caller's line is then sent and not to be extended.
    func send(_ frame: inout Line) {
        frame.seal()
        lock.withLock { _ in
            frame.bytes.withUnsafeBytes { buf in
                var off = 0
                while off < buf.count {
                    let n = write(fd, buf.baseAddress! + off, buf.count - off)
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 && (errno == EBADF || errno == EINVAL) { channelTakenAway(fd) }
                    if n <= 0 { hostGone() }  // EPIPE: the host closed its end
                    off += n
                }
            }
        }
    }
}

/// Makes a write to a pipe nobody reads fail with EPIPE instead of ending the process, so that a host
/// gone away is noticed by `Channel.send` (and the skill's forked processes are ended with it). A
/// handler that does nothing, not SIG_IGN: an ignored signal stays ignored in programs a skill starts
/// (exec keeps it), a caught one is reset to the default there. Call before any other thread exists.
func catchBrokenPipes() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    action.sa_flags = SA_RESTART
    sigemptyset(&action.sa_mask)
    sigaction(SIGPIPE, &action, nil)
}

/// The one channel of this process.
let channel = Channel(fd: WireProtocol.workerSendFD)

/// Exit statuses of `skillhost-worker serve` that the host reads (anything else is the skill's own).
enum WorkerExit {
    /// The skill could not be loaded; a `load_failed` frame said why.
    static let loadFailed: Int32 = 4
    /// The host sent something this worker cannot read.
    static let hostProtocolBroken: Int32 = 5
    /// Skill code closed or replaced file descriptor 3 or 4, the channel to the host.
    static let channelTakenAway: Int32 = 6
}

/// Which file a channel descriptor was at the start (device and inode), to tell the host's pipe from
/// whatever skill code may have put on its number since.
struct ChannelIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let isPipe: Bool

    init?(_ fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        (device, inode, isPipe) = (UInt64(st.st_dev), UInt64(st.st_ino), (st.st_mode & S_IFMT) == S_IFIFO)
    }
}

/// fds 3 and 4 as they were at the start (set by main before any other thread exists).
nonisolated(unsafe) var channelIdentities: [ChannelIdentity] = []

/// fd 3 or 4 if it is no longer the pipe it was at the start (closed, or another file put on its
/// number). Two `fstat`s: asked only on an end-of-file or a frame that cannot be read.
func channelReplaced() -> Int32? {
    zip([WireProtocol.workerSendFD, WireProtocol.workerReceiveFD], channelIdentities).first { ChannelIdentity($0) != $1 }?.0
}

/// Skill code closed or replaced `fd`, one end of the channel: nothing can reach the host any more,
/// or nothing can come from it. Say so on the output pipe (through the private copy, in case stdout
/// and stderr are gone too) and end with the status the host reads as "closed its channel".
func channelTakenAway(_ fd: Int32) -> Never {
    FatalNote.say("skillhost-worker: file descriptor \(fd) (the channel to the host) was closed or replaced by skill code; stopping\n")
    _exit(WorkerExit.channelTakenAway)
}

/// The host closed its end (it exited, crashed or was killed): end this process now, together with
/// anything the skill forked (they share the worker's process group, which the host created for it),
/// even if skill code is stuck on another thread.
func hostGone() -> Never {
    if getpgrp() == getpid() { kill(0, SIGKILL) }
    _exit(0)
}
