import Glibc
import Synchronization

/// The host's live view of every registered skill's health, recorded from real outcomes (every call
/// and every probe) and persisted through `HealthStore`, so separate `skillhost` commands and a host
/// restart see the same states.
///
/// Cost: a failure, a probe, an unblock or any state change is written at once (read-modify-write
/// under `flock`). A success that changes nothing (the skill is `ok`) only counts in memory; the
/// count is written with the next write, after a second, at `flush()` (host shutdown) or at process
/// exit — so the hot path of a healthy skill is two locks and no lookup by name: the skill's memo
/// (`SkillMemo.Health`) remembers in which view its entry was `ok` and its row among the counted
/// successes, and any change of the view makes that stale. The view of the file
/// is refreshed when another process changed it (checked at most every 250 ms), which is how an
/// `unblock` from another command reaches a long-running host.
///
/// Fails closed: a call is only let through (`refusal(for:)`) when its outcome can be recorded — the
/// file can be read, the last write succeeded (or succeeds when retried now), and the state folder is
/// a writable folder with room left. Otherwise the call is refused as `unavailable` naming the folder,
/// the reason and the space, so crashes can never go uncounted toward quarantine.
/// Owned by the `Invoker`; thread-safe.
final class HealthTracker: Sendable {
    let store: HealthStore
    let settings: HealthSettings
    /// Registered skill id → the file the registry has for it (replaced when the registry is).
    var files: [String: FileIdentity] { fileMap.withLock { $0 } }
    private let fileMap: Mutex<[String: FileIdentity]>
    /// The file the registry has for skill `id` (one lookup, no copy of the map).
    private func file(_ id: String) -> FileIdentity? { fileMap.withLock { $0[id] } }

    private struct State {
        /// Every change (a reload, a write, a failed write's own view) counts up `generation`.
        var view: [String: SkillHealth] = [:] { didSet { generation &+= 1 } }
        /// Which view memos were filled in (see `SkillMemo.Health.okIn`); never 0.
        var generation: UInt64 = 1
        var stamp: Int64 = 0
        var checkedAt: UInt64 = 0
        /// Successes counted in memory only, a row per skill memo (a skill can have two rows: two
        /// registered values of one id; the write adds them up). `pendingEpoch` counts up whenever the
        /// list starts over, which makes every memo's row stale.
        var pending: [(id: String, count: Int)] = []
        var pendingEpoch: UInt64 = 1
        var pendingSince: UInt64 = 0
        /// Why the file could not be read or the last change could not be written, if so; cleared by
        /// the next write that succeeds.
        var problem: StateFile.Failure?
        /// Events whose write failed: applied to `view`, and written again before the next call.
        var unrecorded: [(String, HealthEvent)] = []
    }
    private let state = Mutex(State())
    /// How this tracker names itself in skills' memos.
    private let memoOwner = SkillMemo.Owner()
    /// When `preflight` last passed (uptime ns; 0: never).
    private let lastPreflightOK = Atomic<UInt64>(0)

    init(stateDir: String, settings: HealthSettings, files: [String: FileIdentity]) {
        store = HealthStore(stateDir: stateDir)
        self.settings = settings
        fileMap = Mutex(files)
        state.withLock { s in
            s.stamp = store.stamp()
            if s.stamp != 0 { reload(&s) }
            s.checkedAt = Self.uptimeNs()
        }
        Self.live.withLock { $0.append(self) }
        if !Self.atExitRegistered.exchange(true, ordering: .relaxed) {
            atexit { for t in HealthTracker.live.withLock({ $0 }) { t.flush() } }
        }
    }

    static func now() -> Int { Int(time(nil)) }

    /// The registry changed: from now on, entries are about these files (a replaced file starts over).
    func setFiles(_ files: [String: FileIdentity]) { fileMap.withLock { $0 = files } }

    /// The entry of skill `id` as it stands now (a fresh `ok` one for a skill never seen, or whose
    /// file changed since the entry was written; `degraded` reads as `ok` once the window passed).
    func current(_ id: String) -> SkillHealth {
        let file = file(id)
        let raw = state.withLock { s -> SkillHealth? in
            refreshIfChanged(&s, at: Self.uptimeNs())
            return Self.entry(s.view, id, file)
        }
        return HealthMachine.effective(Self.forFile(raw, file), now: Self.now(), settings: settings)
    }

    /// `current` of every registered skill.
    func all() -> [String: SkillHealth] {
        let view = state.withLock { s -> [String: SkillHealth] in
            refreshIfChanged(&s, at: Self.uptimeNs())
            return s.view
        }
        let now = Self.now()
        var out: [String: SkillHealth] = [:]
        out.reserveCapacity(files.count)
        for (id, f) in files { out[id] = HealthMachine.effective(Self.forFile(Self.entry(view, id, f), f), now: now, settings: settings) }
        return out
    }

    /// Records `event` for `skill` (a call's outcome, from the file its binding named).
    func record(_ skill: RegisteredSkill, _ event: HealthEvent) {
        if case .succeeded(let n) = event {
            let buffered = state.withLock { s -> Bool in
                let t = Self.uptimeNs()
                refreshIfChanged(&s, at: t)
                guard s.problem == nil else { return false }
                return skill.memo.health.withLock { m -> Bool in
                    if m?.owner != memoOwner { m = SkillMemo.Health(owner: memoOwner) }
                    if m!.okIn != s.generation {
                        guard let entry = s.view[skill.id] else { return false }
                        // The file that answered, from the call's own binding (not `fileMap`).
                        let file = FileIdentity(skill.file)
                        if entry.state == .ok && entry.file == file {
                            m!.okIn = s.generation  // an entry for this file that is ok stays ok until the view changes
                        } else {
                            // Degraded reads as ok once its window passed (`effective`), but is not
                            // remembered: its entry still says degraded.
                            guard HealthMachine.effective(Self.forFile(entry, file), now: Self.now(), settings: settings).state == .ok else { return false }
                        }
                    }
                    if s.pending.isEmpty { s.pendingSince = t }
                    if m!.pendingEpoch == s.pendingEpoch {
                        s.pending[m!.pendingRow].count += n
                    } else {
                        (m!.pendingEpoch, m!.pendingRow) = (s.pendingEpoch, s.pending.count)
                        s.pending.append((skill.id, n))
                    }
                    return t - s.pendingSince < 1_000_000_000
                }
            }
            if buffered { return }
        }
        recordAll([(skill.id, event)])
    }

    /// Records several events in one write (a probe of every skill). Returns why they could not be
    /// written, if so: they then count in this process only, are written again before the next call,
    /// and calls are refused until they are (see `refusal(for:)`).
    @discardableResult
    func recordAll(_ events: [(String, HealthEvent)]) -> StateFile.Failure? {
        state.withLock { s in
            let all = s.pending.map { ($0.id, HealthEvent.succeeded(count: $0.count)) } + s.unrecorded + events
            s.pending = []
            s.pendingEpoch &+= 1
            write(all, &s)
            return s.problem
        }
    }

    private func write(_ events: [(String, HealthEvent)], _ s: inout State) {
        let now = Self.now()
        do throws(StateFile.Failure) {
            s.view = try store.update { entries in
                for (id, e) in events { apply(e, id, &entries, now) }
            }
            s.problem = nil
            s.unrecorded = []
            s.stamp = store.stamp()
        } catch {
            if s.problem == nil { HostLog.warning("\(error): health outcomes cannot be recorded, so calls are refused until they can") }
            s.problem = error
            s.unrecorded = events
            var view = s.view
            for (id, e) in events { apply(e, id, &view, now) }
            s.view = view
        }
        s.checkedAt = Self.uptimeNs()
    }

    /// Why a call of `skill` must not go ahead, if it must not: its outcome could not be recorded (the
    /// health file cannot be read, an earlier outcome could not be written and still cannot, or the
    /// state folder is not a writable folder with room left), or the skill is quarantined.
    func refusal(for skill: RegisteredSkill) -> SkillError? {
        let file: FileIdentity? = FileIdentity(skill.file)  // the binding's file, as `fileMap` has it
        // Only a quarantined entry leaves the lock: `effective` never enters quarantine, and `forFile`
        // keeps one only for the same file (or a lost record that names none).
        let (problem, quarantine) = state.withLock { s -> (StateFile.Failure?, SkillHealth?) in
            refreshIfChanged(&s, at: Self.uptimeNs())
            if s.problem != nil {
                // Try again: the folder may have room now, or the file may be readable.
                if s.unrecorded.isEmpty { reload(&s) } else { write(s.unrecorded, &s) }
            }
            // A skill whose entry was ok in this very view is not quarantined: no lookup.
            if let m = skill.memo.health.withLock({ $0 }), m.owner == memoOwner, m.okIn == s.generation { return (s.problem, nil) }
            guard let e = Self.entry(s.view, skill.id, file), e.state == .quarantined else { return (s.problem, nil) }
            return (s.problem, e)
        }
        if let problem = problem ?? preflightRecently() {
            return problem.refusal("the outcome of a call of skill \(skill.id) (crashes count toward quarantine)", skillID: skill.id)
        }
        if let quarantine, case let h = HealthMachine.effective(Self.forFile(quarantine, file), now: Self.now(), settings: settings),
           h.state == .quarantined {
            return SkillError(.unavailable, "skill \(skill.id) is quarantined since \(TimeText.rfc3339(h.since)): \(h.reason)",
                              hint: "fix the skill and replace its file (\(skill.file.path)), or run `skillhost unblock \(skill.id)` to let calls through again",
                              skillID: skill.id)
        }
        return nil
    }

    /// `preflight`, at most once per 100 ms while it passes (four system calls saved on the calls in
    /// between); a failing check is repeated on every call until it passes. The write itself still
    /// fails closed (`problem`) if space runs out inside that window.
    func preflightRecently() -> StateFile.Failure? {
        let now = Self.uptimeNs()
        let last = lastPreflightOK.load(ordering: .relaxed)
        if last != 0 && now &- last < 100_000_000 { return nil }
        let problem = preflight()
        if problem == nil { lastPreflightOK.store(now, ordering: .relaxed) }
        return problem
    }
    /// Why the state folder cannot take a health write now, if it cannot: it is not a folder, is not
    /// writable (a read-only file system, permissions), or has less than 64 KiB (plus twice the file)
    /// or no inodes left. Three system calls; run before every call.
    func preflight() -> StateFile.Failure? {
        let dir = PathText.directory(of: store.path)
        var st = stat()
        if stat(dir, &st) != 0 {
            return errno == ENOENT ? nil : StateFile.Failure("record health in", dir)  // a missing folder is made on the first write
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return StateFile.Failure("record health in", dir, reason: "it is not a folder") }
        if access(dir, W_OK) != 0 { return StateFile.Failure("record health in", dir) }
        var vfs = statvfs()
        guard statvfs(dir, &vfs) == 0 else { return nil }
        let blocks = geteuid() == 0 ? UInt64(vfs.f_bfree) : UInt64(vfs.f_bavail)
        let free = blocks * UInt64(vfs.f_frsize)
        var fst = stat()
        let size = stat(store.path, &fst) == 0 ? UInt64(fst.st_size) : 0
        let needed = 65_536 + 2 * size
        if free < needed {
            return StateFile.Failure("record health in", store.path, reason: "no space left: \(free) bytes free in \(dir), at least \(needed) needed")
        }
        if vfs.f_files > 0 && vfs.f_favail == 0 {
            return StateFile.Failure("record health in", store.path, reason: "no inodes left in \(dir)")
        }
        return nil
    }

    /// Problems with the recorded health that `doctor` reports: a file that cannot be read or written,
    /// and damaged files kept aside.
    func problems() -> [(message: String, hint: String)] {
        var out: [(String, String)] = []
        if let p = state.withLock({ $0.problem }) ?? preflight() {
            out.append(("health outcomes cannot be recorded, so calls are refused: \(p)" + StateFile.spaceNote(PathText.directory(of: store.path)),
                        "make room in (or repair) \(PathText.directory(of: store.path))"))
        }
        for kept in store.keptAside() {
            out.append(("\(store.path) was found damaged and kept as \(kept); the skills it recorded are treated as quarantined until unblocked",
                        "check the skills (`skillhost list`), run `skillhost unblock ID` for each one you trust, then remove \(kept)"))
        }
        return out
    }

    /// Writes the successes counted in memory only.
    func flush() {
        guard state.withLock({ !$0.pending.isEmpty }) else { return }
        recordAll([])
    }

    private func apply(_ event: HealthEvent, _ id: String, _ entries: inout [String: SkillHealth], _ now: Int) {
        guard let f = file(id) else { return }
        entries[id] = HealthMachine.apply(event, to: Self.forFile(Self.entry(entries, id, f), f), now: now, settings: settings)
    }

    /// The entry of `id` in `entries`; for a skill without one, the entry that stands for skills whose
    /// record was lost with a damaged file (`HealthStore.lostKey`), if its file is older than the loss.
    static func entry(_ entries: [String: SkillHealth], _ id: String, _ file: FileIdentity?) -> SkillHealth? {
        if let e = entries[id] { return e }
        guard let lost = entries[HealthStore.lostKey], let file, file.mtimeNs / 1_000_000_000 <= Int64(lost.since) else { return nil }
        return lost
    }

    /// `entry` if it is about `file` (or is a quarantine that names no file: a lost record); else a
    /// fresh entry for `file` (a replaced file starts over).
    static func forFile(_ entry: SkillHealth?, _ file: FileIdentity?) -> SkillHealth {
        if var lost = entry, lost.file == nil, lost.state == .quarantined {
            lost.file = file
            return lost
        }
        guard let entry, entry.file == file else {
            var fresh = SkillHealth(file: file)
            if let old = entry, old.state != .ok {
                fresh.reason = "its file changed since it was \(old.state.rawValue)"
                fresh.probe = nil
            }
            return fresh
        }
        return entry
    }

    /// Monotonic nanoseconds, to the kernel's tick (a few ms): the clock of this tracker's intervals
    /// (the file's refresh, the preflight, buffered successes), all of 100 ms or more; it costs a
    /// fraction of a precise clock's read, and calls read it three times.
    static func uptimeNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    private func refreshIfChanged(_ s: inout State, at t: UInt64) {
        guard t &- s.checkedAt >= 250_000_000 else { return }
        s.checkedAt = t
        let stamp = store.stamp()
        if stamp != s.stamp {
            s.stamp = stamp
            reload(&s)
        }
    }

    /// Reads the file into `view`. A damaged file is kept aside and replaced at once (see
    /// `HealthStore`); a file that cannot be read keeps the old view and sets `problem`.
    private func reload(_ s: inout State) {
        switch store.load() {
        case .success(let entries):
            s.view = entries
            if s.unrecorded.isEmpty { s.problem = nil }
        case .failure(.unreadable(let f)):
            if s.problem == nil { HostLog.warning("\(f): calls are refused until the health of skills can be read") }
            s.problem = f
        case .failure(.damaged):
            write([], &s)
        }
    }

    private static let live = Mutex<[HealthTracker]>([])
    private static let atExitRegistered = Atomic<Bool>(false)
}
