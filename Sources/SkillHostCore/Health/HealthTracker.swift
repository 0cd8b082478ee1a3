import Dispatch
import Glibc
import Synchronization

/// The host's live view of every registered skill's health, recorded from real outcomes (every call
/// and every probe) and persisted through `HealthStore`, so separate `skillhost` commands and a host
/// restart see the same states.
///
/// Cost: a failure, a probe, an unblock or any state change is written at once (read-modify-write
/// under `flock`). A success that changes nothing (the skill is `ok`) only counts in memory; the
/// count is written with the next write, after a second, at `flush()` (host shutdown) or at process
/// exit — so the hot path of a healthy skill is a lock and a dictionary lookup. The view of the file
/// is refreshed when another process changed it (checked at most every 250 ms), which is how an
/// `unblock` from another command reaches a long-running host.
/// Owned by the `Invoker`; thread-safe.
final class HealthTracker: Sendable {
    let store: HealthStore
    let settings: HealthSettings
    /// Registered skill id → the file the registry has for it (replaced when the registry is).
    var files: [String: FileIdentity] { fileMap.withLock { $0 } }
    private let fileMap: Mutex<[String: FileIdentity]>

    private struct State {
        var view: [String: SkillHealth] = [:]
        var stamp: Int64 = 0
        var checkedAt: UInt64 = 0
        var pending: [String: Int] = [:]
        var pendingSince: UInt64 = 0
    }
    private let state = Mutex(State())

    init(stateDir: String, settings: HealthSettings, files: [String: FileIdentity]) {
        store = HealthStore(stateDir: stateDir)
        self.settings = settings
        fileMap = Mutex(files)
        let stamp = store.stamp()
        let view = stamp == 0 ? [:] : store.load()
        state.withLock { $0.view = view; $0.stamp = stamp; $0.checkedAt = DispatchTime.now().uptimeNanoseconds }
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
        let raw = state.withLock { s -> SkillHealth? in
            refreshIfChanged(&s)
            return s.view[id]
        }
        return HealthMachine.effective(Self.forFile(raw, files[id]), now: Self.now(), settings: settings)
    }

    /// `current` of every registered skill.
    func all() -> [String: SkillHealth] {
        let view = state.withLock { s -> [String: SkillHealth] in
            refreshIfChanged(&s)
            return s.view
        }
        let now = Self.now()
        var out: [String: SkillHealth] = [:]
        for (id, f) in files { out[id] = HealthMachine.effective(Self.forFile(view[id], f), now: now, settings: settings) }
        return out
    }

    /// Records `event` for skill `id`.
    func record(_ id: String, _ event: HealthEvent) {
        if case .succeeded(let n) = event {
            let buffered = state.withLock { s -> Bool in
                refreshIfChanged(&s)
                let e = HealthMachine.effective(Self.forFile(s.view[id], files[id]), now: Self.now(), settings: settings)
                guard e.state == .ok, s.view[id] != nil else { return false }
                if s.pending.isEmpty { s.pendingSince = DispatchTime.now().uptimeNanoseconds }
                s.pending[id, default: 0] += n
                return DispatchTime.now().uptimeNanoseconds - s.pendingSince < 1_000_000_000
            }
            if buffered { return }
        }
        recordAll([(id, event)])
    }

    /// Records several events in one write (a probe of every skill).
    func recordAll(_ events: [(String, HealthEvent)]) {
        state.withLock { s in
            let pending = s.pending
            s.pending = [:]
            let now = Self.now()
            s.view = store.update { entries in
                for (id, n) in pending { apply(.succeeded(count: n), id, &entries, now) }
                for (id, e) in events { apply(e, id, &entries, now) }
            }
            s.stamp = store.stamp()
            s.checkedAt = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Writes the successes counted in memory only.
    func flush() {
        guard state.withLock({ !$0.pending.isEmpty }) else { return }
        recordAll([])
    }

    private func apply(_ event: HealthEvent, _ id: String, _ entries: inout [String: SkillHealth], _ now: Int) {
        guard let f = files[id] else { return }
        entries[id] = HealthMachine.apply(event, to: Self.forFile(entries[id], f), now: now, settings: settings)
    }

    /// `entry` if it is about `file`; else a fresh entry for `file` (a replaced file starts over).
    static func forFile(_ entry: SkillHealth?, _ file: FileIdentity?) -> SkillHealth {
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

    private func refreshIfChanged(_ s: inout State) {
        let t = DispatchTime.now().uptimeNanoseconds
        guard t - s.checkedAt >= 250_000_000 else { return }
        s.checkedAt = t
        let stamp = store.stamp()
        if stamp != s.stamp {
            s.view = store.load()
            s.stamp = stamp
        }
    }

    private static let live = Mutex<[HealthTracker]>([])
    private static let atExitRegistered = Atomic<Bool>(false)
}
