import Synchronization

/// The partial sandboxes workers reported, kept across `skillhost` commands in
/// `$XDG_STATE_HOME/skillhost/sandbox-reports.json` (`{"ID":{"mode":"partial","missing":[…]}}`), so
/// that `list` and `doctor` in a later process show what a worker really applied, not only what the
/// kernel probe predicts: a filter that fails to install (filters the worker inherited fill the
/// kernel's budget) cannot be predicted in the host. A skill's entry is written when a worker reports
/// a partial sandbox other than the stored one, and removed when a worker reports "full"; a worker
/// whose report matches the stored entry costs no write. Readers take no lock; writers take the
/// file's `flock`. A file that cannot be read or written is logged and read as empty: these reports
/// only inform, no guarantee rests on them.
enum SandboxReports {
    private struct Store {
        var path: String?
        /// The file's entries, read once on first use (nil: not read yet).
        var entries: [String: SandboxFacts.Fact]?
    }
    private static let store = Mutex(Store())

    /// Where the reports live: set by each `SkillHost` when it opens (the last one wins).
    static func use(stateDir: String) {
        store.withLock { $0 = Store(path: stateDir + "/sandbox-reports.json") }
    }

    /// The stored report of skill `id`, if its last worker reported a partial sandbox.
    static func report(for id: String) -> SandboxFacts.Fact? {
        store.withLock { s in
            guard let path = s.path else { return nil }
            if s.entries == nil { s.entries = read(StateFile(path: path)) }
            return s.entries?[id]
        }
    }

    /// Records what a worker of skill `id` reported (a partial sandbox is stored, "full" removes the entry).
    static func record(_ fact: SandboxFacts.Fact, for id: String) {
        let keep: SandboxFacts.Fact? = fact.mode == "partial" ? SandboxFacts.Fact(mode: fact.mode, missing: fact.missing, applyMicros: 0) : nil
        store.withLock { s in
            guard let path = s.path else { return }
            let file = StateFile(path: path)
            if s.entries == nil { s.entries = read(file) }
            if s.entries?[id] == keep { return }
            file.locked {
                var entries = read(file)
                entries[id] = keep
                var out: [UInt8] = []
                JSON.object(JSONObject(entries.sorted { $0.key < $1.key }.map { e in
                    (e.key, JSON.object(JSONObject([("mode", .string(e.value.mode)), ("missing", .array(e.value.missing.map(JSON.string)))])))
                })).write(to: &out)
                out.append(0x0a)
                file.replace(with: out)
                s.entries = entries
            }
        }
    }

    private static func read(_ file: StateFile) -> [String: SandboxFacts.Fact] {
        guard let bytes = file.read() else { return [:] }
        guard let json = try? JSON.parse(bytes), case .object(let o) = json else {
            HostLog.warning("\(file.path) is not a JSON object; the workers' sandbox reports in it are ignored (the next report rewrites it)")
            return [:]
        }
        var out: [String: SandboxFacts.Fact] = [:]
        for m in o {
            guard let mode = m.value["mode"]?.stringValue else { continue }
            out[m.key] = SandboxFacts.Fact(mode: mode, missing: (m.value["missing"]?.arrayValue ?? []).compactMap(\.stringValue), applyMicros: 0)
        }
        return out
    }
}
