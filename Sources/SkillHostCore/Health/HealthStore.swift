import FoundationEssentials
import Glibc

/// The last answer of a health probe, kept inside a skill's `SkillHealth`.
public struct HealthRecord: Sendable, Equatable {
    public var status: String
    public var message: String
    public var checkedAt: String
    public var latencyMs: Double?
    /// SHA-256 of the file that answered (set by a probe).
    public var sha256: String?

    var json: JSON {
        var o = JSONObject([("status", .string(status)), ("message", .string(message)), ("checkedAt", .string(checkedAt))])
        if let latencyMs { o["latencyMs"] = .double((latencyMs * 100).rounded() / 100) }
        if let sha256 { o["sha256"] = .string(sha256) }
        return .object(o)
    }
}

/// Every skill's `SkillHealth`, persisted in `$XDG_STATE_HOME/skillhost/health.json` (one JSON object,
/// skill id → entry) so that it survives the host and is shared by separate `skillhost` commands.
///
/// - Reading (`load`) takes no lock: writers replace the file with an atomic `rename`, so a reader
///   sees the old or the new file, never half of one.
/// - Changing (`update`) is a read-modify-write under an exclusive `flock` on `health.json.lock`, so
///   two processes recording outcomes at once both count. The new file is written to a temporary
///   file and renamed into place.
/// Errors are not the caller's problem: an unreadable file reads as empty, a failed write is logged.
/// A value type holding only the path; safe to use from any thread (the lock is per process and file).
struct HealthStore: Sendable {
    let path: String
    private var file: StateFile { StateFile(path: path) }

    init(stateDir: String) { path = stateDir + "/health.json" }

    func load() -> [String: SkillHealth] { Self.parse(file.read() ?? []) }

    /// Applies `change` to the stored entries under the lock and writes the result; returns it.
    @discardableResult
    func update(_ change: (inout [String: SkillHealth]) -> Void) -> [String: SkillHealth] {
        file.locked {
            var entries = load()
            change(&entries)
            let doc = JSON.object(JSONObject(entries.keys.sorted().map { (key: $0, value: entries[$0]!.json) }))
            var bytes: [UInt8] = []
            doc.write(to: &bytes)
            bytes.append(0x0a)
            file.replace(with: bytes)
            return entries
        }
    }

    /// Modification time of the file in ns, or 0 when there is none (to notice other processes' writes).
    func stamp() -> Int64 {
        var st = stat()
        guard stat(path, &st) == 0 else { return 0 }
        return (Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)) ^ Int64(bitPattern: UInt64(st.st_ino))
    }

    static func parse(_ bytes: [UInt8]) -> [String: SkillHealth] {
        guard !bytes.isEmpty, let j = try? JSON.parse(bytes), let o = j.objectValue else { return [:] }
        var out: [String: SkillHealth] = [:]
        for m in o {
            if let e = SkillHealth(json: m.value) { out[m.key] = e }
        }
        return out
    }
}
