import Synchronization

/// The partial sandboxes workers reported, kept across `skillhost` commands in one state folder's
/// `sandbox-reports.json` (`{"ID":{"mode":"partial","missing":[…],"plan":"…"}}`), so that `list` and
/// `doctor` in a later process show what a worker really applied, not only what the kernel probe
/// predicts: a filter that fails to install (filters the worker inherited fill the kernel's budget)
/// cannot be predicted in the host.
///
/// - Each entry names the sandbox plan it was reported under (`WorkerSandbox.plan`: the resolved
///   grants); a report for another plan — the grants changed since — is not shown, and is replaced by
///   the next worker's report.
/// - A skill's entry is written when a worker reports a partial sandbox, and removed when one reports
///   "full". Whether the file already says so is decided on the file, never on this process's copy
///   (another process may have changed it since), and read again under its `flock` before a change:
///   a worker whose report matches the file costs one read, no lock and no write.
/// - One per host (`RuntimePool` owns it), for that host's state folder; it also keeps, in memory, what
///   the latest worker of each skill reported (`latest`).
/// A file that cannot be read or written is logged and read as empty: these reports only inform, no
/// guarantee rests on them. Thread-safe; `record` does its file I/O outside the lock that guards the
/// copy `report` reads, and takes the file's lock only to change the file.
final class SandboxReports: Sendable {
    struct Entry: Equatable {
        var fact: SandboxFacts.Fact
        var plan: String
    }
    let file: StateFile
    /// The file's entries as this process last read or wrote them (nil: not read yet).
    private let entries = Mutex<[String: Entry]?>(nil)
    /// What the latest worker of each skill this host started reported (full ones too), in memory.
    private let live = Mutex<[String: SandboxFacts.Fact]>([:])

    init(stateDir: String) {
        file = StateFile(path: stateDir + "/sandbox-reports.json")
    }

    /// The stored partial report of skill `id`, if its last worker reported one under the plan
    /// `plan()` gives (asked only when there is a report: working a plan out resolves the grants).
    func report(for id: String, plan: () -> String?) -> SandboxFacts.Fact? {
        let stored = entries.withLock { e -> Entry? in
            if e == nil { e = Self.read(file) }
            return e?[id]
        }
        guard let stored, stored.plan == plan() else { return nil }
        return stored.fact
    }

    /// What the latest worker of skill `id` started by this host reported, if one did.
    func latest(for id: String) -> SandboxFacts.Fact? { live.withLock { $0[id] } }

    /// Records what a worker of skill `id`, started under `plan`, reported: kept in memory (`latest`);
    /// in the file, a partial sandbox is stored and "full" removes the entry.
    func record(_ fact: SandboxFacts.Fact, for id: String, plan: String) {
        live.withLock { $0[id] = fact }
        let keep = fact.mode == "partial" ? Entry(fact: SandboxFacts.Fact(mode: fact.mode, missing: fact.missing, applyMicros: 0), plan: plan) : nil
        // The usual case, a report the file already holds (no entry for a full sandbox), is read
        // without the lock: no lock file is made, no lock taken, on each worker's start.
        var now = Self.read(file)
        if now[id] != keep {
            file.locked {
                now = Self.read(file)
                if now[id] == keep { return }
                now[id] = keep
                var out: [UInt8] = []
                JSON.object(JSONObject(now.sorted { $0.key < $1.key }.map { e in
                    (e.key, JSON.object(JSONObject([("mode", .string(e.value.fact.mode)),
                                                    ("missing", .array(e.value.fact.missing.map(JSON.string))),
                                                    ("plan", .string(e.value.plan))])))
                })).write(to: &out)
                out.append(0x0a)
                file.replace(with: out)
            }
        }
        entries.withLock { $0 = now }
    }

    private static func read(_ file: StateFile) -> [String: Entry] {
        guard let bytes = file.read() else { return [:] }
        guard let json = try? JSON.parse(bytes), case .object(let o) = json else {
            HostLog.warning("\(file.path) is not a JSON object; the workers' sandbox reports in it are ignored (the next report rewrites it)")
            return [:]
        }
        var out: [String: Entry] = [:]
        for m in o {
            guard let mode = m.value["mode"]?.stringValue else { continue }
            out[m.key] = Entry(fact: SandboxFacts.Fact(mode: mode, missing: (m.value["missing"]?.arrayValue ?? []).compactMap(\.stringValue), applyMicros: 0),
                               plan: m.value["plan"]?.stringValue ?? "")
        }
        return out
    }
}
