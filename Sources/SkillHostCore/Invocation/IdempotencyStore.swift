import Glibc

/// `--idempotency-key`: remembers, per key, the first successful call (intent, a fingerprint of its
/// input, and its response) for a window (config `idempotencyWindowSeconds`, default 24 h), in
/// `$XDG_STATE_HOME/skillhost/idempotency/<sha256 of the key>.json`.
///
/// A call with a key holds that key's `flock` from lookup to store, so two calls with the same key at
/// once run the intent once: the second waits, then replays. A key seen within the window with the same
/// intent and input returns the stored result marked `replayed`; with another intent or input it is
/// `invalid_input` naming the key. Only successes are stored: a failed call may be retried with the
/// same key. Records older than the window are removed when a new one is stored.
///
/// Fails closed, never repeating a write: before the intent runs, a `pending` record is written; if that
/// cannot be written (a full or broken state folder) the call is refused (`unavailable`, naming the
/// folder and the space) and does not run. A record that is pending, or that cannot be read or parsed
/// (truncated, damaged), means "in doubt" — the call may have run — and a call with its key is refused
/// naming the key and the file, until the window passes or someone removes the file.
struct IdempotencyStore: Sendable {
    let dir: String
    let windowSeconds: Int

    init(stateDir: String, windowSeconds: Int) {
        dir = stateDir + "/idempotency"
        self.windowSeconds = windowSeconds
    }

    /// Runs `call` once per key and fingerprint within the window; see the type's comment.
    nonisolated(nonsending) func run(key: String, intent: String, input: JSON, _ call: nonisolated(nonsending) () async -> Result<InvokeSuccess, SkillError>) async -> Result<InvokeSuccess, SkillError> {
        let hashed = SHA256.hex(of: Array(key.utf8))
        let file = StateFile(path: dir + "/" + hashed + ".json")
        let fingerprint = SHA256.hex(of: Array((intent + "\n" + Self.canonical(input).serialized).utf8))
        // Calls with one key in this process queue here, as suspended tasks; the flock below then only
        // ever waits for another process.
        let stripe = Self.stripes[Int(hashed.utf8.first! % UInt8(Self.stripes.count))]
        _ = await stripe.enter(until: .distantFuture)
        defer { stripe.leave() }
        let now = RateLimiter.now()  // sub-second: a whole-second clock would end a window up to 1 s early
        let lock: Int32
        do throws(StateFile.Failure) { lock = try file.lockOrFail() } catch {
            return .failure(error.refusal("the idempotency record of key \"\(key)\""))
        }
        defer { file.unlock(lock) }
        let bytes: [UInt8]?
        do throws(StateFile.Failure) { bytes = try file.load() } catch { return .failure(inDoubt(key, file.path, "it cannot be read: \(error.reason)")) }
        if let bytes, !windowPassed(file.path, now: now) {
            guard let r = try? JSON.parse(bytes), let at = r["at"]?.doubleValue else {
                return .failure(inDoubt(key, file.path, "it is damaged (\(bytes.count) bytes, not a complete record)"))
            }
            if now - at < Double(windowSeconds) {
                if r["pending"]?.boolValue == true {
                    return .failure(inDoubt(key, file.path, "a call with this key started at \(TimeText.rfc3339(Int(at))) and its outcome was never recorded (the host stopped, or could not write it)"))
                }
                guard r["fingerprint"]?.stringValue == fingerprint else {
                    return .failure(SkillError(.invalidInput, "idempotency key \"\(key)\" was already used at \(TimeText.rfc3339(Int(at))) for another call (\(r["intent"]?.stringValue ?? "?") with other input); a key may only repeat the same call",
                                               hint: "use a new key for a new call (keys are remembered for \(windowSeconds) s)"))
                }
                guard let s = Self.success(r["response"]) else {
                    return .failure(inDoubt(key, file.path, "it holds no readable response"))
                }
                return .success(s)
            }
        }
        // Claim the key before anything runs: no record, no call.
        let claim = JSON.object(JSONObject([("key", .string(key)), ("intent", .string(intent)), ("fingerprint", .string(fingerprint)),
                                            ("at", .double(now)), ("pending", .bool(true))]))
        do throws(StateFile.Failure) { try file.store(Self.bytes(claim)) } catch {
            return .failure(error.refusal("the idempotency record of key \"\(key)\""))
        }
        let outcome = await call()
        switch outcome {
        case .success(let s):
            let record = JSON.object(JSONObject([("key", .string(key)), ("intent", .string(intent)), ("fingerprint", .string(fingerprint)),
                                                 ("at", .double(now)), ("response", s.json)]))
            do throws(StateFile.Failure) { try file.store(Self.bytes(record)) } catch {
                HostLog.warning("\(error); the call succeeded, but a retry with idempotency key \"\(key)\" will be refused as in doubt until \(file.path) is removed")
            }
            prune(now: now)
        case .failure:
            unlink(file.path)  // only successes are kept: the key may be used again
        }
        return outcome
    }

    /// In-process queues for keys (by the first byte of the key's hash, so one key always meets itself).
    private static let stripes = (0..<16).map { _ in AsyncGate() }

    /// The refusal of a call whose key's record is in doubt.
    private func inDoubt(_ key: String, _ path: String, _ why: String) -> SkillError {
        SkillError(.unavailable, "idempotency key \"\(key)\" is in doubt: its record \(path) — \(why); the call may already have run, so it was not run again",
                   hint: "check whether the earlier call took effect; then remove \(path) to allow the key again, or use a new key")
    }

    /// Whether the record at `path` was last written longer ago than the window (then it is forgotten,
    /// whatever it holds).
    private func windowPassed(_ path: String, now: Double) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        return now - (Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9) >= Double(windowSeconds)
    }

    private static func bytes(_ j: JSON) -> [UInt8] {
        var out: [UInt8] = []
        j.write(to: &out)
        return out
    }

    /// The stored `invoke --json` response as a success, marked replayed.
    static func success(_ j: JSON?) -> InvokeSuccess? {
        guard let j, let intent = j["intent"]?.stringValue, let skill = j["skill"]?.stringValue,
              let version = j["version"]?.stringValue, let result = j["result"] else { return nil }
        var s = InvokeSuccess(intent: intent, skillID: skill, skillVersion: version, result: result, message: j["message"]?.stringValue, durationMs: 0)
        s.replayed = true
        return s
    }

    /// `v` with every object's members sorted by key, so member order does not change the fingerprint.
    static func canonical(_ v: JSON) -> JSON {
        switch v {
        case .object(let o): return .object(JSONObject(o.members.sorted { $0.key < $1.key }.map { ($0.key, canonical($0.value)) }))
        case .array(let a): return .array(a.map(canonical))
        default: return v
        }
    }

    /// Removes records older than the window (their files' mtime tells).
    private func prune(now: Double) {
        guard let d = opendir(dir) else { return }
        defer { closedir(d) }
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".json") else { continue }
            var st = stat()
            let path = dir + "/" + name
            if stat(path, &st) == 0, now - (Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9) >= Double(windowSeconds) { unlink(path); unlink(path + ".lock") }
        }
    }
}
