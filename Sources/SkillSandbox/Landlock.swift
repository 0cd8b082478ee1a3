import Glibc
import SkillSandboxC

/// Landlock (Linux ≥ 5.13): file system access rules, TCP port rules (ABI 4, Linux 6.7) and scoping
/// of signals and abstract unix sockets (ABI 6, Linux 6.12), for this process and everything it starts.
///
/// The rights this code asks the kernel to handle are every right the running kernel's ABI knows, so
/// anything not allowed by a rule below is denied (EACCES for files, EACCES for TCP connect/bind,
/// EPERM for signals out of the domain). Rules are added to an O_PATH descriptor of each path, so a
/// rule follows the file even if it is renamed; paths that do not exist are skipped.
enum Landlock {
    // Access rights (include/uapi/linux/landlock.h), with the ABI that added them.
    static let execute: UInt64 = 1 << 0
    static let writeFile: UInt64 = 1 << 1
    static let readFile: UInt64 = 1 << 2
    static let readDir: UInt64 = 1 << 3
    static let removeDir: UInt64 = 1 << 4
    static let removeFile: UInt64 = 1 << 5
    static let makeChar: UInt64 = 1 << 6
    static let makeDir: UInt64 = 1 << 7
    static let makeReg: UInt64 = 1 << 8
    static let makeSock: UInt64 = 1 << 9
    static let makeFifo: UInt64 = 1 << 10
    static let makeBlock: UInt64 = 1 << 11
    static let makeSym: UInt64 = 1 << 12
    static let refer: UInt64 = 1 << 13      // ABI 2
    static let truncate: UInt64 = 1 << 14   // ABI 3
    static let ioctlDev: UInt64 = 1 << 15   // ABI 5
    static let bindTCP: UInt64 = 1 << 0     // ABI 4, network
    static let connectTCP: UInt64 = 1 << 1  // ABI 4, network
    static let scopeAbstractUnix: UInt64 = 1 << 0  // ABI 6
    static let scopeSignal: UInt64 = 1 << 1        // ABI 6

    /// Rights that only make sense on a file (a rule on a file may carry only these).
    static let fileRights = execute | writeFile | readFile | truncate | ioctlDev

    /// The highest Landlock ABI the kernel supports; 0 when Landlock is missing or disabled.
    static var abi: Int {
        let v = skh_landlock_create_ruleset(nil, 0, 1 /* LANDLOCK_CREATE_RULESET_VERSION */)
        return v < 0 ? 0 : Int(v)
    }

    /// Every file system right the kernel knows at `abi`.
    static func handledFS(abi: Int) -> UInt64 {
        var all: UInt64 = (1 << 13) - 1
        if abi >= 2 { all |= refer }
        if abi >= 3 { all |= truncate }
        if abi >= 5 { all |= ioctlDev }
        return all
    }

    static let readOnly = readFile | readDir
    /// Read-write without execute and without device nodes (MAKE_CHAR, MAKE_BLOCK).
    static let readWrite = readFile | readDir | writeFile | removeDir | removeFile | makeDir | makeReg
        | makeSock | makeFifo | makeSym | refer | truncate

    struct Rule {
        var path: String
        var access: UInt64
        /// A descriptor already open on the file (the scan process's checked skill files): the rule
        /// is made from it, with no second lookup of `path` (which then only names it in messages).
        var fd: Int32? = nil
    }

    /// Builds the ruleset and restricts this thread (and, through inheritance, everything started
    /// afterwards) to it. Returns problems as text; an empty list means every rule is in force.
    /// `ports`: TCP connect is allowed to exactly these ports (none: to no port) and bind to none.
    static func restrict(_ rules: [Rule], ports: [UInt16], abi: Int, missing: inout [String]) -> [String] {
        var problems: [String] = []
        let handled = handledFS(abi: abi)
        var attr = skh_landlock_ruleset_attr(handled_access_fs: handled, handled_access_net: 0, scoped: 0)
        var size = 8
        if abi >= 4 {
            attr.handled_access_net = bindTCP | connectTCP
            size = 16
        } else {
            missing.append("landlock-network (needs Landlock ABI 4, Linux 6.7)")
        }
        if abi >= 6 {
            attr.scoped = scopeAbstractUnix | scopeSignal
            size = 24
        } else {
            missing.append("landlock-scoping (signals and abstract unix sockets; needs Landlock ABI 6, Linux 6.12)")
        }
        let ruleset = skh_landlock_create_ruleset(&attr, size, 0)
        guard ruleset >= 0 else { return ["landlock_create_ruleset: \(errnoText())"] }
        defer { close(ruleset) }
        for r in rules {
            let fd = r.fd ?? skh_open_path(r.path)
            guard fd >= 0 else { continue }  // not on this system: nothing to allow
            var access = r.access & handled
            if r.fd != nil {
                access &= fileRights  // a skill file, never a folder
            } else {
                var st = stat()
                fstat(fd, &st)
                if (st.st_mode & S_IFMT) != S_IFDIR { access &= fileRights }
            }
            if access != 0, skh_landlock_add_path_rule(ruleset, access, fd) != 0 {
                problems.append("landlock rule for \(r.path): \(errnoText())")
            }
            if r.fd == nil { close(fd) }
        }
        if abi >= 4 {
            for p in ports where skh_landlock_add_port_rule(ruleset, connectTCP, UInt64(p)) != 0 {
                problems.append("landlock rule for TCP port \(p): \(errnoText())")
            }
        }
        if skh_landlock_restrict_self(ruleset, 0) != 0 {
            problems.append("landlock_restrict_self: \(errnoText())")
        }
        return problems
    }
}
