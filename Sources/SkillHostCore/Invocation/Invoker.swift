import Dispatch
import FoundationEssentials
import Glibc
import SkillABI
import Synchronization

/// Calls intents: asks the policy whether the caller may (once per call: `Policy.decide`), records
/// every call in the audit log, validates the input against the intent's schema before any
/// skill code sees it, loads the skill, enforces the deadline, checks the result, and maps every
/// failure to a `SkillError`. Also the one place for the health rules of calls: a quarantined skill is
/// not called, every outcome is recorded (`HealthTracker`), and a failed call of a read-only or
/// idempotent intent falls back to the next healthy skill for it. Thread-safe.
public final class Invoker: Sendable {
    /// The current registry; `swap` replaces it whole, so a call sees the old or the new one.
    var registry: SkillRegistry { current.withLock { $0 } }
    private let current: Mutex<SkillRegistry>
    let config: HostConfig
    let paths: HostPaths
    let environment: [String: String]
    /// The `skillhost-worker` executable that runs skills in worker processes.
    let workerPath: String
    /// Per skill file (`fileKey`: a replaced file is another key): compiled schemas per intent and the
    /// loaded runtime; per skill id, context prefixes per caller kind — built on first use, so a call
    /// pays for lookups only.
    private let schemas = Mutex<[FileKey: [String: (input: JSONSchema, output: JSONSchema?)]]>([:])
    private let runtimes = Mutex<[FileKey: any SkillRuntime]>([:])
    private let contextPrefixes = Mutex<[String: [String: String]]>([:])
    let settings: CallSettings
    let clock: CallClock
    /// Every registered skill's health: read before a call (quarantine, fallback), written after it.
    let health: HealthTracker
    /// Who may call what (surfaces, confirmation, rate limits).
    public let policy: Policy
    let audit: AuditLog
    /// Results of calls made with an idempotency key.
    let idempotency: IdempotencyStore

    init(registry: SkillRegistry, config: HostConfig, paths: HostPaths, timeZone: String, environment: [String: String],
         workerPath: String) {
        current = Mutex(registry)
        self.workerPath = workerPath
        self.config = config
        self.paths = paths
        self.environment = environment
        settings = CallSettings(config: config, timeZone: timeZone, environment: environment)
        clock = CallClock(environment: environment)
        health = HealthTracker(stateDir: paths.stateDir, settings: config.health,
                               files: Dictionary(uniqueKeysWithValues: registry.skills.map { ($0.id, FileIdentity($0.file)) }))
        policy = Policy(config: config.policy, stateDir: paths.stateDir)
        audit = AuditLog(stateDir: paths.stateDir, settings: config.policy.audit)
        idempotency = IdempotencyStore(stateDir: paths.stateDir, windowSeconds: config.idempotencyWindowSeconds)
    }

    /// What the audit line of a call needs that only the call knows.
    struct CallRecord {
        var binding: IntentBinding?
        var decision: PolicyDecision?
        var input: JSON?
    }

    /// Makes `new` the registry calls use. Calls in flight finish on what they started with; the runtimes
    /// of files no longer registered (removed or replaced) are retired: a worker is stopped once every
    /// call that could still be running on it has passed its deadline; an in-process skill stays loaded
    /// (a Swift image cannot be unloaded) but gets no new calls.
    func swap(to new: SkillRegistry) {
        let keep = Set(new.skills.map(Self.fileKey))
        current.withLock { $0 = new }
        health.setFiles(Dictionary(uniqueKeysWithValues: new.skills.map { ($0.id, FileIdentity($0.file)) }))
        let retired = runtimes.withLock { map -> [any SkillRuntime] in
            let gone = map.keys.filter { !keep.contains($0) }
            return gone.compactMap { map.removeValue(forKey: $0) }
        }
        schemas.withLock { map in for k in map.keys where !keep.contains(k) { map[k] = nil } }
        guard !retired.isEmpty else { return }
        let after = config.invokeTimeoutMs + config.workers.killGraceMs + Cancellation.graceMs
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(after)) { for r in retired { r.shutdown() } }
    }

    /// Identifies one file of one skill: a replaced or moved file, or a change of isolation, is another key.
    struct FileKey: Hashable {
        let id: String, path: String, inode: UInt64, mtimeNs: Int64, isolation: Isolation
    }

    static func fileKey(_ s: RegisteredSkill) -> FileKey {
        FileKey(id: s.id, path: s.file.path, inode: s.file.inode, mtimeNs: s.file.mtimeNs, isolation: s.isolation)
    }

    public func invoke(_ request: InvokeRequest) -> Result<InvokeSuccess, SkillError> {
        let start = DispatchTime.now()
        var record = CallRecord()
        let outcome = run(request, start: start, record: &record)
        audit(request, record, outcome, start: start)
        return outcome
    }

    /// One line of the audit log (see `AuditLog`).
    func audit(_ request: InvokeRequest, _ record: CallRecord, _ outcome: Result<InvokeSuccess, SkillError>, start: DispatchTime) {
        guard config.policy.audit.enabled else { return }
        var o = JSONObject([("time", .string(TimeText.nowUTC())), ("caller", .string(request.caller.kind))])
        if case .agent(let host) = request.caller { o["agentHost"] = .string(host) }
        o["intent"] = .string(record.binding?.intent.address ?? request.intent)
        if let b = record.binding {
            o["skill"] = .string((try? outcome.get())?.skillID ?? b.skill.id)
            o["version"] = .string((try? outcome.get())?.skillVersion ?? b.skill.summary.version.description)
        }
        o["decision"] = .string(record.decision?.name ?? "none")
        switch outcome {
        case .success(let s):
            o["outcome"] = .string("ok")
            if s.replayed { o["replayed"] = .bool(true) }
        case .failure(let e):
            o["outcome"] = .string(e.kind.rawValue)
            if let rule = e.rule { o["rule"] = .string(rule) }
        }
        if let key = request.idempotencyKey { o["idempotencyKey"] = .string(key) }
        o["durationMs"] = .double((Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e4).rounded() / 100)
        // The input only with its schema, which says what is secret; never without it.
        if let input = record.input, let b = record.binding, case .success(let schema) = compiled(b.skill, b.intent.address) {
            o["input"] = AuditLog.shortened(schema.input.redacted(input))
        }
        audit.record(.object(o))
    }

    private func run(_ request: InvokeRequest, start: DispatchTime, record: inout CallRecord) -> Result<InvokeSuccess, SkillError> {
        let timeout = request.timeoutMs ?? config.invokeTimeoutMs
        let deadline = start + .milliseconds(timeout)

        // 1. The input must be a JSON object.
        let inputBytes = Array(request.input.utf8)
        let input: JSON
        do { input = try JSON.parse(inputBytes) } catch {
            return .failure(SkillError(.invalidInput, "input for \(request.intent) is not valid JSON: \(error)",
                                       hint: "pass a JSON object, e.g. --input '{\"from\":\"2026-11-30\"}'"))
        }
        guard case .object = input else {
            return .failure(SkillError(.invalidInput, "input for \(request.intent) must be a JSON object, found \(input.typeDescription)"))
        }
        record.input = input

        // 2. Someone must serve the intent, and let this caller call it.
        let registry = self.registry
        let bindings = registry.bindings(for: request.intent)
        guard let binding = bindings.first else {
            let near = registry.suggestions(for: request.intent)
            return .failure(SkillError(.noSkill, "no skill declares the intent \"\(request.intent)\"",
                                       hint: near.isEmpty ? "run `skillhost list` to see the intents on offer" : "did you mean \(near.prefix(5).joined(separator: ", "))?"))
        }
        record.binding = binding
        let decision = policy.decide(binding, caller: request.caller, confirmed: request.confirmed)
        record.decision = decision
        if case .denied(let d) = decision { return .failure(d.error(skillID: binding.skill.id)) }

        // 3. With an idempotency key: at most once per key (see `IdempotencyStore`).
        guard let key = request.idempotencyKey else {
            return attempts(bindings, request, input: input, inputBytes: inputBytes, timeout: timeout, deadline: deadline, start: start)
        }
        return idempotency.run(key: key, intent: binding.intent.address, input: input) {
            attempts(bindings, request, input: input, inputBytes: inputBytes, timeout: timeout, deadline: deadline, start: start)
        }
    }

    private func attempts(_ bindings: [IntentBinding], _ request: InvokeRequest, input: JSON, inputBytes: [UInt8], timeout: Int,
                          deadline: DispatchTime, start: DispatchTime) -> Result<InvokeSuccess, SkillError> {
        let binding = bindings[0]
        // 4. The chosen skill, then — for a failure that another skill might not have (crashed,
        //    timeout, unavailable, quarantine included) and only for an intent the failing skill marks
        //    read-only or idempotent — the next skill for the intent that is neither quarantined nor
        //    unavailable. All share the one deadline.
        var tried: [(skill: String, error: SkillError)] = []
        var candidates = bindings.dropFirst().makeIterator()
        var current = binding
        while true {
            let outcome = attempt(current, request, input: input, inputBytes: inputBytes, timeout: timeout, deadline: deadline, start: start)
            guard case .failure(let e) = outcome else {
                return outcome.map { var s = $0; s.fallback = tried; return s }
            }
            guard Self.fallbackKinds.contains(e.kind), !current.intent.flags.isDisjoint(with: [.readOnly, .idempotent]),
                  let next = nextCandidate(&candidates, request) else {
                guard !tried.isEmpty else { return .failure(e) }
                var first = tried[0].error
                first.message += " (then " + (tried.dropFirst().map { "\($0.skill): \($0.error.kind.rawValue)" } + ["\(current.skill.id): \(e.kind.rawValue) — \(e.message)"]).joined(separator: "; ") + ")"
                return .failure(first)
            }
            tried.append((current.skill.id, e))
            current = next
        }
    }

    /// Failure kinds after which a call may go to the next skill for the intent.
    static let fallbackKinds: Set<ErrorKind> = [.crashed, .timeout, .unavailable]

    /// The next binding this caller may call whose skill is neither quarantined nor unavailable.
    private func nextCandidate(_ it: inout IndexingIterator<ArraySlice<IntentBinding>>, _ request: InvokeRequest) -> IntentBinding? {
        while let b = it.next() {
            guard policy.surfaces(for: b).contains(request.caller.surface) else { continue }
            let state = health.current(b.skill.id).state
            if state != .quarantined && state != .unavailable { return b }
        }
        return nil
    }

    /// One skill's try at a call: quarantine gate, input schema, load, call, result checks. Records
    /// the outcome in the skill's health when the skill was reached.
    private func attempt(_ binding: IntentBinding, _ request: InvokeRequest, input: JSON, inputBytes: [UInt8], timeout: Int,
                         deadline: DispatchTime, start: DispatchTime) -> Result<InvokeSuccess, SkillError> {
        let skill = binding.skill
        // A quarantined skill is not called.
        let h = health.current(skill.id)
        if h.state == .quarantined {
            return .failure(SkillError(.unavailable, "skill \(skill.id) is quarantined since \(TimeText.rfc3339(h.since)): \(h.reason)",
                                       hint: "fix the skill and replace its file (\(skill.file.path)), or run `skillhost unblock \(skill.id)` to let calls through again",
                                       skillID: skill.id))
        }
        let outcome = call(binding, request, input: input, inputBytes: inputBytes, timeout: timeout, deadline: deadline, start: start)
        switch outcome {
        case .success: health.record(skill.id, .succeeded(count: 1))
        case .failure(let e) where e.reached:
            switch e.error.kind {
            case .crashed, .timeout, .unavailable, .internal, .loadFailed, .incompatible:
                health.record(skill.id, .failed(kind: e.error.kind == .incompatible ? .loadFailed : e.error.kind, message: e.error.message))
            default:
                health.record(skill.id, .succeeded(count: 1))  // the skill answered (e.g. invalid_input): it is healthy
            }
        case .failure: break
        }
        return outcome.mapError(\.error)
    }

    /// A failure, and whether the skill (or its worker) was reached.
    struct Failure: Error {
        var error: SkillError
        var reached: Bool
    }

    private func call(_ binding: IntentBinding, _ request: InvokeRequest, input: JSON, inputBytes: [UInt8], timeout: Int,
                      deadline: DispatchTime, start: DispatchTime) -> Result<InvokeSuccess, Failure> {
        let skill = binding.skill
        func fail(_ e: SkillError, reached: Bool = true) -> Result<InvokeSuccess, Failure> { .failure(Failure(error: e, reached: reached)) }

        // Validate the input before the skill sees it.
        let schema: (input: JSONSchema, output: JSONSchema?)
        switch compiled(skill, binding.intent.address) {
        case .success(let s): schema = s
        case .failure(let e): return fail(e, reached: false)
        }
        let violations = schema.input.validate(input)
        if !violations.isEmpty {
            var hint = "`skillhost list --json` shows the intent's inputSchema"
            if binding.intent.version > 1, !request.intent.contains("@") {
                hint = "\(request.intent) now means version \(binding.intent.version) of the intent (\(binding.intent.address)); input written for an older version goes to \(binding.intent.name)@\(binding.intent.version - 1) or earlier. " + hint
            }
            return fail(SkillError(.invalidInput, "input for \(binding.intent.address) does not match its schema: " + violations.map(\.description).joined(separator: "; "),
                                   hint: hint, skillID: skill.id), reached: false)
        }

        // Load and call.
        let runtime: any SkillRuntime
        switch self.runtime(for: skill) {
        case .success(let r): runtime = r
        case .failure(let e): return fail(e)
        }
        let raw: RawCompletion
        switch runtime.invoke(intent: binding.intent.address, input: inputBytes, context: context(for: skill, caller: request.caller, situation: request.situation),
                              deadline: deadline, progress: request.progress, cancellation: request.cancellation,
                              view: request.contextView) {
        case .success(let r): raw = r
        case .failure(var e):
            if e.kind == .timeout { e.message = "skill \(skill.id) did not complete \(request.intent) within \(timeout) ms" }
            return fail(e)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6

        // Map the outcome.
        var who: String { "skill \(skill.id) (\(skill.file.path))" }
        guard raw.status == SKH_STATUS_OK else {
            let message = raw.message ?? "no message"
            switch raw.status {
            case SKH_STATUS_INVALID_INPUT: return fail(SkillError(.invalidInput, "\(request.intent): \(message)", skillID: skill.id))
            case SKH_STATUS_UNAVAILABLE: return fail(SkillError(.unavailable, "\(request.intent) is unavailable: \(message)", skillID: skill.id))
            case SKH_STATUS_CANCELLED: return fail(SkillError(.cancelled, "\(request.intent) was cancelled: \(message)", skillID: skill.id))
            case SKH_STATUS_FAILED: return fail(SkillError(.internal, "\(who) failed: \(message)", skillID: skill.id))
            default: return fail(SkillError(.internal, "\(who) completed with unknown status \(raw.status): \(message)", skillID: skill.id))
            }
        }
        let result: JSON
        if let parsed = raw.parsedResult {
            result = parsed
        } else {
            guard let bytes = raw.result else {
                return fail(SkillError(.internal, "\(who) reported success for \(request.intent) but returned no result", hint: "a bug in the skill: report it to its vendor (\(skill.summary.vendor))", skillID: skill.id))
            }
            do { result = try JSON.parse(bytes) } catch {
                let shown = String(decoding: bytes.prefix(80), as: UTF8.self)
                return fail(SkillError(.internal, "\(who) returned a result for \(request.intent) that is not JSON (\(error)): \"\(shown)\"",
                                       hint: "a bug in the skill: report it to its vendor (\(skill.summary.vendor))", skillID: skill.id))
            }
        }
        if let out = schema.output {
            let bad = out.validate(result)
            if !bad.isEmpty {
                return fail(SkillError(.internal, "\(who) returned a result for \(request.intent) that does not match its output schema: " + bad.map(\.description).joined(separator: "; "),
                                       hint: "a bug in the skill: report it to its vendor (\(skill.summary.vendor))", skillID: skill.id))
            }
        }
        return .success(InvokeSuccess(intent: binding.intent.address, skillID: skill.id, skillVersion: skill.summary.version.description,
                                      result: result, message: raw.message, durationMs: elapsed))
    }

    /// The runtime that runs `skill`'s code, created on first use: in this process for a skill the
    /// config marks trusted (`Isolation.inProcess`), else in a worker process (`WorkerRuntime`, which
    /// starts its worker on the first call).
    func runtime(for skill: RegisteredSkill) -> Result<any SkillRuntime, SkillError> {
        let key = Self.fileKey(skill)
        if let r = runtimes.withLock({ $0[key] }) { return .success(r) }
        let made: any SkillRuntime
        switch skill.isolation {
        case .inProcess:
            switch InProcessSkill.load(skill, copiesIn: paths.stateDir + "/loaded") {
            case .success(let r): made = r
            case .failure(let e): return .failure(e)
            }
        case .process:
            made = WorkerRuntime(skill: skill, workerPath: workerPath, settings: config.workers,
                                 sandbox: WorkerSandbox.make(for: skill, config: config, paths: paths))
        }
        return .success(runtimes.withLock { map in
            if let r = map[key] { return r }
            map[key] = made
            return made
        })
    }

    /// Stops every worker process this invoker started (in-process skills stay loaded).
    func shutdown() {
        health.flush()
        let all = runtimes.withLock { Array($0.values) }
        DispatchQueue.concurrentPerform(iterations: all.count) { all[$0].shutdown() }
    }

    /// The compiled input and output schemas of `intent`, from the skill's full manifest (parsed once).
    func compiled(_ skill: RegisteredSkill, _ intent: String) -> Result<(input: JSONSchema, output: JSONSchema?), SkillError> {
        let key = Self.fileKey(skill)
        if let s = schemas.withLock({ $0[key]?[intent] }) { return .success(s) }
        guard let full = skill.manifest()?.intents.first(where: { $0.address == intent }) else {
            return .failure(SkillError(.loadFailed, "skill \(skill.id): its cached manifest cannot be read", hint: "touch \(skill.file.path) to have it scanned again", skillID: skill.id))
        }
        do {
            let input = try JSONSchema(full.inputSchema)
            let output = try full.outputSchema.map { j throws(JSONSchema.CompileError) in try JSONSchema(j) }
            schemas.withLock { $0[key, default: [:]][intent] = (input, output) }
            return .success((input, output))
        } catch {
            return .failure(SkillError(.loadFailed, "skill \(skill.id): a schema of \(intent) is invalid: \(error)", skillID: skill.id))
        }
    }

    // MARK: - Call context

    /// The `context_json` a skill receives: its config section, data folder, locale, time zone, now,
    /// caller. Everything but "now" is fixed per skill and caller, so it is built once and reused.
    func context(for skill: RegisteredSkill, caller: Caller, situation: CallSituation? = nil) -> String {
        if let situation {
            return JSON.object(JSONObject([
                ("config", config.skills[skill.id] ?? .object(JSONObject())),
                ("dataDir", .string(paths.dataDir + "/" + skill.id)),
                ("locale", .string(situation.locale)),
                ("timeZone", .string(settings.timeZone)),
                ("caller", .string(caller.kind)),
                ("now", .string(situation.now)),
            ])).serialized
        }
        let prefix: String
        if let p = contextPrefixes.withLock({ $0[skill.id]?[caller.kind] }) {
            prefix = p
        } else {
            let o = JSONObject([
                ("config", config.skills[skill.id] ?? .object(JSONObject())),
                ("dataDir", .string(paths.dataDir + "/" + skill.id)),
                ("locale", .string(settings.locale)),
                ("timeZone", .string(settings.timeZone)),
                ("caller", .string(caller.kind)),
            ])
            let text = JSON.object(o).serialized
            prefix = String(text.dropLast()) + ",\"now\":"
            contextPrefixes.withLock { $0[skill.id, default: [:]][caller.kind] = prefix }
        }
        return prefix + JSON.quote(clock.now()) + "}"
    }
}

/// Locale and time zone for calls: from the config, else from the environment.
struct CallSettings: Sendable {
    let locale: String
    /// IANA name; the process already runs in this zone (see `HostTimeZone`).
    let timeZone: String

    init(config: HostConfig, timeZone: String, environment: [String: String]) {
        var locale = config.locale ?? "en-US"
        if config.locale == nil {
            for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
                if let v = environment[key], !v.isEmpty, v != "C", v != "POSIX", !v.hasPrefix("C.") {
                    locale = String(v.split(separator: ".").first!.map { $0 == "_" ? "-" : $0 })
                    break
                }
            }
        }
        self.locale = locale
        self.timeZone = timeZone
    }
}

/// "Now" as an RFC 3339 string in the process time zone, or `$SKILLHOST_NOW` when set (tests and
/// replays pin it). Formats at most once per second. Thread-safe.
final class CallClock: Sendable {
    private let fixed: String?
    private let cache = Mutex<(second: Int, text: String)>((-1, ""))

    init(environment: [String: String]) {
        fixed = environment["SKILLHOST_NOW"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func now() -> String {
        if let fixed { return fixed }
        let second = time(nil)
        if let hit = cache.withLock({ $0.second == second ? $0.text : nil }) { return hit }
        let text = TimeText.rfc3339(second, local: true)
        cache.withLock { $0 = (second, text) }
        return text
    }
}
