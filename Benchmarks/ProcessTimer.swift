import Foundation
import Glibc

/// One finished child process, timed from just before `posix_spawn` to the return of `wait4`.
struct ProcessRun {
    /// Wall clock, spawn → reaped.
    var wallMs: Double
    /// User CPU of the child, including its own children that it reaped (wait4 reports the child's
    /// RUSAGE_SELF + RUSAGE_CHILDREN), so a `list` that runs the scan process counts that process too.
    var userMs: Double
    var sysMs: Double
    /// Raw wait status.
    var status: Int32

    var cpuMs: Double { userMs + sysMs }
    var exitCode: Int32? { status & 0x7f == 0 ? (status >> 8) & 0xff : nil }
}

/// Runs whole processes and measures them: `posix_spawn` + `wait4`, no shell in between.
enum ProcessTimer {
    /// Runs `executable` with `arguments` and exactly `environment`; stdin is /dev/null, stdout and
    /// stderr go to the given files (created or truncated). Everything that allocates (argv, envp,
    /// file actions) is prepared before the clock starts.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    stdout: String = "/dev/null", stderr: String = "/dev/null") -> ProcessRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var cargv = argv + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { envp.forEach { free($0) } }
        var cenv = envp + [nil]

        var pid: pid_t = 0
        let start = monotonicNs()
        let rc = posix_spawn(&pid, executable, &actions, nil, &cargv, &cenv)
        guard rc == 0 else {
            fail("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { fail("wait4 for \(executable) failed: \(String(cString: strerror(errno)))") }
        }
        let end = monotonicNs()
        func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
        return ProcessRun(wallMs: Double(end - start) / 1e6, userMs: ms(usage.ru_utime), sysMs: ms(usage.ru_stime),
                          status: status)
    }

    /// Runs a build tool (cc) and stops the bench with its output if it fails.
    static func mustSucceed(_ executable: String, _ arguments: [String], in workspace: Workspace, what: String) {
        let log = workspace.root + "/tool.log"
        let r = run(executable, arguments, environment: ProcessInfo.processInfo.environment, stdout: log, stderr: log)
        guard r.exitCode == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            fail("\(what) failed (\(executable) \(arguments.joined(separator: " "))):\n\(text)")
        }
    }

    /// Finds `name` on $PATH.
    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if access(p, X_OK) == 0 { return p }
        }
        return nil
    }
}

/// Stops the bench with a message on stderr.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("skillhost-bench: \(message)\n".utf8))
    exit(1)
}
