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
struct IdempotencyStore: Sendable {
    let dir: String
    let windowSeconds: Int

    init(stateDir: String, windowSeconds: Int) {
        dir = stateDir + "/idempotency"
        self.windowSeconds = windowSeconds
    }

    /// Runs `call` once per key and fingerprint within the window; see the type's comment.
    func run(key: String, intent: String, input: JSON, _ call: () async -> Result<InvokeSuccess, SkillError>) async -> Result<InvokeSuccess, SkillError> {
        let hashed = SHA256.hex(of: Array(key.utf8))
        let file = StateFile(path: dir + "/" + hashed + ".json")
        let fingerprint = SHA256.hex(of: Array((intent + "\n" + Self.canonical(input).serialized).utf8))
        // Calls with one key in this process queue here, as suspended tasks; the flock below then only
        // ever waits for another process.
        let stripe = Self.stripes[Int(hashed.utf8.first! % UInt8(Self.stripes.count))]
        _ = await stripe.enter(until: .distantFuture)
        defer { stripe.leave() }
        let now = RateLimiter.now()  // sub-second: a whole-second clock would end a window up to 1 s early
        let lock = file.lock()
        defer { file.unlock(lock) }
        do {
            if let bytes = file.read(), let r = try? JSON.parse(bytes), let at = r["at"]?.doubleValue, now - at < Double(windowSeconds) {
                guard r["fingerprint"]?.stringValue == fingerprint, let s = Self.success(r["response"]) else {
                    return .failure(SkillError(.invalidInput, "idempotency key \"\(key)\" was already used at \(TimeText.rfc3339(Int(at))) for another call (\(r["intent"]?.stringValue ?? "?") with other input); a key may only repeat the same call",
                                               hint: "use a new key for a new call (keys are remembered for \(windowSeconds) s)"))
                }
                return .success(s)
            }
            let outcome = await call()
            if case .success(let s) = outcome {
                let record = JSON.object(JSONObject([("key", .string(key)), ("intent", .string(intent)), ("fingerprint", .string(fingerprint)),
                                                     ("at", .double(now)), ("response", s.json)]))
                var bytes: [UInt8] = []
                record.write(to: &bytes)
                file.replace(with: bytes)
                prune(now: now)
            }
            return outcome
        }
    }

    /// In-process queues for keys (by the first byte of the key's hash, so one key always meets itself).
    private static let stripes = (0..<16).map { _ in AsyncGate() }

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
