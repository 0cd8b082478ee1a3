import FoundationEssentials
import Glibc

/// The last known health of each skill, persisted in `$XDG_STATE_HOME/skillhost/health.json` so
/// that `list` can show it without calling any skill. `skillhost health` refreshes it.
public struct HealthRecord: Sendable {
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

struct HealthStore {
    let path: String

    func load() -> [String: HealthRecord] {
        guard let data = FileManager.default.contents(atPath: path), let j = try? JSON.parse([UInt8](data)),
              let o = j.objectValue else { return [:] }
        var out: [String: HealthRecord] = [:]
        for m in o {
            guard let s = m.value["status"]?.stringValue else { continue }
            out[m.key] = HealthRecord(status: s, message: m.value["message"]?.stringValue ?? "",
                                      checkedAt: m.value["checkedAt"]?.stringValue ?? "", latencyMs: m.value["latencyMs"]?.doubleValue,
                                      sha256: m.value["sha256"]?.stringValue)
        }
        return out
    }

    func save(_ records: [String: HealthRecord]) {
        let doc = JSON.object(JSONObject(records.keys.sorted().map { (key: $0, value: records[$0]!.json) }))
        do {
            try makeDirectories(PathText.directory(of: path))
            let tmp = path + ".tmp.\(getpid())"
            try Data(doc.pretty.utf8).write(to: URL(fileURLWithPath: tmp))
            rename(tmp, path)
        } catch {
            HostLog.warning("cannot write \(path): \(error)")
        }
    }
}
