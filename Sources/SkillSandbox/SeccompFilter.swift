import Glibc
import SkillSandboxC

/// A seccomp-bpf filter that answers the system calls a skill has no business making with an errno
/// (never by killing the process: a skill that tries something it may not do gets an error it can
/// report, and one call can try many things). Everything else is allowed; Landlock decides what files
/// and TCP ports those calls can reach, and without a granted port this filter refuses sockets itself.
///
/// Denied with EPERM: ptrace, process_vm_readv/writev, kcmp, pidfd_getfd; mount, umount2, the new
/// mount API (fsopen, fsconfig, fsmount, fspick, move_mount, open_tree, mount_setattr), pivot_root,
/// chroot; bpf, perf_event_open, userfaultfd; keyctl, add_key, request_key; init_module, finit_module,
/// delete_module; kexec_load, kexec_file_load, reboot, swapon/swapoff, acct, quotactl, syslog, vhangup,
/// settimeofday, clock_settime, adjtimex, clock_adjtime; open_by_handle_at, name_to_handle_at;
/// io_uring_setup/enter/register (their operations would bypass this filter); unshare, setns;
/// personality; iopl, ioperm, uselib (x86_64); ioctl TIOCSTI and TIOCLINUX (typing into a terminal);
/// clone with any CLONE_NEW* flag; socket(AF_PACKET, …), socket(…, SOCK_RAW, …) in any family,
/// socket(AF_UNIX, …) with EACCES (named unix sockets such as a container daemon's are not covered by
/// Landlock on these kernels; socketpair stays allowed). Without a granted port (`sockets: false`),
/// every other socket() too, and bind, connect and datagram socketpairs, all with EACCES: the worker
/// can reach no network (see `Sandbox`, step 2), and it shares the host's network namespace, whose
/// abstract unix socket names a bound, re-pointed or addressed unix socket would reach (a datagram
/// socket's sendto with an address goes wherever the address says; the stream and seqpacket sockets
/// the worker holds ignore or refuse one).
/// Unless programs are granted: execve, execveat (EACCES), fork, vfork, and clone without
/// CLONE_THREAD (EAGAIN, as for a process limit). clone3 always gets ENOSYS: its flags are in memory
/// the filter cannot read, and glibc then falls back to clone, which the filter can inspect.
/// A system call made with another architecture's convention (i386 `int 0x80` on x86_64, x32) gets
/// ENOSYS.
enum SeccompFilter {
    // struct seccomp_data offsets
    private static let nrOffset: UInt32 = 0
    private static let archOffset: UInt32 = 4
    private static let arg0Low: UInt32 = 16
    private static let arg1Low: UInt32 = 24

    #if arch(x86_64)
    private static let auditArch: UInt32 = 0xC000_003E  // AUDIT_ARCH_X86_64
    #elseif arch(arm64)
    private static let auditArch: UInt32 = 0xC000_00B7  // AUDIT_ARCH_AARCH64
    #endif

    private static let allow: UInt32 = 0x7fff_0000  // SECCOMP_RET_ALLOW
    private static func errno(_ e: Int32) -> UInt32 { 0x0005_0000 | (UInt32(e) & 0xffff) }  // SECCOMP_RET_ERRNO

    private static let cloneNewFlags: UInt32 = 0x0000_0080 /* NEWTIME */ | 0x0002_0000 /* NEWNS */ | 0x0200_0000 /* NEWCGROUP */
        | 0x0400_0000 /* NEWUTS */ | 0x0800_0000 /* NEWIPC */ | 0x1000_0000 /* NEWUSER */ | 0x2000_0000 /* NEWPID */ | 0x4000_0000 /* NEWNET */
    private static let cloneThread: UInt32 = 0x0001_0000

    /// System calls denied outright with EPERM.
    static var denied: [Int32] {
        var list: [Int32] = [
            SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, SYS_kcmp, 438 /* pidfd_getfd */,
            SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot,
            428 /* open_tree */, 429 /* move_mount */, 430 /* fsopen */, 431 /* fsconfig */, 432 /* fsmount */, 433 /* fspick */, 442 /* mount_setattr */,
            SYS_bpf, SYS_perf_event_open, SYS_userfaultfd,
            SYS_keyctl, SYS_add_key, SYS_request_key,
            SYS_init_module, SYS_finit_module, SYS_delete_module,
            SYS_kexec_load, SYS_kexec_file_load, SYS_reboot, SYS_swapon, SYS_swapoff, SYS_acct, SYS_quotactl, SYS_syslog, SYS_vhangup,
            SYS_settimeofday, SYS_clock_settime, SYS_adjtimex, SYS_clock_adjtime,
            SYS_open_by_handle_at, SYS_name_to_handle_at,
            425 /* io_uring_setup */, 426 /* io_uring_enter */, 427 /* io_uring_register */,
            SYS_unshare, SYS_setns, SYS_personality,
        ]
        #if arch(x86_64)
        list += [SYS_iopl, SYS_ioperm, SYS_uselib]
        #endif
        return list
    }

    /// The filter program for a skill with or without the right to run programs, and with or without
    /// sockets (a granted port). Its length is what the kernel compiles when the filter is installed
    /// and what every system call runs through: the denied numbers are checked as runs of consecutive
    /// numbers (two or three instructions a run).
    static func program(programs: Bool, sockets: Bool) -> [sock_filter] {
        var p: [sock_filter] = []
        func stmt(_ code: Int32, _ k: UInt32) { p.append(sock_filter(code: UInt16(code), jt: 0, jf: 0, k: k)) }
        func jump(_ code: Int32, _ k: UInt32, _ jt: UInt8, _ jf: UInt8) { p.append(sock_filter(code: UInt16(code), jt: jt, jf: jf, k: k)) }
        let ldW = BPF_LD | BPF_W | BPF_ABS
        let ret = BPF_RET | BPF_K
        let jeq = BPF_JMP | BPF_JEQ | BPF_K
        let jset = BPF_JMP | BPF_JSET | BPF_K
        /// `if nr == n { return action }`
        func deny(_ n: Int32, _ action: UInt32) {
            jump(jeq, UInt32(bitPattern: n), 0, 1)
            stmt(ret, action)
        }

        stmt(ldW, archOffset)
        jump(jeq, auditArch, 1, 0)
        stmt(ret, errno(ENOSYS))
        stmt(ldW, nrOffset)
        #if arch(x86_64)
        jump(BPF_JMP | BPF_JGE | BPF_K, 0x4000_0000, 0, 1)  // __X32_SYSCALL_BIT
        stmt(ret, errno(ENOSYS))
        #endif
        for run in runs(of: denied) {
            if run.lowerBound == run.upperBound { deny(run.lowerBound, errno(EPERM)); continue }
            // `if first <= nr && nr <= last { return EPERM }`
            jump(BPF_JMP | BPF_JGE | BPF_K, UInt32(bitPattern: run.lowerBound), 0, 2)
            jump(BPF_JMP | BPF_JGT | BPF_K, UInt32(bitPattern: run.upperBound), 1, 0)
            stmt(ret, errno(EPERM))
        }
        deny(435 /* clone3 */, errno(ENOSYS))
        if !programs {
            deny(SYS_execve, errno(EACCES))
            deny(SYS_execveat, errno(EACCES))
            #if arch(x86_64)
            deny(SYS_fork, errno(EAGAIN))
            deny(SYS_vfork, errno(EAGAIN))
            #endif
        }

        /// `if nr == n { body }`: `body` ends in returns; other numbers jump over it.
        func onSyscall(_ n: Int32, _ body: () -> Void) {
            let at = p.count
            jump(jeq, UInt32(bitPattern: n), 0, 0)
            body()
            p[at].jf = UInt8(p.count - at - 1)
        }

        if !sockets {
            deny(Int32(SYS_bind), errno(EACCES))
            deny(Int32(SYS_connect), errno(EACCES))
            // socketpair(domain, type, …): stream and seqpacket pairs only.
            onSyscall(Int32(SYS_socketpair)) {
                stmt(ldW, arg1Low)
                stmt(BPF_ALU | BPF_AND | BPF_K, 0xf)  // SOCK_TYPE_MASK
                jump(jeq, UInt32(SOCK_DGRAM.rawValue), 0, 1); stmt(ret, errno(EACCES))
                stmt(ret, allow)
            }
        }
        // clone(flags, …): no new namespaces; without programs, threads only.
        onSyscall(Int32(SYS_clone)) {
            stmt(ldW, arg0Low)
            jump(jset, cloneNewFlags, 0, 1); stmt(ret, errno(EPERM))
            if !programs { jump(jset, cloneThread, 1, 0); stmt(ret, errno(EAGAIN)) }
            stmt(ret, allow)
        }
        // socket(domain, type, protocol)
        onSyscall(Int32(SYS_socket)) {
            stmt(ldW, arg0Low)
            jump(jeq, UInt32(AF_PACKET), 0, 1); stmt(ret, errno(EPERM))
            jump(jeq, UInt32(AF_UNIX), 0, 1); stmt(ret, errno(EACCES))
            stmt(ldW, arg1Low)
            stmt(BPF_ALU | BPF_AND | BPF_K, 0xf)  // SOCK_TYPE_MASK
            jump(jeq, UInt32(SOCK_RAW.rawValue), 0, 1); stmt(ret, errno(EPERM))
            stmt(ret, sockets ? allow : errno(EACCES))
        }
        // ioctl(fd, request, …): no typing into a terminal.
        onSyscall(Int32(SYS_ioctl)) {
            stmt(ldW, arg1Low)
            jump(jeq, 0x5412 /* TIOCSTI */, 1, 0); jump(jeq, 0x541C /* TIOCLINUX */, 0, 1); stmt(ret, errno(EPERM))
            stmt(ret, allow)
        }

        stmt(ret, allow)
        return p
    }

    /// `numbers` as runs of consecutive numbers, ascending.
    static func runs(of numbers: [Int32]) -> [ClosedRange<Int32>] {
        var out: [ClosedRange<Int32>] = []
        for n in numbers.sorted() {
            if let last = out.last, n <= last.upperBound + 1 {
                out[out.count - 1] = last.lowerBound...max(n, last.upperBound)
            } else {
                out.append(n...n)
            }
        }
        return out
    }

    /// Installs the filter on every thread of the process (SECCOMP_FILTER_FLAG_TSYNC). Nil on success,
    /// else what `Sandbox.Report.missing` lists: "seccomp filter (not installed: REASON; …)".
    static func install(programs: Bool, sockets: Bool) -> String? {
        let p = program(programs: programs, sockets: sockets)
        let rc = p.withUnsafeBufferPointer { skh_seccomp_set_filter($0.baseAddress, UInt16(p.count), 1 /* TSYNC */) }
        guard rc != 0 else { return nil }
        let why = Glibc.errno == ENOMEM
            ? "filters this process inherited, from a container runtime or the program that started skillhost, already use the kernel's 32768 instructions"
            : errnoText()
        return "seccomp filter (not installed: \(why); none of the system calls it refuses is refused)"
    }
}
