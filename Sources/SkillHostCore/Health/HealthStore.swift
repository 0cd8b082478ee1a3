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
///
/// Nothing is reset silently (guarantees fail closed):
/// - A file that cannot be read (EIO, EACCES, a folder in its place) is a `LoadProblem.unreadable`, and
///   `update` throws: the tracker then refuses calls (see `HealthTracker.refusal`).
/// - A damaged file (not a JSON object: a bit flip, a truncation by hand) is kept aside as
///   `health.json.corrupt-<UTC time>` by the next `update`, with a warning on stderr, and replaced by
///   one entry `"*"` — quarantined since then — which stands for every skill without an entry of its own
///   whose file is older than that moment: their state is unknown, so they are treated as quarantined
///   until someone runs `skillhost unblock ID` (a file changed later starts fresh). `doctor` lists the
///   kept files.
/// - A member that cannot be read (a damaged entry inside a good file) reads as quarantined for that id.
/// A value type holding only the path; safe to use from any thread (the lock is per process and file).
struct HealthStore: Sendable {
    let path: String
    private var file: StateFile { StateFile(path: path) }

    /// The key of the entry that stands for every skill whose entry was lost with a damaged file.
    static let lostKey = "*"

    enum LoadProblem: Error {
        /// The file exists but is not a JSON object; the text says what the parser found.
        case damaged(String)
        /// The file exists but cannot be read.
        case unreadable(StateFile.Failure)
    }

    init(stateDir: String) { path = stateDir + "/health.json" }

    /// The entries; empty when there is no file.
    func load() -> Result<[String: SkillHealth], LoadProblem> {
        let bytes: [UInt8]?
        do throws(StateFile.Failure) { bytes = try file.load() } catch { return .failure(.unreadable(error)) }
        guard let bytes else { return .success([:]) }
        return Self.parse(bytes)
    }

    /// Applies `change` to the stored entries under the lock and writes the result; returns it. A
    /// damaged file is kept aside first (see the type's comment); a file that cannot be read, a lock
    /// that cannot be taken or a write that fails is thrown, and the stored file is then unchanged.
    @discardableResult
    func update(_ change: (inout [String: SkillHealth]) -> Void) throws(StateFile.Failure) -> [String: SkillHealth] {
        try file.lockedOrFail { () throws(StateFile.Failure) -> [String: SkillHealth] in
            var entries: [String: SkillHealth]
            switch load() {
            case .success(let e): entries = e
            case .failure(.unreadable(let f)): throw f
            case .failure(.damaged(let why)): entries = try setAside(why)
            }
            change(&entries)
            let doc = JSON.object(JSONObject(entries.keys.sorted().map { (key: $0, value: entries[$0]!.json) }))
            var bytes: [UInt8] = []
            doc.write(to: &bytes)
            bytes.append(0x0a)
            try file.store(bytes)
            return entries
        }
    }

    /// Moves the damaged file to `health.json.corrupt-<time>` and returns the entries that replace it.
    private func setAside(_ why: String) throws(StateFile.Failure) -> [String: SkillHealth] {
        let now = HealthTracker.now()
        let kept = path + ".corrupt-" + TimeText.rfc3339(now).filter { $0 != ":" && $0 != "-" }
        guard rename(path, kept) == 0 else { throw StateFile.Failure("keep the damaged file aside as", kept) }
        HostLog.warning("\(path) was damaged (\(why)); it was kept as \(kept), and every skill whose health it recorded is treated as quarantined until you check it and run `skillhost unblock ID` (nothing is reset silently)")
        var lost = SkillHealth()
        lost.state = .quarantined
        lost.since = now
        lost.reason = "its health record was lost: \(PathText.directory(of: path))/health.json was damaged and kept as \(kept); quarantined until someone checks it and runs `skillhost unblock`"
        return [Self.lostKey: lost]
    }

    /// Damaged files kept aside, oldest first (for `doctor`).
    func keptAside() -> [String] {
        let dir = PathText.directory(of: path)
        let prefix = PathText.fileName(of: path) + ".corrupt-"
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(prefix) { out.append(dir + "/" + name) }
        }
        return out.sorted()
    }

    /// Modification time of the file in ns, or 0 when there is none (to notice other processes' writes).
    func stamp() -> Int64 {
        var st = stat()
        guard stat(path, &st) == 0 else { return 0 }
        return (Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)) ^ Int64(bitPattern: UInt64(st.st_ino))
    }

    static func parse(_ bytes: [UInt8]) -> Result<[String: SkillHealth], LoadProblem> {
        let o: JSONObject
        do throws(JSONParseError) {
            guard let obj = try JSON.parse(bytes).objectValue else { return .failure(.damaged("not a JSON object")) }
            o = obj
        } catch {
            return .failure(.damaged(bytes.isEmpty ? "an empty file" : "\(error)"))
        }
        var out: [String: SkillHealth] = [:]
        for m in o {
            if let e = SkillHealth(json: m.value) {
                out[m.key] = e
            } else {
                var lost = SkillHealth()
                lost.state = .quarantined
                lost.reason = "its entry in health.json could not be read, so its state is unknown; quarantined until someone runs `skillhost unblock \(m.key)`"
                out[m.key] = lost
            }
        }
        return .success(out)
    }
}
