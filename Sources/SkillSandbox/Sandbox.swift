import Glibc
import SkillSandboxC
import SkillWire

/// The sandbox of a worker and of the scan process (`applyForScan`): applied by the worker's
/// `runServeMode` before the skill's file is loaded (so the skill's static initializers already run
/// under it) and before the worker starts any thread (a user namespace can only be entered by a
/// single-threaded process, and Landlock confines the calling thread and what it starts later).
///
/// In order:
///   1. PR_SET_NO_NEW_PRIVS and PR_SET_DUMPABLE 0 (no core dumps, no /proc/PID/mem for same-user
///      processes, no ptrace attach).
///   2. The seccomp filter (`SeccompFilter`) on every thread. Without a granted port it refuses every
///      `socket()`, so the worker can reach no network, whatever namespace it is in.
///   3. No granted port and no filter to refuse sockets: a new, empty network namespace (only a
///      loopback interface that is down): CLONE_NEWNET alone as root, CLONE_NEWUSER | CLONE_NEWNET
///      otherwise (this user's ids mapped to themselves). That is where the kernel's seccomp cannot
///      answer with an errno (then before step 2, whose filter refuses `unshare`), and also where the
///      filter failed to install although it could (ENOMEM: filters the process inherited, e.g. from a
///      container runtime or a filtering parent, already fill the kernel's 32768 instructions per
///      path): fail closed, never with the host's network. A namespace costs ~0.8 ms to make (and its
///      teardown more, later, on another core).
///   4. Every capability dropped (bounding set, then effective/permitted/inheritable): a worker started
///      by root, or holding the full set a new user namespace hands out (step 3), keeps none — without
///      the filter nothing else would stop raw sockets or mounts inside that namespace.
///   5. Landlock: the rules of `SandboxPlan` plus `SystemPaths`, TCP connect only to granted ports and
///      no bind, signals and abstract unix sockets scoped to the worker's own domain. (After step 3:
///      the uid and gid maps are files in /proc that Landlock would not let the worker write.)
/// A step the kernel lacks, or that fails, is named in `report.missing` (`problems`); the host shows the
/// skill's sandbox as "partial" with that list: a filter that failed to install is "seccomp filter (…)",
/// and "network isolation (…)" only when neither the filter nor a namespace keeps the network out.
/// Nothing here ever stops the worker.
public enum Sandbox {
    public struct Report {
        public var enabled = false
        public var landlockABI = 0
        /// Features not in force, each with why ("landlock-network (needs …)").
        public var missing: [String] = []
        /// Steps that failed although the kernel has the feature (also make it partial).
        public var problems: [String] = []
        /// How long `apply` took, in microseconds (for `make bench`).
        public var applyMicros = 0
        public var mode: String { !enabled ? "off" : missing.isEmpty && problems.isEmpty ? "full" : "partial" }
    }

    /// What `apply` did; read by the hello frame.
    nonisolated(unsafe) public private(set) static var report = Report()

    /// Applies the sandbox `arguments` ask for (see `SandboxPlan`); a no-op without `--sandbox`.
    /// `readFiles`: files to allow reading through descriptors already open on them (path, fd).
    public static func apply(_ arguments: [String], file: String, readFiles: [(path: String, fd: Int32)] = []) {
        let plan = SandboxPlan(arguments: arguments)
        guard plan.enabled else { return }
        var r = Report()
        r.enabled = true
        let started = CallDeadline.uptimeNow()
        if skh_prctl(38 /* PR_SET_NO_NEW_PRIVS */, 1, 0, 0, 0) != 0 { r.problems.append("PR_SET_NO_NEW_PRIVS: \(errnoText())") }
        if skh_prctl(4 /* PR_SET_DUMPABLE */, 0, 0, 0, 0) != 0 { r.problems.append("PR_SET_DUMPABLE: \(errnoText())") }
        // Without a granted port, sockets are refused by the filter where seccomp can answer with an
        // errno; elsewhere the namespace comes first (the filter then refuses `unshare`).
        let socketsByFilter = !plan.network && skh_seccomp_errno_available() == 0
        if !plan.network && !socketsByFilter, let why = Namespaces.enterEmptyNetwork() {
            r.missing.append("network-namespace (\(why))")
        }
        if let why = SeccompFilter.install(programs: plan.programs, sockets: plan.network) {
            r.missing.append(why)
            // Fail closed: the filter was to keep the network out, so the namespace does it instead.
            if socketsByFilter, let ns = Namespaces.enterEmptyNetwork() {
                r.missing.append("network isolation (the seccomp filter could not be installed to deny sockets, and no network namespace could be made either: \(ns))")
            }
        }
        if let why = Namespaces.dropCapabilities() { r.problems.append(why) }

        r.landlockABI = Landlock.abi
        if r.landlockABI == 0 {
            r.missing.append("landlock (no Landlock in this kernel, or disabled at boot: files and TCP ports are not restricted)")
        } else {
            var rules = SystemPaths.rules(network: plan.network, programs: plan.programs)
            rules.append(Landlock.Rule(path: file, access: Landlock.readFile))
            rules += plan.read.map { Landlock.Rule(path: $0, access: Landlock.readOnly) }
            rules += readFiles.map { Landlock.Rule(path: $0.path, access: Landlock.readFile, fd: $0.fd) }
            rules += plan.write.map { Landlock.Rule(path: $0, access: Landlock.readWrite) }
            r.problems += Landlock.restrict(rules, ports: plan.ports, abi: r.landlockABI, missing: &r.missing)
            if plan.network && r.landlockABI < 4 {
                r.missing.append("port filtering (this kernel's Landlock cannot restrict TCP ports: the granted network reaches every port)")
            }
        }
        r.applyMicros = Int((CallDeadline.uptimeNow() - started) / 1000)
        report = r
    }
}

/// Namespaces and capabilities.
enum Namespaces {
    /// Moves the process into a new network namespace. Nil on success, else why not.
    static func enterEmptyNetwork() -> String? {
        let newNet: Int32 = 0x4000_0000, newUser: Int32 = 0x1000_0000
        if geteuid() == 0, skh_unshare(newNet) == 0 { return nil }
        let uid = getuid(), gid = getgid()
        guard skh_unshare(newUser | newNet) == 0 else { return "unshare: \(errnoText())" }
        // Map this user's ids to themselves (setgroups must be denied before an unprivileged gid_map).
        _ = writeFile("/proc/self/setgroups", "deny")
        if !writeFile("/proc/self/uid_map", "\(uid) \(uid) 1") || !writeFile("/proc/self/gid_map", "\(gid) \(gid) 1") {
            return nil  // still isolated from the network; only the ids show as the overflow id
        }
        return nil
    }

    /// Drops every capability: the bounding set first (needs CAP_SETPCAP, so while we still have it),
    /// then the process's own sets. Nil on success.
    static func dropCapabilities() -> String? {
        // Until the first refusal: EINVAL one past the kernel's last capability, EPERM for each one
        // without CAP_SETPCAP (a plain user's worker, whose bounding set NO_NEW_PRIVS already makes moot).
        for cap in UInt(0)..<64 where skh_prctl(24 /* PR_CAPBSET_DROP */, cap, 0, 0, 0) != 0 { break }
        _ = skh_prctl(47 /* PR_CAP_AMBIENT */, 4 /* PR_CAP_AMBIENT_CLEAR_ALL */, 0, 0, 0)
        return skh_drop_all_capabilities() == 0 ? nil : "capset: \(errnoText())"
    }

    private static func writeFile(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return text.withCString { write(fd, $0, strlen($0)) } == strlen(text)
    }
}

/// What any worker needs to read to run, whatever its grants: never /etc or /tmp or the home folder
/// wholesale, never execute rights unless programs are granted.
enum SystemPaths {
    static func rules(network: Bool, programs: Bool) -> [Landlock.Rule] {
        let ro = Landlock.readOnly
        var paths = [
            // Shared libraries, the dynamic loader's cache, time zone data (/etc/localtime links into
            // /usr/share/zoneinfo), locale data.
            "/usr", "/lib", "/lib64", "/etc/ld.so.cache", "/etc/localtime", "/etc/timezone",
            // Who the user is (no secrets: /etc/shadow stays out), name service switch.
            "/etc/passwd", "/etc/group", "/etc/nsswitch.conf",
            // What the process reads about itself and the machine: Dispatch reads /proc/TID/stat of its
            // own worker threads (and crashes if it cannot), which no rule made before those threads
            // exist can name, so /proc is readable. Another process's memory, environment, file
            // descriptors and maps stay closed: Landlock refuses ptrace-class access to processes
            // outside the worker's domain, and the host is not dumpable. What /proc shows of other
            // processes to any user (command lines, status) is visible (Docs/Isolation.md).
            "/proc", "/sys/devices/system/cpu",
            "/dev/urandom", "/dev/random",
        ]
        if let runtime = swiftRuntimeFolder() { paths.append(runtime) }
        if network {
            paths += ["/etc/hosts", "/etc/resolv.conf", "/etc/host.conf", "/etc/gai.conf", "/etc/ssl", "/etc/ca-certificates",
                      "/etc/pki", "/run/systemd/resolve"]
        }
        // A rule is made on the descriptor that opening the path gives, which follows symbolic links:
        // a rule on /lib is a rule on what it points to, and so is one on /etc/localtime.
        var rules = paths.map { Landlock.Rule(path: $0, access: ro) }
        rules.append(Landlock.Rule(path: "/dev/null", access: Landlock.readFile | Landlock.writeFile))
        rules.append(Landlock.Rule(path: "/dev/zero", access: Landlock.readFile))
        if programs {
            for p in ["/usr", "/bin", "/sbin", "/lib", "/lib64"] {
                rules.append(Landlock.Rule(path: p, access: ro | Landlock.execute))
            }
        }
        return rules
    }

    /// The folder of the Swift runtime this worker (and every Swift skill) uses.
    static func swiftRuntimeFolder() -> String? {
        guard let name = skh_loaded_library_path("libswiftCore.so"), let slash = strrchr(name, 0x2f) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: name, count: name.distance(to: slash)), as: UTF8.self)
    }
}

extension Sandbox {
    /// Adds `"sandbox":{"mode":"full"|"partial"|"off","landlockABI":N,"applyMicros":N,"missing":[…],
    /// "problems":[…]}` to the hello frame.
    public static func writeHello(_ f: inout Line) {
        let r = report
        f.key(.sandbox); f.raw("{")
        f.key("mode"); f.quoted(r.mode)
        f.key("landlockABI"); f.number(r.landlockABI)
        f.key("applyMicros"); f.number(r.applyMicros)
        f.key("missing"); f.strings(r.missing)
        f.key("problems"); f.strings(r.problems)
        f.raw("}")
    }
}

extension Sandbox {
    /// The scan process (`skillhost-scan -`) runs skills' static initializers and entry
    /// functions too: it gets the sandbox with nothing granted — read-only the files it reads, no
    /// network, no writes, no programs — before the first dlopen. Nobody reads its report: what the
    /// kernel lacks is reported by the workers (the same kernel). Each file's read rule is made from
    /// the descriptor the host handed over (`fd`: nil when its spec was unreadable — the file is then
    /// refused before anything loads it), not by looking its path up again: 200 files cost 200
    /// `landlock_add_rule` calls instead of 200 × open, fstat, add, close.
    public static func applyForScan(files: [(path: String, fd: Int32?)]) {
        apply(["--sandbox"], file: "/nonexistent",
              readFiles: files.compactMap { f in f.fd.map { (f.path, $0) } })
    }
}

/// The text of the current `errno`.
func errnoText() -> String { String(cString: strerror(errno)) }
