import Foundation
import Glibc

/// What the bench reads from /proc: which children are workers, their memory, their I/O counters.
/// Never inside a timed region.
enum ProcTable {
    /// A whole /proc file (their size reads as 0, so read until end-of-file); nil if it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { return out }
            out += chunk[0..<n]
        }
    }

    static func text(_ path: String) -> String? { read(path).map { String(decoding: $0, as: UTF8.self) } }

    /// The pids whose parent is `parent` (from /proc/PID/stat: the field after the state, which
    /// follows the last ')' of the command name).
    static func children(of parent: pid_t) -> [pid_t] {
        guard let dir = opendir("/proc") else { return [] }
        defer { closedir(dir) }
        var out: [pid_t] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard let pid = pid_t(name), let stat = text("/proc/\(name)/stat"),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == parent { out.append(pid) }
        }
        return out.sorted()
    }

    /// argv of `pid` (NUL-separated /proc/PID/cmdline).
    static func cmdline(_ pid: pid_t) -> [String] {
        guard let bytes = read("/proc/\(pid)/cmdline") else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            .filter { !$0.isEmpty }
    }

    /// This process's children that are `skillhost-worker serve FILE …`, with FILE.
    static func workers() -> [(pid: pid_t, file: String)] {
        children(of: getpid()).compactMap { pid in
            let argv = cmdline(pid)
            guard argv.count >= 3, argv[0].hasSuffix("skillhost-worker"), argv[1] == "serve" else { return nil }
            return (pid, argv[2])
        }
    }

    /// The one worker child serving a file whose name is `fileName`; nil if none (or not exactly one).
    static func worker(serving fileName: String) -> pid_t? {
        let hits = workers().filter { $0.file.hasSuffix("/" + fileName) || $0.file == fileName }
        return hits.count == 1 ? hits[0].pid : nil
    }

    /// `read()` byte and call counters of `pid` (/proc/PID/io: rchar, syscr); nil where not readable.
    /// Bytes received with read() count; bytes sent with send() do not (the kernel counts write() only).
    static func io(_ pid: pid_t) -> (rchar: Int, syscr: Int)? {
        guard let t = text("/proc/\(pid)/io") else { return nil }
        var r: Int?, c: Int?
        for line in t.split(separator: "\n") {
            let kv = line.split(separator: ":")
            guard kv.count == 2 else { continue }
            let v = Int(kv[1].trimmingCharacters(in: .whitespaces))
            if kv[0] == "rchar" { r = v }
            if kv[0] == "syscr" { c = v }
        }
        guard let r, let c else { return nil }
        return (r, c)
    }
}

/// The memory of one process, in kB.
struct ProcMemory {
    var rss: Int
    /// Proportional set size: shared pages divided among the processes that map them. nil where
    /// /proc/PID/smaps_rollup is not available.
    var pss: Int?
    /// Unique set size: Private_Clean + Private_Dirty (what ending the process would give back).
    var uss: Int?
    /// Anonymous resident memory (heap, stacks).
    var anon: Int
    /// Address space (VmSize), what RLIMIT_AS counts.
    var vmSize: Int
    var threads: Int
    /// "smaps_rollup" or "status".
    var source: String

    static func read(_ pid: pid_t) -> ProcMemory? {
        guard let status = ProcTable.text("/proc/\(pid)/status") else { return nil }
        let st = fields(status)
        var m = ProcMemory(rss: st["VmRSS"] ?? 0, pss: nil, uss: nil, anon: st["RssAnon"] ?? 0, vmSize: st["VmSize"] ?? 0,
                           threads: st["Threads"] ?? 0, source: "status")
        if let rollup = ProcTable.text("/proc/\(pid)/smaps_rollup") {
            let r = fields(rollup)
            if let rss = r["Rss"], let pss = r["Pss"] {
                m.rss = rss
                m.pss = pss
                m.uss = (r["Private_Clean"] ?? 0) + (r["Private_Dirty"] ?? 0)
                m.anon = r["Anonymous"] ?? m.anon
                m.source = "smaps_rollup"
            }
        }
        return m
    }

    /// "Key:   123 kB" lines → [Key: 123].
    private static func fields(_ text: String) -> [String: Int] {
        var out: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            let rest = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let first = rest.first, let v = Int(first) { out[key] = v }
        }
        return out
    }
}

/// CPU time and context switches of a whole process, for "CPU per call" next to the wall time.
struct CPUCount {
    /// On-CPU time, ns.
    var ns: UInt64
    /// Voluntary + involuntary context switches.
    var switches: Int

    static func - (a: CPUCount, b: CPUCount) -> CPUCount {
        CPUCount(ns: a.ns &- b.ns, switches: a.switches - b.switches)
    }

    static func + (a: CPUCount, b: CPUCount) -> CPUCount { CPUCount(ns: a.ns + b.ns, switches: a.switches + b.switches) }

    static let zero = CPUCount(ns: 0, switches: 0)

    /// This process, every thread, including threads that have ended (getrusage).
    static func ownProcess() -> CPUCount {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        let us = (Int(u.ru_utime.tv_sec) + Int(u.ru_stime.tv_sec)) * 1_000_000 + Int(u.ru_utime.tv_usec) + Int(u.ru_stime.tv_usec)
        return CPUCount(ns: UInt64(us) * 1000, switches: u.ru_nvcsw + u.ru_nivcsw)
    }

    /// Another process: the sum over its live threads of /proc/PID/task/TID/schedstat (on-CPU ns) and
    /// the context switches in their status files. A thread that ends between two readings takes its
    /// counts with it (workers keep theirs: a reader, a Dispatch pool that idles for seconds).
    static func process(_ pid: pid_t) -> CPUCount? {
        guard let dir = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(dir) }
        var total = CPUCount.zero
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard Int(name) != nil else { continue }
            if let s = ProcTable.text("/proc/\(pid)/task/\(name)/schedstat"), let first = s.split(separator: " ").first, let ns = UInt64(first) {
                total.ns += ns
            }
            if let st = ProcTable.text("/proc/\(pid)/task/\(name)/status") {
                for line in st.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
                    total.switches += Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? "") ?? 0
                }
            }
        }
        return total
    }
}
