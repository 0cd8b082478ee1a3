import Glibc
import SkillSandboxC
import XCTest
@testable import SkillSandbox

/// `SeccompFilter.program` run instruction by instruction (a classic-BPF interpreter for the
/// instructions it uses) on every system call number: exactly the denied numbers get EPERM (a run
/// one number too long or too short fails here), the special cases answer as the filter's doc says,
/// and the program stays within the kernel's bounds. `runs(of:)` is tested on its own.
final class SeccompFilterTests: XCTestCase {
    private static let allow: UInt32 = 0x7fff_0000
    private static func errno(_ e: Int32) -> UInt32 { 0x0005_0000 | UInt32(e) }

    #if arch(x86_64)
    private static let arch: UInt32 = 0xC000_003E
    #elseif arch(arm64)
    private static let arch: UInt32 = 0xC000_00B7
    #endif

    /// What `program` answers for one system call (`struct seccomp_data`: nr, arch, ip, args).
    private func run(_ p: [sock_filter], _ nr: Int32, _ args: [UInt64] = [], arch: UInt32 = arch) -> UInt32? {
        var data = [UInt32](repeating: 0, count: 16)
        data[0] = UInt32(bitPattern: nr)
        data[1] = arch
        for (k, a) in args.enumerated() {
            data[4 + 2 * k] = UInt32(truncatingIfNeeded: a)
            data[5 + 2 * k] = UInt32(truncatingIfNeeded: a >> 32)
        }
        var acc: UInt32 = 0, pc = 0
        while pc < p.count {
            let i = p[pc]
            pc += 1
            switch Int32(i.code) {
            case BPF_LD | BPF_W | BPF_ABS: acc = data[Int(i.k) / 4]
            case BPF_ALU | BPF_AND | BPF_K: acc &= i.k
            case BPF_RET | BPF_K: return i.k
            case BPF_JMP | BPF_JEQ | BPF_K: pc += Int(acc == i.k ? i.jt : i.jf)
            case BPF_JMP | BPF_JGE | BPF_K: pc += Int(acc >= i.k ? i.jt : i.jf)
            case BPF_JMP | BPF_JGT | BPF_K: pc += Int(acc > i.k ? i.jt : i.jf)
            case BPF_JMP | BPF_JSET | BPF_K: pc += Int(acc & i.k != 0 ? i.jt : i.jf)
            default: XCTFail("an instruction the interpreter does not know: \(i.code)"); return nil
            }
        }
        XCTFail("the program ran past its end for system call \(nr)")
        return nil
    }

    private static let plans: [(programs: Bool, sockets: Bool)] = [(false, false), (false, true), (true, false), (true, true)]

    // MARK: - runs(of:)

    func testRunsCollapseConsecutiveNumbersAndNothingElse() {
        XCTAssertEqual(SeccompFilter.runs(of: []), [])
        XCTAssertEqual(SeccompFilter.runs(of: [7]), [7...7])
        XCTAssertEqual(SeccompFilter.runs(of: [4, 5, 6]), [4...6])
        XCTAssertEqual(SeccompFilter.runs(of: [4, 6]), [4...4, 6...6], "a gap of one number splits a run")
        XCTAssertEqual(SeccompFilter.runs(of: [1, 2, 4, 5, 9]), [1...2, 4...5, 9...9])
        XCTAssertEqual(SeccompFilter.runs(of: [9, 2, 1, 5, 4]), [1...2, 4...5, 9...9], "unsorted input")
        XCTAssertEqual(SeccompFilter.runs(of: [3, 3, 4, 4, 3, 8, 8]), [3...4, 8...8], "duplicates")
        XCTAssertEqual(SeccompFilter.runs(of: [-1, 0, 1]), [-1...1])
    }

    /// On many random sets: the runs cover exactly the set, ascend, and never touch each other.
    func testRunsCoverExactlyTheNumbersOnRandomSets() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let numbers = (0..<Int.random(in: 0...40, using: &rng)).map { _ in Int32.random(in: 0...60, using: &rng) }
            let runs = SeccompFilter.runs(of: numbers)
            XCTAssertEqual(Set(runs.flatMap { Array($0) }), Set(numbers), "\(numbers)")
            XCTAssertEqual(runs.map(\.count).reduce(0, +), Set(numbers).count, "no number in two runs: \(numbers)")
            for (a, b) in zip(runs, runs.dropFirst()) { XCTAssertGreaterThan(b.lowerBound, a.upperBound + 1, "\(numbers)") }
        }
    }

    // MARK: - program

    /// Every number outside the special cases: EPERM exactly for the denied ones. The numbers on
    /// either side of each run are among them, so a run off by one fails.
    func testExactlyTheDeniedNumbersGetEPERM() throws {
        let denied = Set(SeccompFilter.denied)
        XCTAssertLessThan(SeccompFilter.runs(of: SeccompFilter.denied).count, denied.count, "some numbers share a run")
        let special: Set<Int32> = [435 /* clone3 */, Int32(SYS_execve), Int32(SYS_execveat), Int32(SYS_fork), Int32(SYS_vfork),
                                   Int32(SYS_bind), Int32(SYS_connect), Int32(SYS_socketpair), Int32(SYS_clone), Int32(SYS_socket), Int32(SYS_ioctl)]
        for plan in Self.plans {
            let p = SeccompFilter.program(programs: plan.programs, sockets: plan.sockets)
            for nr in Int32(0)..<600 where !special.contains(nr) {
                XCTAssertEqual(run(p, nr), denied.contains(nr) ? Self.errno(EPERM) : Self.allow, "system call \(nr), plan \(plan)")
            }
        }
    }

    func testAnotherArchitecturesCallsGetENOSYS() {
        let p = SeccompFilter.program(programs: true, sockets: true)
        XCTAssertEqual(run(p, Int32(SYS_getpid), arch: 0x4000_0003 /* AUDIT_ARCH_I386 */), Self.errno(ENOSYS))
        #if arch(x86_64)
        XCTAssertEqual(run(p, 0x4000_0000 | Int32(SYS_getpid)), Self.errno(ENOSYS), "x32")
        #endif
        XCTAssertEqual(run(p, Int32(SYS_getpid)), Self.allow)
        XCTAssertEqual(run(p, 435 /* clone3 */), Self.errno(ENOSYS))
    }

    /// Without a granted port: socket() in every family, bind, connect and datagram socketpairs get
    /// EACCES; stream and seqpacket pairs stay allowed. With one, only unix, packet and raw sockets
    /// are refused.
    func testANoNetworkPlanDeniesSocketBindConnectAndDatagramPairs() {
        let socket = Int32(SYS_socket), pair = Int32(SYS_socketpair)
        let stream = UInt64(SOCK_STREAM.rawValue), dgram = UInt64(SOCK_DGRAM.rawValue), raw = UInt64(SOCK_RAW.rawValue)
        let seqpacket = UInt64(SOCK_SEQPACKET.rawValue), cloexec = UInt64(SOCK_CLOEXEC.rawValue), nonblock = UInt64(SOCK_NONBLOCK.rawValue)
        let (inet, inet6, unix, packet) = (UInt64(AF_INET), UInt64(AF_INET6), UInt64(AF_UNIX), UInt64(AF_PACKET))
        for programs in [false, true] {
            let off = SeccompFilter.program(programs: programs, sockets: false)
            let on = SeccompFilter.program(programs: programs, sockets: true)
            XCTAssertEqual(run(off, socket, [inet, stream]), Self.errno(EACCES))
            XCTAssertEqual(run(off, socket, [inet6, dgram | cloexec]), Self.errno(EACCES))
            XCTAssertEqual(run(off, socket, [unix, stream]), Self.errno(EACCES))
            XCTAssertEqual(run(off, socket, [packet, raw]), Self.errno(EPERM))
            XCTAssertEqual(run(off, socket, [inet, raw]), Self.errno(EPERM))
            XCTAssertEqual(run(off, Int32(SYS_bind)), Self.errno(EACCES))
            XCTAssertEqual(run(off, Int32(SYS_connect)), Self.errno(EACCES))
            XCTAssertEqual(run(off, pair, [unix, dgram]), Self.errno(EACCES))
            XCTAssertEqual(run(off, pair, [unix, dgram | cloexec | nonblock]), Self.errno(EACCES))
            XCTAssertEqual(run(off, pair, [unix, stream | cloexec]), Self.allow)
            XCTAssertEqual(run(off, pair, [unix, seqpacket]), Self.allow)

            XCTAssertEqual(run(on, socket, [inet, stream | cloexec]), Self.allow)
            XCTAssertEqual(run(on, socket, [inet6, dgram]), Self.allow)
            XCTAssertEqual(run(on, socket, [unix, stream]), Self.errno(EACCES))
            XCTAssertEqual(run(on, socket, [packet, dgram]), Self.errno(EPERM))
            XCTAssertEqual(run(on, socket, [inet, raw]), Self.errno(EPERM))
            XCTAssertEqual(run(on, Int32(SYS_bind)), Self.allow)
            XCTAssertEqual(run(on, Int32(SYS_connect)), Self.allow)
            XCTAssertEqual(run(on, pair, [unix, dgram]), Self.allow)
        }
    }

    func testProgramsCloneAndTerminalRules() {
        let clone = Int32(SYS_clone), ioctl = Int32(SYS_ioctl)
        let thread: UInt64 = 0x0001_0000 | 0x100 | 0x200 | 0x400 | 0x800  // CLONE_THREAD | VM | FS | FILES | SIGHAND
        let forkLike = UInt64(SIGCHLD)
        for sockets in [false, true] {
            let no = SeccompFilter.program(programs: false, sockets: sockets)
            let yes = SeccompFilter.program(programs: true, sockets: sockets)
            XCTAssertEqual(run(no, Int32(SYS_execve)), Self.errno(EACCES))
            XCTAssertEqual(run(no, Int32(SYS_execveat)), Self.errno(EACCES))
            XCTAssertEqual(run(yes, Int32(SYS_execve)), Self.allow)
            XCTAssertEqual(run(no, clone, [thread]), Self.allow)
            XCTAssertEqual(run(no, clone, [forkLike]), Self.errno(EAGAIN))
            XCTAssertEqual(run(yes, clone, [forkLike]), Self.allow)
            XCTAssertEqual(run(yes, clone, [forkLike | 0x4000_0000 /* CLONE_NEWNET */]), Self.errno(EPERM))
            XCTAssertEqual(run(no, clone, [thread | 0x1000_0000 /* CLONE_NEWUSER */]), Self.errno(EPERM))
            #if arch(x86_64)
            XCTAssertEqual(run(no, Int32(SYS_fork)), Self.errno(EAGAIN))
            XCTAssertEqual(run(no, Int32(SYS_vfork)), Self.errno(EAGAIN))
            XCTAssertEqual(run(yes, Int32(SYS_fork)), Self.allow)
            #endif
            XCTAssertEqual(run(yes, ioctl, [0, 0x5412 /* TIOCSTI */]), Self.errno(EPERM))
            XCTAssertEqual(run(yes, ioctl, [0, 0x541C /* TIOCLINUX */]), Self.errno(EPERM))
            XCTAssertEqual(run(yes, ioctl, [0, 0x5413 /* TIOCGWINSZ */]), Self.allow)
        }
    }

    /// Within the kernel's bounds (BPF_MAXINSNS; every jump lands inside the program), and the denied
    /// numbers cost at most three instructions a run (not two a number).
    func testTheProgramIsShortAndEveryJumpLandsInside() {
        let runs = SeccompFilter.runs(of: SeccompFilter.denied)
        for plan in Self.plans {
            let p = SeccompFilter.program(programs: plan.programs, sockets: plan.sockets)
            XCTAssertLessThanOrEqual(p.count, 4096)
            // Header (arch and x32 checks) ≤ 6, runs ≤ 3 each, the special cases after them ≤ 50.
            XCTAssertLessThanOrEqual(p.count, 6 + 3 * runs.count + 50, "\(plan)")
            for (pc, i) in p.enumerated() where Int32(i.code) & 0x07 == BPF_JMP {
                XCTAssertLessThan(pc + 1 + Int(max(i.jt, i.jf)), p.count, "jump at \(pc), plan \(plan)")
            }
            XCTAssertEqual(Int32(p.last!.code), BPF_RET | BPF_K)
        }
    }
}
