import Glibc
import Synchronization

/// Resource limits a worker applies to itself before it loads the skill (so the skill's static
/// initializers run under them too). They catch faulty skills; they are not a sandbox: the skill runs
/// as the same user, can read and write what that user can, and (for the CPU limit) could raise its
/// own soft limit again.
struct WorkerLimits {
    /// RLIMIT_AS (address space) in MiB, soft and hard; 0 = none.
    var memoryMB = 0
    /// RLIMIT_NOFILE, soft and hard; 0 = leave as inherited.
    var openFiles = 0
    /// CPU seconds one call may use; 0 = none. See `CPUBudget`.
    var cpuSecondsPerCall = 0

    /// Applies the limits, core dumps off, and PR_SET_NO_NEW_PRIVS. Returns problems as text (a limit
    /// that could not be set is reported to the host in the hello frame, not fatal).
    func apply() -> [String] {
        var problems: [String] = []
        // A crashing skill must not leave core files behind in the host's working folder.
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        if setrlimit(resource(RLIMIT_CORE), &none) != 0 { problems.append("RLIMIT_CORE: \(errnoText())") }
        if memoryMB > 0 {
            // Few malloc arenas: each one reserves 64 MiB of address space, which would count against
            // the limit without holding any data.
            setMallocArenaMax(2)
            if let p = lower(resource(RLIMIT_AS), to: rlim_t(memoryMB) << 20) { problems.append("RLIMIT_AS: \(p)") }
        }
        if openFiles > 0, let p = lower(resource(RLIMIT_NOFILE), to: rlim_t(openFiles)) { problems.append("RLIMIT_NOFILE: \(p)") }
        if !NoNewPrivileges.set() { problems.append("PR_SET_NO_NEW_PRIVS: not available") }
        return problems
    }

    /// Sets soft and hard limit of `resource` to `value`, or to the current hard limit if that is lower.
    private func lower(_ resource: Int32, to value: rlim_t) -> String? {
        var cur = rlimit()
        guard getrlimit(resource, &cur) == 0 else { return errnoText() }
        let v = min(value, cur.rlim_max)
        var next = rlimit(rlim_cur: v, rlim_max: v)
        return setrlimit(resource, &next) == 0 ? nil : errnoText()
    }
}

/// The C value of an RLIMIT_* constant (Swift imports them as an enum).
func resource(_ r: __rlimit_resource) -> Int32 { Int32(r.rawValue) }

/// mallopt(M_ARENA_MAX, n), looked up with dlsym: <malloc.h> is not part of Swift's Glibc module.
/// `int mallopt(int, int)` is not variadic, so the cast is exact.
func setMallocArenaMax(_ n: Int32) {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    _ = unsafeBitCast(sym, to: Mallopt.self)(-8 /* M_ARENA_MAX */, n)
}

func errnoText() -> String { String(cString: strerror(errno)) }

/// PR_SET_NO_NEW_PRIVS: neither the skill nor anything it executes can gain privileges (set-user-ID
/// programs, file capabilities). Swift cannot call the variadic C `prctl`, so the symbol is looked up
/// with dlsym and called through a fixed-arity C function type. That is sound on x86_64 and arm64
/// Linux, where a variadic callee reads integer arguments from the same registers a fixed-arity
/// call fills (glibc's prctl reads exactly those four with va_arg).
enum NoNewPrivileges {
    typealias PrctlFunction = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    static func set() -> Bool {
        #if (arch(x86_64) || arch(arm64)) && os(Linux)
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return false }  // RTLD_DEFAULT
        let prctl = unsafeBitCast(sym, to: PrctlFunction.self)
        return prctl(38 /* PR_SET_NO_NEW_PRIVS */, 1, 0, 0, 0) == 0
        #else
        return false
        #endif
    }
}

/// The per-call CPU limit (`--cpu-seconds N`): RLIMIT_CPU's soft limit is kept at "CPU used so far +
/// N + 1" seconds, so a call stuck in a loop gets SIGXCPU (the host reports it) while normal calls
/// never reach it. Re-arming costs three system calls, so it happens when a call starts and the last
/// arming is at least 250 ms old (a coarse clock read from the vDSO decides): a call may thus start
/// with up to 250 ms × threads less than N + 1 seconds in hand, never with less than N.
/// Calls of a thread-safe skill share one process clock, so there it means "N CPU seconds since the
/// latest call started" (a looser bound). A process over its soft limit gets SIGXCPU, which ends it;
/// the host reports that as a crash naming the budget.
enum CPUBudget {
    static let seconds = Atomic<Int>(0)
    /// CLOCK_MONOTONIC_COARSE nanoseconds of the last arming.
    private static let armedAt = Atomic<Int>(Int.min / 2)

    static func callStarts() {
        let budget = seconds.load(ordering: .relaxed)
        guard budget > 0 else { return }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
        let now = ts.tv_sec * 1_000_000_000 + ts.tv_nsec
        let last = armedAt.load(ordering: .relaxed)
        guard now - last >= 250_000_000, armedAt.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged else { return }
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return }
        let used = Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec) + 1
        var cur = rlimit()
        guard getrlimit(resource(RLIMIT_CPU), &cur) == 0 else { return }
        var next = rlimit(rlim_cur: min(rlim_t(used + budget), cur.rlim_max), rlim_max: cur.rlim_max)
        _ = setrlimit(resource(RLIMIT_CPU), &next)
    }
}

/// A last word from a dying worker. When skill code gets a fatal signal (SIGSEGV, SIGABRT, SIGXCPU, …),
/// a handler writes one line to the output pipe the host drains, through a private copy of the pipe
/// (so it works even if the skill closed its stdout and stderr):
///
///     skillhost-worker: fatal signal=11 vmpeak_kb=262080
///
/// then lets the signal end the process as it would have. The host uses the peak address space to
/// tell "ran out of memory under the limit" from other crashes, and does not show the line as skill
/// output. The line is shorter than PIPE_BUF, so it is written in one piece even while the skill
/// writes too. The handler only calls async-signal-safe functions (open, read, write, close, raise)
/// on memory allocated beforehand.
enum FatalNote {
    nonisolated(unsafe) private static var noteFD: Int32 = -1
    nonisolated(unsafe) private static var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    nonisolated(unsafe) private static var statusPath = strdup("/proc/self/status")!

    static func install() {
        // Globals are initialised lazily: touch them here, never first inside the handler.
        _ = buffer
        _ = statusPath
        noteFD = fcntl(2, F_DUPFD_CLOEXEC, 10)
        guard noteFD >= 0 else { return }
        for sig in [SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGXCPU] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in FatalNote.handle(sig) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(truncatingIfNeeded: SA_RESETHAND))
            sigaction(sig, &action, nil)
        }
    }

    /// Writes `text` (short, one line) where the host reads the skill's output, even if the skill
    /// closed its stdout and stderr. Not for signal handlers (it builds a String).
    static func say(_ text: String) {
        let fd = noteFD >= 0 ? noteFD : 2
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    private static func handle(_ sig: Int32) {
        let b = buffer
        var peak = 0
        let fd = open(statusPath, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            let n = read(fd, b, 4000)
            close(fd)
            if n > 0 { peak = vmPeak(b, n) }
        }
        var len = 0
        func put(_ s: StaticString) {
            var p = s.utf8Start
            for _ in 0..<s.utf8CodeUnitCount { b[len] = p.pointee; len += 1; p += 1 }
        }
        func put(_ v: Int) {
            // Digits backwards into the end of the buffer, then forwards into the line.
            var count = 0
            var x = v
            repeat { b[4095 - count] = UInt8(48 + x % 10); x /= 10; count += 1 } while x > 0 && count < 20
            while count > 0 { b[len] = b[4096 - count]; len += 1; count -= 1 }
        }
        put("\nskillhost-worker: fatal signal=")
        put(Int(sig))
        put(" vmpeak_kb=")
        put(peak)
        put("\n")
        _ = write(noteFD, b, len)
        // SA_RESETHAND restored the default action: the signal ends the process once this returns.
        raise(sig)
    }

    /// The number after "VmPeak:" in /proc/self/status text, in kB (0 if absent).
    private static func vmPeak(_ b: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        let key: StaticString = "VmPeak:"
        let k = key.utf8CodeUnitCount
        var i = 0
        while i + k < n {
            var match = i == 0 || b[i - 1] == 10
            var j = 0
            while match && j < k { if b[i + j] != key.utf8Start[j] { match = false }; j += 1 }
            if match {
                var p = i + k
                while p < n && (b[p] == 32 || b[p] == 9) { p += 1 }
                var v = 0
                while p < n && b[p] >= 48 && b[p] <= 57 { v = v * 10 + Int(b[p] - 48); p += 1 }
                return v
            }
            i += 1
        }
        return 0
    }
}
