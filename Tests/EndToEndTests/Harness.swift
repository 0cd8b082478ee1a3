import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

// End-to-end harness: runs the REAL `skillhost` binary (which runs the real `skillhost-worker`)
// against REAL .so files copied into a fresh skill folder per test, with HOME and the XDG folders
// pointing into the test's own temporary directory, so tests never touch the user's files or each
// other's. The misbehaving C fixtures and the C units skill are built once per test run.

/// What one run of a program did.
struct CommandResult {
    var arguments: [String]
    var exitCode: Int32
    var stdout: String
    var stderr: String
    /// Wall-clock seconds from start to exit.
    var elapsed: TimeInterval
    /// True when the harness had to kill the program at its deadline.
    var timedOut: Bool

    /// Everything needed to understand a failed assertion.
    var summary: String {
        "`\(arguments.joined(separator: " "))` exit \(exitCode)\(timedOut ? " (killed at the harness deadline)" : "") " +
            "after \(String(format: "%.2f", elapsed)) s\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)"
    }

    /// stdout parsed as JSON (any top-level value).
    func json(file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let data = Data(stdout.utf8)
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            XCTFail("stdout is not JSON (\(error)): \(summary)", file: file, line: line)
            throw error
        }
    }

    func jsonObject(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let j = try json(file: file, line: line)
        guard let o = j as? [String: Any] else {
            XCTFail("expected a JSON object on stdout: \(summary)", file: file, line: line)
            throw HarnessError("not an object")
        }
        return o
    }

    /// The "skills" of `list --json`, checked for the one shape it has with or without --all:
    /// {"version","skills":[…],"refused":[…],"shadowed":[…],"conflicts":[…]}.
    func listedSkills(file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let o = try jsonObject(file: file, line: line)
        guard o["version"] is String, let skills = o["skills"] as? [[String: Any]], o["refused"] is [Any],
              o["shadowed"] is [Any], o["conflicts"] is [Any] else {
            XCTFail("list --json must print {\"version\",\"skills\",\"refused\",\"shadowed\",\"conflicts\"}: \(summary)", file: file, line: line)
            throw HarnessError("bad list --json shape")
        }
        return skills
    }

    /// The `member` array of a `--json` document that lists things (`health --json`: "skills",
    /// `traces --json`: "traces"), checked for its shape: {"version","MEMBER":[{…}…]}.
    func listed(_ member: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let o = try jsonObject(file: file, line: line)
        guard o["version"] is String, let a = o[member] as? [[String: Any]] else {
            XCTFail("expected {\"version\",\"\(member)\":[…]} on stdout: \(summary)", file: file, line: line)
            throw HarnessError("bad \(member) document")
        }
        return a
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Collects a pipe's bytes on a background thread.
private final class PipeCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread {
            let d = handle.readDataToEndOfFile()
            self.lock.lock()
            self.data = d
            self.lock.unlock()
            self.done.signal()
        }.start()
    }

    /// The bytes read, waiting at most `timeout` for the writer side to close.
    func result(timeout: TimeInterval) -> String {
        _ = done.wait(timeout: .now() + timeout)
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}

enum Run {
    /// Runs `executable` with `arguments` and `environment`, feeding `stdin` (or /dev/null), and kills
    /// it with SIGKILL if it has not exited after `timeout` seconds.
    static func program(_ executable: String, _ arguments: [String], environment: [String: String],
                        currentDirectory: String? = nil, stdin: Data? = nil,
                        timeout: TimeInterval = 15) -> CommandResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = environment
        if let currentDirectory { p.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input: Pipe? = stdin == nil ? nil : Pipe()
        if let input { p.standardInput = input } else { p.standardInput = FileHandle.nullDevice }
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        let start = Date()
        do { try p.run() } catch {
            return CommandResult(arguments: [executable] + arguments, exitCode: -1, stdout: "",
                                 stderr: "harness: cannot start \(executable): \(error)", elapsed: 0, timedOut: false)
        }
        let outCollector = PipeCollector(out.fileHandleForReading)
        let errCollector = PipeCollector(err.fileHandleForReading)
        if let input, let stdin {
            input.fileHandleForWriting.write(stdin)
            try? input.fileHandleForWriting.close()
        }
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            exited.wait()
        }
        let elapsed = Date().timeIntervalSince(start)
        let stdoutText = outCollector.result(timeout: 5)
        let stderrText = errCollector.result(timeout: 5)
        return CommandResult(arguments: [(executable as NSString).lastPathComponent] + arguments,
                             exitCode: timedOut ? -9 : p.terminationStatus, stdout: stdoutText, stderr: stderrText,
                             elapsed: elapsed, timedOut: timedOut)
    }
}

/// Where things are, and the fixtures built once per test run.
enum E2E {
    /// The package root, found from this file's path (Tests/EndToEndTests/Harness.swift).
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `$SKILLHOST_BIN_DIR`, else `<package root>/.build/debug`.
    static let binDir: String = {
        if let d = ProcessInfo.processInfo.environment["SKILLHOST_BIN_DIR"], !d.isEmpty { return d }
        return packageRoot + "/.build/debug"
    }()

    static var skillhostPath: String { binDir + "/skillhost" }

    /// One temporary directory for the whole run: the built fixtures live here. Removed at exit.
    static let runDirectory: String = {
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("skillhost-e2e-run.XXXXXX")
        var bytes = Array(template.utf8CString)
        let dir = bytes.withUnsafeMutableBufferPointer { buf -> String in
            guard let p = mkdtemp(buf.baseAddress!) else { return NSTemporaryDirectory() + "/skillhost-e2e-run-\(getpid())" }
            return String(cString: p)
        }
        atexit { if let d = E2E.runDirectoryIfCreated { try? FileManager.default.removeItem(atPath: d) } }
        return dir
    }()

    nonisolated(unsafe) static var runDirectoryIfCreated: String?

    /// The fixtures folder (every Tests/Fixtures/*.so plus libUnitsSkill.so), or why it could not be built.
    /// Built on first use; a global `let` is initialised exactly once even when tests run in parallel.
    static let fixtures: Result<String, HarnessError> = {
        let root = runDirectory
        runDirectoryIfCreated = root
        let dir = root + "/fixtures"
        let env = ProcessInfo.processInfo.environment
        let make = "/usr/bin/env"
        let fixtures = Run.program(make, ["make", "-s", "-j2", "-C", packageRoot + "/Tests/Fixtures", "OUT=\(dir)"],
                                   environment: env, timeout: 300)
        guard fixtures.exitCode == 0 else { return .failure(HarnessError("building the fixtures failed: \(fixtures.summary)")) }
        let units = Run.program(make, ["make", "-s", "-C", packageRoot + "/Plugins/UnitsSkill", "OUT=\(dir)"],
                                environment: env, timeout: 300)
        guard units.exitCode == 0 else { return .failure(HarnessError("building the units skill failed: \(units.summary)")) }
        return .success(dir)
    }()

    static func fixturesDirectory() throws -> String {
        switch fixtures {
        case .success(let d): return d
        case .failure(let e): throw e
        }
    }
}

/// The base of every end-to-end test: a fresh temporary directory with a skill folder (0755), a home,
/// XDG folders, and helpers to copy skills in and run `skillhost` there.
class EndToEndTestCase: XCTestCase {
    /// The test's own temporary directory.
    var work = ""
    /// The skill folder every `skillhost` call of the test uses (unless it passes its own --skills-dir).
    var skills = ""
    var home = ""
    var fixtures = ""
    /// Extra settings for the environment of `skillhost`.
    var extraEnvironment: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: E2E.skillhostPath),
              FileManager.default.isExecutableFile(atPath: E2E.binDir + "/skillhost-worker"),
              FileManager.default.isExecutableFile(atPath: E2E.binDir + "/skillhost-scan") else {
            XCTFail("skillhost, skillhost-worker and skillhost-scan must be built in \(E2E.binDir) (set SKILLHOST_BIN_DIR, or run `make test`)")
            throw HarnessError("binaries missing in \(E2E.binDir)")
        }
        fixtures = try E2E.fixturesDirectory()
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("skillhost-e2e.XXXXXX")
        var bytes = Array(template.utf8CString)
        guard let p = bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        // Resolve symlinks (e.g. /tmp → /private/tmp elsewhere) so paths compare equal to the host's.
        work = URL(fileURLWithPath: String(cString: p)).resolvingSymlinksInPath().path
        chmod(work, 0o755)
        skills = work + "/skills"
        home = work + "/home"
        for d in [skills, home, home + "/.config", home + "/.local/share", home + "/.local/state"] {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
            chmod(d, 0o755)
        }
        extraEnvironment = [:]
    }

    override func tearDownWithError() throws {
        if !work.isEmpty {
            // A test may have made the folder writable by others, or unreadable: restore, then remove.
            chmod(skills, 0o755)
            try? FileManager.default.removeItem(atPath: work)
        }
        try super.tearDownWithError()
    }

    /// The environment of every program the test runs: the caller's, minus anything that would
    /// point skillhost at the user's files, plus the test's home and XDG folders.
    var environment: [String: String] {
        // NO_COLOR, COLUMNS: what a test sees of colour and width is what it sets itself.
        var env = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("SKILLHOST_") && !$0.key.hasPrefix("XDG_") && $0.key != "NO_COLOR" && $0.key != "COLUMNS"
        }
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/.config"
        env["XDG_DATA_HOME"] = home + "/.local/share"
        env["XDG_STATE_HOME"] = home + "/.local/state"
        env["SWIFT_BACKTRACE"] = "enable=no"
        for (k, v) in extraEnvironment { env[k] = v }
        return env
    }

    // MARK: - Skill files

    /// Copies fixture `name` (e.g. "echo_c.so") into the skill folder as `target` (default: same name), mode 0755.
    @discardableResult
    func addSkill(_ name: String, as target: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try copy(fixtures + "/" + name, into: skills, as: target ?? name)
    }

    /// Copies `path` into `folder` as `name` with mode 0755 (replacing what is there).
    @discardableResult
    func copy(_ path: String, into folder: String, as name: String) throws -> String {
        let dest = folder + "/" + name
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: dest)
        try data.write(to: URL(fileURLWithPath: dest))
        chmod(dest, 0o755)
        return dest
    }

    /// A bundled Swift skill from the bin directory (libEchoSkill.so, …). `make test` builds them all;
    /// a missing one is a failure, not a skip, so CI cannot pass without testing it.
    @discardableResult
    func addBundledSkill(_ name: String) throws -> String {
        let path = E2E.binDir + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("\(name) is not built in \(E2E.binDir) (run `make test`, or swift build --product \(name.dropFirst(3).dropLast(3)))")
            throw HarnessError("missing \(name)")
        }
        return try copy(path, into: skills, as: name)
    }

    func mode(of path: String) -> mode_t {
        var st = stat()
        guard stat(path, &st) == 0 else { return 0 }
        return st.st_mode & 0o7777
    }

    // MARK: - Running skillhost

    /// Runs `skillhost ARGS --skills-dir <the test's skill folder>` (unless ARGS name their own folder).
    @discardableResult
    func skillhost(_ arguments: [String], stdin: Data? = nil, timeout: TimeInterval = 15,
                   currentDirectory: String? = nil) -> CommandResult {
        var args = arguments
        if !args.contains(where: { $0 == "--skills-dir" || $0.hasPrefix("--skills-dir=") }) {
            args += ["--skills-dir", skills]
        }
        return Run.program(E2E.skillhostPath, args, environment: environment,
                           currentDirectory: currentDirectory ?? work, stdin: stdin, timeout: timeout)
    }

    @discardableResult
    func skillhost(_ arguments: String..., stdin: Data? = nil, timeout: TimeInterval = 15) -> CommandResult {
        skillhost(arguments, stdin: stdin, timeout: timeout)
    }

    /// `skillhost list --all --json`, checked for the {"version","skills","refused","conflicts"} shape and exit 0.
    func listAll(_ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws
        -> (skills: [[String: Any]], refused: [[String: Any]], conflicts: [[String: Any]], result: CommandResult) {
        let r = skillhost(["list", "--all", "--json"] + extra)
        XCTAssertEqual(r.exitCode, 0, r.summary, file: file, line: line)
        let o = try r.jsonObject(file: file, line: line)
        guard let s = o["skills"] as? [[String: Any]], let f = o["refused"] as? [[String: Any]],
              let c = o["conflicts"] as? [[String: Any]] else {
            XCTFail("list --all --json must print {\"skills\":[…],\"refused\":[…],\"conflicts\":[…]}: \(r.summary)", file: file, line: line)
            throw HarnessError("bad list --all shape")
        }
        return (s, f, c, r)
    }

    /// `skillhost invoke INTENT --input INPUT --json`.
    @discardableResult
    func invoke(_ intent: String, _ input: String? = nil, _ extra: [String] = [], stdin: Data? = nil,
                timeout: TimeInterval = 15) -> CommandResult {
        var args = ["invoke", intent, "--json"]
        if let input { args += ["--input", input] }
        return skillhost(args + extra, stdin: stdin, timeout: timeout)
    }

    /// Checks a failed `invoke --json`: exactly one JSON line {"ok":false,"error":{kind,message}} and the
    /// exit code of the kind. Returns the error object.
    @discardableResult
    func assertInvokeError(_ r: CommandResult, kind: String, exitCode: Int32, messageContains: [String] = [],
                           file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        XCTAssertEqual(r.exitCode, exitCode, "exit code of \(kind): \(r.summary)", file: file, line: line)
        let o = try r.jsonObject(file: file, line: line)
        XCTAssertEqual(o["ok"] as? Bool, false, r.summary, file: file, line: line)
        let e = try XCTUnwrap(o["error"] as? [String: Any], "no error object: \(r.summary)", file: file, line: line)
        XCTAssertEqual(e["kind"] as? String, kind, r.summary, file: file, line: line)
        let message = e["message"] as? String ?? ""
        XCTAssertFalse(message.isEmpty, "error.message must say what went wrong: \(r.summary)", file: file, line: line)
        for m in messageContains {
            XCTAssertTrue(message.contains(m), "error.message should contain \"\(m)\": \(message)", file: file, line: line)
        }
        return e
    }

    /// Checks a successful `invoke --json`: {"ok":true,"skill":ID,"result":…}, exit 0. Returns the result.
    @discardableResult
    func assertInvokeOK(_ r: CommandResult, skill: String, file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        XCTAssertEqual(r.exitCode, 0, r.summary, file: file, line: line)
        let o = try r.jsonObject(file: file, line: line)
        XCTAssertEqual(o["ok"] as? Bool, true, r.summary, file: file, line: line)
        XCTAssertEqual(o["skill"] as? String, skill, r.summary, file: file, line: line)
        return try XCTUnwrap(o["result"], "no result: \(r.summary)", file: file, line: line)
    }

    /// Writes `json` as the test's config file and points `skillhost` at it (SKILLHOST_CONFIG).
    @discardableResult
    func writeConfig(_ json: String) throws -> String {
        let path = work + "/config.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        extraEnvironment["SKILLHOST_CONFIG"] = path
        return path
    }

    // MARK: - Processes

    /// Live processes whose command line contains "skillhost-worker" and `folder` (default: the test's
    /// skill folder): the test's workers, and anything they forked (a fork keeps the command line).
    /// A zombie has an empty command line and is not listed (it is dead; only its parent can reap it).
    func workerProcesses(naming folder: String? = nil) -> [(pid: Int32, cmdline: String)] {
        let needle = folder ?? skills
        var found: [(Int32, String)] = []
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for e in entries {
            guard let pid = Int32(e), pid != getpid(),
                  let data = FileManager.default.contents(atPath: "/proc/\(e)/cmdline"), !data.isEmpty else { continue }
            let cmd = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            if cmd.contains("skillhost-worker") && cmd.contains(needle) { found.append((pid, cmd)) }
        }
        return found
    }

    /// Fails unless no process of the test's workers (or what they forked) is alive; waits up to
    /// `timeout` for processes that are just ending.
    func assertNoWorkersLeft(timeout: TimeInterval = 2, file: StaticString = #filePath, line: UInt = #line) {
        let end = Date().addingTimeInterval(timeout)
        var left = workerProcesses()
        while !left.isEmpty && Date() < end {
            usleep(20_000)
            left = workerProcesses()
        }
        XCTAssertTrue(left.isEmpty, "processes left behind: \(left.map { "\($0.pid): \($0.cmdline)" })", file: file, line: line)
    }

    /// The host goes on serving: test.fixture.echo (echo_c.so) is listed and answers fixture.echo.
    func assertEchoStillServes(file: StaticString = #filePath, line: UInt = #line) throws {
        let list = skillhost("list", "--json")
        XCTAssertEqual(list.exitCode, 0, list.summary, file: file, line: line)
        let ids = try list.listedSkills(file: file, line: line).compactMap { $0["id"] as? String }
        XCTAssertTrue(ids.contains("test.fixture.echo"), "echo_c.so must still be listed, found \(ids)", file: file, line: line)
        let r = invoke("fixture.echo", #"{"text":"still serving"}"#)
        let result = try assertInvokeOK(r, skill: "test.fixture.echo", file: file, line: line)
        XCTAssertEqual((result as? [String: Any])?["text"] as? String, "still serving", r.summary, file: file, line: line)
    }
}

extension Array where Element == [String: Any] {
    /// The object whose `key` is `value`.
    func first(_ key: String, _ value: String) -> [String: Any]? {
        first { $0[key] as? String == value }
    }
}

/// A JSON number as a Double, whichever way JSONSerialization handed it over.
func number(_ v: Any?) -> Double? {
    switch v {
    case let d as Double: return d
    case let i as Int: return Double(i)
    case let n as NSNumber: return n.doubleValue
    default: return nil
    }
}
