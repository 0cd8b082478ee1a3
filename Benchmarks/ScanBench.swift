import Foundation
import SkillHostCore

/// (a) Scan and registration of N skills of one kind, as whole processes:
///   cold  = `skillhost list --json --skills-dir D` with an empty XDG_STATE_HOME (no scan cache);
///   warm  = the same with the cache in place;
///   raw   = the baseline: a plain dlopen+dlsym loop over the same files in a fresh C process;
///   start = one process start, `skillhost --help` (see `ProcessStartBench`).
/// Cold runs are interleaved with their baselines (cold, raw, start, cold, raw, start, …), so that
/// each cold run has a baseline measured right beside it on this shared machine (`pairedRatios`).
struct ScanBench {
    struct Config {
        var count = 200
        /// Rounds of cold run, raw loop and process start.
        var coldRuns = 15
        var warmRuns = 21
    }

    struct Result {
        var kind: String
        var files: Int
        /// How many distinct skills `list --json` registered (the check that every copy counted).
        var registered: Int
        var problem: String?
        var cold: [ProcessRun]
        var warm: [ProcessRun]
        var raw: [ProcessRun]
        /// `skillhost --help`, one per cold run, measured right after its raw loop.
        var start: [ProcessRun]

        /// Each cold run over its own round's baseline, cold / (raw loop + process start).
        var pairedRatios: [Double] {
            zip(cold, zip(raw, start)).map { c, b in c.wallMs / (b.0.wallMs + b.1.wallMs) }
        }
    }

    let locations: Locations
    let workspace: Workspace
    let config: Config
    let loop: String

    /// Measures one kind: `files` are the N copies, all in `dir`.
    func measure(kind: String, dir: String, files: [String]) -> Result {
        let tag = kind.lowercased()

        // Verify (and prime the cache for the warm runs): one distinct id per file, every file registered.
        let primed = workspace.root + "/state-\(tag)-warm"
        let (registered, problem) = verify(dir: dir, files: files, state: primed)

        var cold: [ProcessRun] = [], raw: [ProcessRun] = [], start: [ProcessRun] = []
        let starts = ProcessStartBench(locations: locations, workspace: workspace)
        for i in 0..<config.coldRuns {
            let state = workspace.root + "/state-\(tag)-cold-\(i)"   // does not exist: a fresh cache
            cold.append(list(dir, state: state))
            try? FileManager.default.removeItem(atPath: state)
            let r = ProcessTimer.run(loop, files, environment: ProcessInfo.processInfo.environment)
            if r.exitCode != 0 { fail("the dlopen loop failed on the \(kind) copies (status \(r.status))") }
            raw.append(r)
            start.append(starts.hostStart())
        }
        var warm: [ProcessRun] = []
        for _ in 0..<config.warmRuns { warm.append(list(dir, state: primed)) }
        return Result(kind: kind, files: files.count, registered: registered, problem: problem,
                      cold: cold, warm: warm, raw: raw, start: start)
    }

    /// One timed `skillhost list --json`; a non-zero exit stops the bench (the numbers would be lies).
    func list(_ dir: String, state: String) -> ProcessRun {
        let err = workspace.root + "/list.stderr"
        let r = ProcessTimer.run(locations.skillhost, ["list", "--json", "--skills-dir", dir],
                                 environment: isolatedEnvironment(state: state, workspace: workspace), stderr: err)
        if r.exitCode != 0 {
            let text = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            fail("skillhost list failed (status \(r.status)):\n\(text)")
        }
        return r
    }

    /// Runs `list --json` once into a file and checks that it registered one distinct skill per file,
    /// each from a file in `dir`. On a shortfall, asks `list --all --json` why and returns the reasons.
    func verify(dir: String, files: [String], state: String) -> (registered: Int, problem: String?) {
        let out = workspace.root + "/list.json"
        _ = ProcessTimer.run(locations.skillhost, ["list", "--json", "--skills-dir", dir],
                             environment: isolatedEnvironment(state: state, workspace: workspace), stdout: out)
        guard let data = FileManager.default.contents(atPath: out), let json = try? JSON.parse([UInt8](data)),
              let skills = json["skills"]?.arrayValue else {
            return (0, "`skillhost list --json` did not print {\"skills\":[…]}")
        }
        let ids = Set(skills.compactMap { $0["id"]?.stringValue })
        let paths = Set(skills.compactMap { $0["path"]?.stringValue })
        let expected = Set(files.map { ($0 as NSString).resolvingSymlinksInPath })
        let fromDir = paths.filter { expected.contains(($0 as NSString).resolvingSymlinksInPath) }.count
        let registered = min(ids.count, fromDir)
        if registered == files.count && skills.count == files.count { return (registered, nil) }

        _ = ProcessTimer.run(locations.skillhost, ["list", "--all", "--json", "--skills-dir", dir],
                             environment: isolatedEnvironment(state: state, workspace: workspace), stdout: out)
        let refused = (FileManager.default.contents(atPath: out).flatMap { try? JSON.parse([UInt8]($0)) })?["refused"]?.arrayValue ?? []
        let reasons = refused.prefix(3).compactMap { $0["message"]?.stringValue }
        return (registered, "\(skills.count) listed, \(ids.count) distinct ids, \(fromDir) from the bench folder; \(refused.count) refused"
                + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: " | ")))
    }
}

/// "One process start": the wall time of a process that starts and exits doing nothing useful.
/// `skillhost --help` is the host itself (Foundation and all); `skillhost-scan` with no arguments is the
/// scan process (the Swift core library only), which prints its usage and exits 2.
struct ProcessStartBench {
    let locations: Locations
    let workspace: Workspace
    var runs = 21

    func measure() -> (host: [ProcessRun], scan: [ProcessRun]) {
        let env = isolatedEnvironment(state: workspace.root + "/state-start", workspace: workspace)
        var host: [ProcessRun] = [], scan: [ProcessRun] = []
        for _ in 0..<runs {
            host.append(hostStart())
            scan.append(ProcessTimer.run(locations.scan, [], environment: env))
        }
        if let bad = scan.first(where: { $0.exitCode != 2 }) { fail("skillhost-scan (no arguments) ended with status \(bad.status), expected exit 2") }
        return (host, scan)
    }

    /// One timed `skillhost --help`; a failure stops the bench.
    func hostStart() -> ProcessRun {
        let r = ProcessTimer.run(locations.skillhost, ["--help"],
                                 environment: isolatedEnvironment(state: workspace.root + "/state-start", workspace: workspace))
        if r.exitCode != 0 { fail("skillhost --help exited with status \(r.status)") }
        return r
    }
}
