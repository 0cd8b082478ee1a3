import Foundation
import Glibc

/// What the scanner learned about each file, keyed by absolute path and valid while the file's
/// inode, size and modification time are unchanged. Stored as JSON in
/// `$XDG_STATE_HOME/skillhost/scan-cache.json`; a cache written by another host build (ABI or
/// toolchain) is ignored. Writes go to a temporary file renamed into place, so a reader never sees
/// half a cache. Not thread-safe; owned by one `Scanner` call.
struct ScanCache {
    struct Key: Equatable {
        var inode: UInt64
        var size: Int64
        var mtimeNs: Int64
    }

    struct Entry {
        var key: Key
        var sha256: String?
        var outcome: Result<SkillManifest, Refusal>
    }

    static let formatVersion: Int64 = 1
    let path: String
    let hostSignature: String
    private(set) var entries: [String: Entry] = [:]
    private(set) var dirty = false

    init(path: String, hostSignature: String) {
        self.path = path
        self.hostSignature = hostSignature
        guard let data = FileManager.default.contents(atPath: path),
              let j = try? JSON.parse([UInt8](data)),
              j["format"]?.intValue == Self.formatVersion, j["host"]?.stringValue == hostSignature,
              let files = j["files"]?.objectValue else { return }
        for m in files {
            let e = m.value
            guard let ino = e["inode"]?.intValue, let size = e["size"]?.intValue, let mt = e["mtimeNs"]?.intValue else { continue }
            let key = Key(inode: UInt64(bitPattern: ino), size: size, mtimeNs: mt)
            let outcome: Result<SkillManifest, Refusal>
            if let mj = e["manifest"], let man = SkillManifest(json: mj) {
                outcome = .success(man)
            } else if let rj = e["refusal"], let r = Refusal(json: rj) {
                outcome = .failure(r)
            } else { continue }
            entries[m.key] = Entry(key: key, sha256: e["sha256"]?.stringValue, outcome: outcome)
        }
    }

    func lookup(_ file: String, _ key: Key) -> Entry? {
        guard let e = entries[file], e.key == key else { return nil }
        return e
    }

    /// Records the hash of an unchanged file.
    mutating func setHash(_ file: String, _ key: Key, _ sha256: String) {
        guard var e = entries[file], e.key == key, e.sha256 != sha256 else { return }
        e.sha256 = sha256
        entries[file] = e
        dirty = true
    }

    mutating func store(_ file: String, _ entry: Entry) {
        entries[file] = entry
        dirty = true
    }

    /// Drops entries for files that no longer exist in any scanned folder.
    mutating func retain(only files: Set<String>) {
        for f in entries.keys where !files.contains(f) {
            entries[f] = nil
            dirty = true
        }
    }

    /// Writes the cache if anything changed. Failure to write is not an error for the caller
    /// (the next run rescans); it is returned so it can be logged.
    func save() -> String? {
        guard dirty else { return nil }
        var files = JSONObject()
        for f in entries.keys.sorted() {
            let e = entries[f]!
            var o = JSONObject([("inode", .int(Int64(bitPattern: e.key.inode))), ("size", .int(e.key.size)),
                                ("mtimeNs", .int(e.key.mtimeNs))])
            if let s = e.sha256 { o["sha256"] = .string(s) }
            switch e.outcome {
            case .success(let m): o["manifest"] = m.json
            case .failure(let r): o["refusal"] = r.json
            }
            files[f] = .object(o)
        }
        let doc = JSON.object(JSONObject([("format", .int(Self.formatVersion)), ("host", .string(hostSignature)),
                                          ("files", .object(files))]))
        do {
            try makeDirectories((path as NSString).deletingLastPathComponent)
            let tmp = path + ".tmp.\(getpid())"
            try Data(doc.serialized.utf8).write(to: URL(fileURLWithPath: tmp))
            guard rename(tmp, path) == 0 else { return "cannot replace \(path): \(String(cString: strerror(errno)))" }
            return nil
        } catch {
            return "cannot write the scan cache \(path): \(error.localizedDescription)"
        }
    }
}
