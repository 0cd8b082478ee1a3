import Dispatch
import FoundationEssentials
import Glibc
import SkillABI
import Synchronization

extension SkillHost {
    /// `skillhost validate FILE`: checks a skill file against the contract of skillhost.h the way
    /// CLAP's clap-validator checks a plugin — statically (the scan's checks), then by running it in a
    /// real worker process and calling it: health, its examples, deliberately wrong input, exactly-once
    /// completion, its concurrency claim and memory release. Returns a report with one check per
    /// aspect (see `SkillValidator.checkNames`); never throws.
    ///
    /// The file may be anywhere (its permissions are not checked, as with `inspect`). The skill runs as
    /// a newcomer: with an empty configuration section, in a throwaway data folder and health state, so
    /// neither the user's data, nor `health.json`, nor any quarantine is touched. Blocks; takes well
    /// under a second for a small, well-behaved skill. `onCheck` hears each check as it is decided
    /// (on the validating thread), for a surface that shows progress.
    public func validate(file: String, onCheck: ((ValidationCheck) -> Void)? = nil) -> ValidationReport {
        let v = SkillValidator(host: self)
        v.onCheck = onCheck
        return v.run(file: file)
    }

    /// The checks of `validate`, in report order.
    public static var validationCheckNames: [String] { SkillValidator.checkNames }
}

/// One run of `SkillHost.validate(file:)`. The checks that call the skill live in
/// SkillValidator+Calls.swift (examples, wrong input) and SkillValidator+Stress.swift (exactly-once,
/// concurrency, memory). Used from one thread (the concurrency check starts its own).
final class SkillValidator {
    /// Every check, in report order.
    static let checkNames = ["file", "manifest", "abi", "load", "health", "examples", "wrong-input",
                             "exactly-once", "concurrency", "memory"]
    /// The deadline of one call: the configured one, but never more than this, so that a skill that
    /// hangs costs a validate seconds, not minutes (a conformant skill answers examples and wrong input
    /// in milliseconds).
    static let maxCallTimeoutMs = 5_000

    let host: SkillHost
    let callTimeoutMs: Int
    var report: ValidationReport
    /// Told of each check as it is added (see `SkillHost.validate(file:onCheck:)`).
    var onCheck: ((ValidationCheck) -> Void)?

    // Set once the static checks passed.
    var manifest: SkillManifest!
    var skill: RegisteredSkill!
    var scratch: String?
    var invoker: Invoker!
    var runtime: WorkerRuntime!

    /// Calls sent to the skill, and calls that did not complete before their deadline, per intent.
    let callCount = Atomic<Int>(0)
    let neverCompleted = Mutex<[String: Int]>([:])
    /// The examples of read-only or idempotent intents whose call the skill answered (ok or unavailable),
    /// for the concurrency and memory checks.
    var answered: [(intent: IntentManifest, index: Int, input: JSON)] = []

    init(host: SkillHost) {
        self.host = host
        callTimeoutMs = min(host.config.invokeTimeoutMs, Self.maxCallTimeoutMs)
        report = ValidationReport(file: "")
    }

    func run(file: String) -> ValidationReport {
        report = ValidationReport(file: PathText.absolute(file))
        defer { cleanUp() }
        guard staticChecks(file: file), load() else { return finish() }
        health()
        examples()
        wrongInput()
        concurrency()
        memory()
        exactlyOnce()
        return finish()
    }

    // MARK: - Report

    func add(_ name: String, _ status: ValidationCheck.Status, _ message: String, details: JSON? = nil) {
        append(ValidationCheck(name, status, message, details: details))
    }

    /// Every check goes through here, so `onCheck` hears each one.
    func append(_ check: ValidationCheck) {
        report.checks.append(check)
        onCheck?(check)
    }

    /// The checks in `checkNames` order; the ones never reached are skipped, naming the check that stopped them.
    private func finish() -> ValidationReport {
        let stopper = report.checks.last { $0.status == .fail }?.name ?? "an earlier check"
        let done = Dictionary(report.checks.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        report.checks = Self.checkNames.map { done[$0] ?? ValidationCheck($0, .skip, "not run: \(stopper) failed") }
        return report
    }

    private func cleanUp() {
        invoker?.shutdown()
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    // MARK: - file, manifest, abi

    /// The scan's checks (ELF, manifest read in a child process with the scan deadline, ManifestValidator):
    /// a refusal fails the check it belongs to and stops the rest.
    private func staticChecks(file: String) -> Bool {
        let (info, outcome) = host.inspect(file: file)
        let m: SkillManifest
        switch outcome {
        case .failure(let r):
            report.refusal = r
            let fix = r.hint ?? (r.reason == .badManifest
                ? "correct that field where the skill declares it (skh_skill or skh_intent; skillhost.h says what each field expects)"
                : "check that the path names a skill's .so file")
            let details = JSONObject([("reason", .string(r.reason.rawValue)), ("hint", .string(fix))])
            let message = r.message + "; fix: " + fix
            switch r.reason {
            case .badManifest:
                add("file", .pass, fileSummary(info))
                add("manifest", .fail, message, details: .object(details))
                add("abi", .skip, "not checked: the manifest was refused")
            case .abiMismatch, .toolchainMismatch:
                add("file", .pass, fileSummary(info))
                add("manifest", .skip, "not checked: the skill is built for an ABI or toolchain this host does not serve")
                add("abi", .fail, message, details: .object(details))
            default:
                add("file", .fail, message, details: .object(details))
            }
            return false
        case .success(let manifest): m = manifest
        }
        manifest = m
        report.id = m.id
        report.version = m.version.description
        report.permissions = m.identity.permissions
        add("file", .pass, fileSummary(info))

        let bare = m.intents.filter { $0.examples.isEmpty }.map(\.name)
        let inputs = m.intents.reduce(0) { $0 + $1.examples.filter { $0.input != nil }.count }
        let summary = "id \(m.id), version \(m.version), category \(m.category), \(m.intents.count) intent\(m.intents.count == 1 ? "" : "s"); names and input/output schemas are valid" + (inputs == 0 ? "" : ", and the input of each of \(inputs) example\(inputs == 1 ? "" : "s") matches its schema")
        if bare.isEmpty {
            add("manifest", .pass, summary)
        } else {
            add("manifest", .warn, "\(summary); but " + bare.map { "intent \($0)" }.joined(separator: ", ") + " \(bare.count == 1 ? "has" : "have") no examples: add examples (with an \"input\") so agents and validate can exercise \(bare.count == 1 ? "it" : "them")",
                details: .object(JSONObject([("intentsWithoutExamples", .array(bare.map(JSON.string)))])))
        }

        let toolchain = m.toolchain.map { "Swift toolchain \($0), the host's own" } ?? "no Swift toolchain recorded (a C skill: no toolchain constraint)"
        let newer = m.abiMinor > ManifestValidator.hostABIMinor
            ? "; built for a newer minor than this host's \(ManifestValidator.hostABIMajor).\(ManifestValidator.hostABIMinor): fields added since are not read" : ""
        add("abi", .pass, "ABI \(m.abi), served by this host (ABI \(ManifestValidator.hostABIMajor).\(ManifestValidator.hostABIMinor)); \(toolchain)\(newer)")

        var text: [UInt8] = []
        m.json.write(to: &text)
        skill = RegisteredSkill(summary: m.summary, manifestText: text, file: info!, isolation: .process)
        return true
    }

    private func fileSummary(_ info: SkillFile?) -> String {
        guard let info else { return "readable" }
        return "an ELF shared library for this machine (\(info.size) bytes, sha256 \(info.sha256.map { String($0.prefix(12)) + "…" } ?? "?")) exporting skillhost_entry; its manifest was read in a child process"
    }

    // MARK: - load, health

    /// Starts `skillhost-worker serve FILE` through the host's own worker machinery, in a scratch
    /// state and data folder, with an empty configuration section for the skill.
    private func load() -> Bool {
        guard let dir = Self.makeScratchDirectory() else {
            add("load", .fail, "cannot create a temporary folder for the skill's state and data: \(String(cString: strerror(errno)))",
                details: nil)
            return false
        }
        scratch = dir
        var config = host.config
        config.skills = [:]
        config.trusted = []
        config.workers.eager = false
        config.workers.parallelInvokes = true  // exercise a thread-safe claim with overlapping invoke() calls
        config.health.quarantineAfterCrashes = 1 << 30  // validate reports crashes; it never quarantines
        var paths = host.paths
        paths.stateDir = dir + "/state"
        paths.dataDir = dir + "/data"
        invoker = Invoker(registry: SkillRegistry([skill]), config: config, paths: paths, timeZone: host.timeZone,
                          environment: host.invoker.environment, workerPath: host.workerPath)
        guard case .success(let r) = invoker.runtime(for: skill), let worker = r as? WorkerRuntime else {
            add("load", .fail, "no worker runtime for the skill (a host bug)")
            return false
        }
        runtime = worker
        let start = DispatchTime.now()
        let deadline = start + .milliseconds(max(host.scanTimeoutMs, callTimeoutMs))
        if let e = runBlocking({ await worker.prestart(deadline: deadline) }) {
            add("load", .fail, "the worker process could not serve the skill: \(e.message)" + (e.hint.map { "; fix: \($0)" } ?? "; fix: init must return 0 once the skill can serve (a non-zero return refuses it)"),
                details: .object(JSONObject([("kind", .string(e.kind.rawValue))])))
            return false
        }
        let pid = worker.workerPID ?? 0
        let rss = Self.residentKB(pid: pid).map { ", VmRSS \(Self.mebibytes($0))" } ?? ""
        add("load", .pass, "skillhost-worker serve loaded it and its init succeeded in \(Self.milliseconds(since: start)) (pid \(pid)\(rss))")
        return true
    }

    private func health() {
        let timeout = host.config.healthTimeoutMs
        let start = DispatchTime.now()
        let pid = runtime.workerPID
        let runtime = self.runtime!, context = context(.automation)
        let probe = runBlocking { await runtime.health(context: context, deadline: start + .milliseconds(timeout)) }
        let took = Self.milliseconds(since: start)
        var details = JSONObject([("status", .string(probe.status.rawValue)), ("message", .string(probe.message))])
        if let d = probe.detail { details["detail"] = d }
        if runtime.workerPID != pid {
            add("health", .fail, "the worker died during the health check: \(probe.message); fix: health must return a code, never crash", details: .object(details))
        } else if DispatchTime.now().uptimeNanoseconds >= start.uptimeNanoseconds + UInt64(timeout) * 1_000_000 {
            add("health", .fail, "health did not answer within \(timeout) ms (healthTimeoutMs); fix: bound the work health does (a short timeout on what it reaches), and answer degraded or unavailable instead of waiting",
                details: .object(details))
        } else if !manifest.identity.hasHealth {
            add("health", .pass, "no health function declared: the skill counts as healthy")
        } else if probe.status == .ok {
            add("health", .pass, "answered ok in \(took): \(probe.message)", details: .object(details))
        } else {
            add("health", .warn, "answered \(probe.status.rawValue) in \(took): \(probe.message) (validate runs the skill with an empty configuration section and an empty data folder; a skill that needs them should say so, as this one does)",
                details: .object(details))
        }
    }

    // MARK: - Helpers

    /// The context a call of this skill gets (its empty config section, the scratch data folder).
    func context(_ caller: Caller) -> String { invoker.context(for: skill, caller: caller) }

    /// A caller the intent admits (automation first: validate is a non-interactive program).
    static func caller(for intent: IntentManifest) -> Caller {
        if intent.surfaces.contains(.automation) { return .automation }
        return intent.surfaces.contains(.human) ? .human : .agent(host: "skillhost validate")
    }

    /// `$TMPDIR/skillhost-validate.XXXXXX` (mode 0700), or nil.
    static func makeScratchDirectory() -> String? {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((base + "/skillhost-validate.XXXXXX").utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return String(cString: p)
    }

    /// VmRSS of process `pid` in KiB, from /proc/PID/status (read to its end: procfs files have no size).
    static func residentKB(pid: pid_t) -> Int? {
        guard pid > 0, let text = StateFile(path: "/proc/\(pid)/status").read() else { return nil }
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    static func mebibytes(_ kb: Int) -> String { TimeText.oneDecimal(Double(kb) / 1024) + " MiB" }

    static func milliseconds(since start: DispatchTime) -> String {
        TimeText.oneDecimal(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6) + " ms"
    }

    /// The name of an SKH_STATUS_* code as the host reports it.
    static func statusName(_ s: Int32) -> String {
        switch s {
        case SKH_STATUS_OK: return "ok"
        case SKH_STATUS_INVALID_INPUT: return "invalid_input"
        case SKH_STATUS_UNAVAILABLE: return "unavailable"
        case SKH_STATUS_CANCELLED: return "cancelled"
        case SKH_STATUS_FAILED: return "failed"
        default: return "status \(s)"
        }
    }
}
