import FoundationEssentials
import Glibc

/// What the scanner learned about each file, keyed by absolute path and valid while the file's
/// inode, size and modification time are unchanged. Kept in `$XDG_STATE_HOME/skillhost/scan-cache`:
/// one line of JSON (the index), then the manifests' JSON texts back to back. The index is
/// `{"format":2,"host":…,"files":[[path, inode, size, mtimeNs, sha256|null, summary, offset, length]
/// or [path, inode, size, mtimeNs, sha256|null, refusal], …]}`, arrays rather than objects because a
/// warm start reads it on every command. A warm start
/// parses only the small index; a manifest's text is handed around as bytes and parsed only when a
/// caller needs its schemas. A cache written by another host build (ABI or toolchain) is ignored.
/// Writes go to a temporary file renamed into place, so a reader never sees half a cache.
/// Not thread-safe; owned by one `Scanner` call.
struct ScanCache {
    struct Key: Equatable {
        var inode: UInt64
        var size: Int64
        var mtimeNs: Int64
    }

    /// A manifest as the cache keeps it: the summary, and the full manifest as JSON text.
    struct Stored: Sendable {
        var summary: SkillSummary
        var text: [UInt8]
    }

    struct Entry {
        var key: Key
        var sha256: String?
        var outcome: Result<Stored, Refusal>
    }

    static let formatVersion: Int64 = 3
    let path: String
    let hostSignature: String
    private(set) var entries: [String: Entry] = [:]
    private(set) var dirty = false

    init(path: String, hostSignature: String) {
        self.path = path
        self.hostSignature = hostSignature
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let bytes = [UInt8](data)
        guard let nl = bytes.firstIndex(of: 0x0a),
              let j = try? JSON.parse(Array(bytes[..<nl])),
              j["format"]?.intValue == Self.formatVersion, j["host"]?.stringValue == hostSignature,
              let files = j["files"]?.arrayValue else { return }
        let blob = nl + 1
        for f in files {
            guard let e = f.arrayValue, e.count >= 6, let path = e[0].stringValue, let ino = e[1].intValue,
                  let size = e[2].intValue, let mt = e[3].intValue else { continue }
            let key = Key(inode: UInt64(bitPattern: ino), size: size, mtimeNs: mt)
            let outcome: Result<Stored, Refusal>
            if e.count == 8, let summary = SkillSummary(compact: e[5]), let off = e[6].intValue, let len = e[7].intValue,
               off >= 0, len > 0, blob + Int(off) + Int(len) <= bytes.count {
                let start = blob + Int(off)
                outcome = .success(Stored(summary: summary, text: Array(bytes[start..<start + Int(len)])))
            } else if e.count == 6, let r = Refusal(json: e[5]) {
                outcome = .failure(r)
            } else { continue }
            entries[path] = Entry(key: key, sha256: e[4].stringValue, outcome: outcome)
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

    mutating func store(_ file: String, key: Key, outcome: Result<SkillManifest, Refusal>) {
        entries[file] = Entry(key: key, sha256: nil, outcome: outcome.map {
            var text: [UInt8] = []
            $0.json.write(to: &text)
            return Stored(summary: $0.summary, text: text)
        })
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
        var files: [JSON] = []
        var blob: [UInt8] = []
        for f in entries.keys.sorted() {
            let e = entries[f]!
            var row: [JSON] = [.string(f), .int(Int64(bitPattern: e.key.inode)), .int(e.key.size), .int(e.key.mtimeNs),
                               e.sha256.map(JSON.string) ?? .null]
            switch e.outcome {
            case .success(let m):
                row += [m.summary.compactJSON, .int(Int64(blob.count)), .int(Int64(m.text.count))]
                blob.append(contentsOf: m.text)
            case .failure(let r): row.append(r.json)
            }
            files.append(.array(row))
        }
        let index = JSON.object(JSONObject([("format", .int(Self.formatVersion)), ("host", .string(hostSignature)),
                                            ("files", .array(files))]))
        var out: [UInt8] = []
        out.reserveCapacity(blob.count + 65536)
        index.write(to: &out)
        out.append(0x0a)
        out.append(contentsOf: blob)
        do {
            try makeDirectories(PathText.directory(of: path))
            let tmp = path + ".tmp.\(getpid())"
            try Data(out).write(to: URL(fileURLWithPath: tmp))
            guard rename(tmp, path) == 0 else { return "cannot replace \(path): \(String(cString: strerror(errno)))" }
            return nil
        } catch {
            return "cannot write the scan cache \(path): \(error)"
        }
    }
}
