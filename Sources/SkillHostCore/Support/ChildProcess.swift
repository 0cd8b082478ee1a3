import FoundationEssentials
import Glibc
import SkillSandboxC
import SkillWire

/// A child process started with `posix_spawn` (never a bare `fork` in this multi-threaded host).
///
/// The scan-process layout (`init`): stdin from /dev/null, stdout to /dev/null (a skill's noise must
/// never reach the host's stdout), stderr into a pipe the parent drains (the last lines name what went
/// wrong), fd 3 the write end of a result pipe, fd 4 the socket the checked skill files come over
/// (`skh_send_fds`), and fd 5 the progress word (`skh_progress_*`, when it could be made). The owner
/// must call `wait()` (or `kill` then `wait()`), or `reapInBackground()`, so that no zombie is left. Not thread-safe: one owner at a time.
/// Worker processes use the same start (`spawn` with `Layout.worker`) but supervise the child
/// themselves (see `WorkerProcess`).
final class ChildProcess {
    let pid: pid_t
    /// Read end of the child's fd 3.
    let resultFD: Int32
    /// Read end of the child's stderr.
    let stderrFD: Int32
    private var stderrTail: [UInt8] = []
    private var reaped: Int32?

    /// How a child's file descriptors and process group are set up.
    enum Layout {
        /// stdout → /dev/null, stderr → `stderr`, fd 3 → `fd3`; same process group as the host.
        case scan(stderr: Int32, fd3: Int32)
        /// stdout and stderr → `output`, fd 3 → `send` (the write end of the host's reply pipe), fd 4 →
        /// `receive` (the read end of the request pipe); a process group of its own (led by the child),
        /// so that the child and anything it forks can be signalled together.
        case worker(output: Int32, send: Int32, receive: Int32)

        /// Which of the host's descriptors becomes which of the child's.
        var descriptors: [(from: Int32, to: Int32)] {
            switch self {
            case .scan(let err, let fd3): [(err, 2), (fd3, 3)]
            case .worker(let output, let send, let receive):
                [(output, 1), (output, 2), (send, WireProtocol.workerSendFD), (receive, WireProtocol.workerReceiveFD)]
            }
        }
    }

    /// Starts `executable` with `arguments` (argv[0] is the executable path) and returns its pid.
    /// stdin is /dev/null; the descriptors named by `layout` are dup'ed into the child, and `passing`
    /// as the fds after the layout's last one, in order (checked skill files: fd 4 on for a scan
    /// process, fd 5 on for a worker, `WireProtocol.workerSkillFD`; the caller keeps and closes its own copies).
    /// Every other descriptor is closed in the child, close-on-exec or not.
    /// `base`: the child's environment before `extra` (a sandboxed worker's or a scan process's short
    /// list, see `WorkerSandbox`); nil means the host's own. SWIFT_BACKTRACE=enable=no is always set.
    static func spawn(executable: String, arguments: [String], layout: Layout, environment extra: [String: String] = [:],
                      base: [String: String]? = nil, passing: [Int32] = []) throws(SkillError) -> pid_t {
        // Every descriptor the child gets (the layout's and the passed files) is first copied above the
        // child's last one, so that no dup2 below overwrites a descriptor another one still has to
        // copy from, and none is dup'ed onto its own number (which would keep it close-on-exec).
        var targets = layout.descriptors
        let firstPassed = targets.map(\.to).max()! + 1
        let firstFree = firstPassed + Int32(passing.count)
        targets += passing.enumerated().map { ($0.element, firstPassed + Int32($0.offset)) }
        let copies = targets.map { fcntl($0.from, F_DUPFD_CLOEXEC, firstFree) }
        defer { for fd in copies where fd >= 0 { close(fd) } }
        if copies.contains(where: { $0 < 0 }) {
            throw SkillError(.internal, "cannot hand descriptors to \(executable): \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        switch layout {
        case .scan:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .worker:
            posix_spawnattr_setpgroup(&attr, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        for (k, t) in targets.enumerated() { posix_spawn_file_actions_adddup2(&actions, copies[k], t.to) }
        // Nothing else: not even a descriptor someone leaked into the host without close-on-exec.
        let closing = skh_spawn_close_from(&actions, firstFree)
        guard closing == 0 else {
            throw SkillError(.internal, "cannot start \(executable): \(String(cString: strerror(closing))) (closing the descriptors it must not inherit)")
        }
        // The host ignores SIGPIPE; the child must get default signal dispositions back.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        // A thread of the host may have signals blocked; the child starts with none blocked.
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attr, &noneBlocked)
        posix_spawnattr_setflags(&attr, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var cargv = argv + [nil]
        var child: pid_t = 0
        // The worker is a Swift program: without SWIFT_BACKTRACE=enable=no, a skill's crash would be
        // reported with the Swift runtime's backtrace of the worker instead of what the skill itself
        // wrote to stderr. `extra` adds or replaces variables (a worker's TZ: see `WorkerSettings.timeZone`).
        var env = base ?? ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        if let runtime = shippedRuntime {
            env["LD_LIBRARY_PATH"] = runtime + (env["LD_LIBRARY_PATH"].map { ":" + $0 } ?? "")
        }
        for (k, v) in extra { env[k] = v }
        let envp = env.map { strdup("\($0.key)=\($0.value)") }
        defer { envp.forEach { free($0) } }
        var cenv = envp + [nil]
        let rc = posix_spawn(&child, executable, &actions, &attr, &cargv, &cenv)
        guard rc == 0 else {
            throw SkillError(.internal, "cannot start \(executable): \(String(cString: strerror(rc)))",
                             hint: "reinstall skillhost so that skillhost-worker and skillhost-scan sit next to skillhost, or set SKILLHOST_WORKER and SKILLHOST_SCAN")
        }
        return child
    }

    /// The Swift runtime shipped beside an installed skillhost (PREFIX/lib/skillhost, see
    /// scripts/install.sh), when this is one. Children get it first on LD_LIBRARY_PATH: a skill is
    /// loaded through /proc/self/fd/N, where a RUNPATH of `$ORIGIN` means nothing, so the libraries
    /// a Swift skill needs beyond those the worker already loaded (Foundation) are found there — the
    /// same runtime as the host's and the worker's, one copy per process.
    static let shippedRuntime: String? = {
        let dir = PathText.directory(of: executableDirectory()) + "/lib/skillhost"
        return FileManager.default.fileExists(atPath: dir + "/libswiftCore.so") ? dir : nil
    }()

    /// Starts a scan process (the layout described above), with `passing` as its fds 4, 5, ….
    init(executable: String, arguments: [String], passing: [Int32] = []) throws(SkillError) {
        // Close-on-exec at creation: another thread may be starting a child at this very moment.
        guard let resultPipe = Descriptors.pipe() else {
            throw SkillError(.internal, "cannot create a pipe for a scan process: \(String(cString: strerror(errno)))")
        }
        guard let errPipe = Descriptors.pipe() else {
            let why = String(cString: strerror(errno))
            close(resultPipe.read); close(resultPipe.write)
            throw SkillError(.internal, "cannot create a pipe for a scan process: \(why)")
        }
        let child: pid_t
        do {
            child = try Self.spawn(executable: executable, arguments: arguments, layout: .scan(stderr: errPipe.write, fd3: resultPipe.write),
                                   base: WorkerSandbox.scanEnvironment(), passing: passing)
        } catch {
            for fd in [resultPipe.read, resultPipe.write, errPipe.read, errPipe.write] { close(fd) }
            throw error
        }
        close(resultPipe.write)
        close(errPipe.write)
        pid = child
        resultFD = resultPipe.read
        stderrFD = errPipe.read
        _ = fcntl(stderrFD, F_SETFL, fcntl(stderrFD, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if reaped == nil { signal(SIGKILL); _ = wait() }
        close(resultFD)
        close(stderrFD)
    }

    /// True once the child's stderr reached its end (the child closed it, or ended): nothing more can
    /// come, and a poll of the pipe would report a hangup at once, every time.
    private(set) var stderrEnded = false

    /// Reads what the child wrote to stderr so far, keeping the last 4 KiB. Never blocks.
    func drainStderr() {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(stderrFD, &buf, buf.count)
            if n == 0 { stderrEnded = true }
            if n <= 0 { return }
            stderrTail.append(contentsOf: buf[0..<n])
            if stderrTail.count > 4096 { stderrTail.removeFirst(stderrTail.count - 4096) }
        }
    }

    /// The last `lines` lines the child wrote to stderr.
    func lastStderrLines(_ lines: Int = 5) -> String {
        drainStderr()
        let text = String(decoding: stderrTail, as: UTF8.self)
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// Waits for the child to end and returns its raw wait status.
    @discardableResult
    func wait() -> Int32 {
        if let reaped { return reaped }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = status
        return status
    }

    /// Leaves waiting for the child's end to a thread of its own, for a child whose status nobody
    /// needs (a scan process that answered every file): the kernel's teardown of a process that
    /// loaded hundreds of images, and the reaping itself (~1 ms for 200), then run beside the
    /// caller's work instead of in it. From then on the child counts as reaped here (`wait` returns
    /// 0 at once, `signal` sends nothing: its pid may be reused once the thread has reaped it). Where
    /// no thread can be started, waits here.
    func reapInBackground() {
        guard reaped == nil else { return }
        reaped = 0
        let pid = pid
        if !startDetachedThread(stackSize: 64 * 1024, { Self.waitFor(pid) }) { Self.waitFor(pid) }
    }

    private static func waitFor(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Sends `sig` to the child (if it has not been reaped yet).
    func signal(_ sig: Int32) { if reaped == nil { _ = kill(pid, sig) } }
}

/// "SIGSEGV (segmentation fault)" for a signal number.
func signalDescription(_ sig: Int32) -> String {
    let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL",
                                  SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP",
                                  SIGXCPU: "SIGXCPU", SIGPIPE: "SIGPIPE", SIGSYS: "SIGSYS"]
    let name = names[sig] ?? "signal \(sig)"
    if let d = strsignal(sig) { return "\(name) (\(String(cString: d).lowercased()))" }
    return name
}

/// How a wait status reads to a person: "killed by SIGSEGV (segmentation fault)" or "exited with status 3".
func waitStatusDescription(_ status: Int32) -> String {
    let sig = status & 0x7f
    if sig == 0 { return "exited with status \((status >> 8) & 0xff)" }
    return "killed by \(signalDescription(sig))"
}

/// The directory of the running executable (via /proc/self/exe).
public func executableDirectory() -> String {
    var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return "." }
    let path = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return PathText.directory(of: path)
}
