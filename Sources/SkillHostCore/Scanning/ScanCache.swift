import SkillWire
import Glibc

/// What the scanner learned about each file, keyed by absolute path and valid while the file's
/// inode, size, modification time, change time and mode are unchanged (a `chmod` changes the last two,
/// so a permission fix is seen at the next scan). Kept in `$XDG_STATE_HOME/skillhost/scan-cache`:
/// a header line `skillhost-scan-cache FORMAT CHECKSUM` (the checksum of the index line), one line of
/// JSON (the index), then the manifests' JSON texts back to back. The index is
/// `{"format":5,"host":…,"files":[[path, inode, size, mtimeNs, ctimeNs, mode, sha256|null, summary,
/// offset, length, checksum] or [path, inode, size, mtimeNs, ctimeNs, mode, sha256|null, refusal], …]}`,
/// arrays rather than objects because a warm start reads it on every command. A warm start reads only
/// the small index, straight from its bytes (`readIndex`); a manifest's text is handed around as bytes and parsed only when a caller needs its
/// schemas. A cache written by another host build (ABI or toolchain) is ignored.
///
/// Damage heals itself: an index whose checksum does not match is dropped whole, and a manifest text
/// whose checksum (see `checksum`: every changed byte changes it) does not match drops that entry,
/// so the file is scanned again and the cache rewritten — a flipped bit never reaches `list --json`.
/// Writes go to a temporary file renamed into place, so a reader never sees half a cache.
/// Not thread-safe; owned by one `Scanner` call.
struct ScanCache {
    struct Key: Equatable {
        var inode: UInt64
        var size: Int64
        var mtimeNs: Int64
        var ctimeNs: Int64 = 0
        var mode: UInt32 = 0

        /// The same bytes (inode, size, modification time), whatever happened to the metadata.
        func sameContent(_ o: Key) -> Bool { inode == o.inode && size == o.size && mtimeNs == o.mtimeNs }
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
        /// This entry's row of the index as `save` writes it, made when it is stored (`store`: a cold
        /// scan stores each answer while the scan process loads the next files, so `save` only joins
        /// rows); nil for a row `save` makes itself (read from the cache, or its hash set since).
        var row: Row? = nil
    }

    /// An index row's bytes around its manifest text's offset in the blob (which depends on the
    /// order of the rows, known at `save`): `head` is `[path,inode,size,mtimeNs,ctimeNs,mode,sha256|null,`
    /// and the summary with its comma, `tail` is `length,"checksum"]`; a refusal's row is all `head`
    /// (`tail` is nil, and no offset goes between).
    struct Row {
        var head: [UInt8]
        var tail: [UInt8]?

        init(path: String, _ e: Entry) {
            head = [0x5b]
            head.reserveCapacity(path.utf8.count + 512)
            JSON.writeString(path, to: &head)
            head.append(0x2c)
            func number(_ n: Int64, to bytes: inout [UInt8]) {
                JSONText.appendInteger(n, to: &bytes)
                bytes.append(0x2c)
            }
            number(Int64(bitPattern: e.key.inode), to: &head); number(e.key.size, to: &head); number(e.key.mtimeNs, to: &head)
            number(e.key.ctimeNs, to: &head); number(Int64(e.key.mode), to: &head)
            if let h = e.sha256 { JSON.writeString(h, to: &head) } else { head.append(contentsOf: "null".utf8) }
            head.append(0x2c)
            switch e.outcome {
            case .success(let m):
                m.summary.compactJSON.write(to: &head)
                head.append(0x2c)
                var t: [UInt8] = []
                t.reserveCapacity(32)
                number(Int64(m.text.count), to: &t)
                JSON.writeString(ScanCache.checksum(m.text[...]), to: &t)
                t.append(0x5d)
                tail = t
            case .failure(let r):
                r.json.write(to: &head)
                head.append(0x5d)
                tail = nil
            }
        }
    }

    static let formatVersion: Int64 = 5
    static let magic = "skillhost-scan-cache"
    let path: String
    let hostSignature: String
    private(set) var entries: [String: Entry] = [:]
    private(set) var dirty = false
    /// Entries dropped because their checksum did not match (for tests and `doctor`).
    private(set) var damaged = 0

    init(path: String, hostSignature: String) {
        self.path = path
        self.hostSignature = hostSignature
        guard let bytes = StateFile(path: path).read() else { return }
        guard let nl1 = bytes.firstIndex(of: 0x0a), let nl = bytes[(nl1 + 1)...].firstIndex(of: 0x0a) else { dirty = true; return }
        let header = String(decoding: bytes[..<nl1], as: UTF8.self).split(separator: " ")
        guard header.count == 3, header[0] == Self.magic, header[1] == "\(Self.formatVersion)" else { dirty = true; return }
        let index = Array(bytes[(nl1 + 1)..<nl])
        guard header[2] == Self.checksum(index[...]) else {
            damaged = 1
            dirty = true
            return
        }
        guard let rows = index.withUnsafeBufferPointer({ Self.readIndex($0, hostSignature: hostSignature) }) else { dirty = true; return }
        let blob = nl + 1
        entries.reserveCapacity(rows.count)
        for row in rows {
            let outcome: Result<Stored, Refusal>
            switch row.body {
            case .manifest(let summary, let off, let len, let checksum):
                guard off >= 0, len > 0, off <= bytes.count, len <= bytes.count, blob + Int(off) + Int(len) <= bytes.count else {
                    dirty = true
                    continue
                }
                let start = blob + Int(off)
                let text = bytes[start..<start + Int(len)]
                guard checksum == Self.checksum(text) else {
                    damaged += 1
                    dirty = true
                    continue  // dropped: the file is scanned again
                }
                outcome = .success(Stored(summary: summary, text: Array(text)))
            case .refusal(let r):
                outcome = .failure(r)
            }
            entries[row.path] = Entry(key: row.key, sha256: row.sha256, outcome: outcome)
        }
    }

    /// FNV-1a (64 bits) taken over 8-byte little-endian words, then the last bytes one by one, as 16
    /// hex digits (format 5; format 4 took every byte alone, eight times the steps, and a warm start
    /// checks every manifest text). Each step — xor, then multiply by an odd number — is a bijection
    /// of the state, so a change in any one byte changes the result.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01b3
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for k in 0..<words { h = (h ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k * 8, as: UInt64.self))) &* prime }
            for k in (words * 8)..<raw.count { h = (h ^ UInt64(raw[k])) &* prime }
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Room for `count` entries at once (a folder's files, before they are stored one by one), so a
    /// cold scan does not grow the table step by step; nothing when there is room already.
    mutating func reserve(_ count: Int) {
        if entries.capacity < count { entries.reserveCapacity(count) }
    }

    func lookup(_ file: String, _ key: Key) -> Entry? {
        guard let e = entries[file], e.key == key else { return nil }
        return e
    }

    /// Records the hash of an unchanged file.
    mutating func setHash(_ file: String, _ key: Key, _ sha256: String) {
        guard var e = entries[file], e.key.sameContent(key), e.sha256 != sha256 else { return }
        e.sha256 = sha256
        e.row = nil
        entries[file] = e
        dirty = true
    }

    mutating func store(_ file: String, key: Key, outcome: Result<SkillManifest, Refusal>) {
        var e = Entry(key: key, sha256: nil, outcome: outcome.map {
            var text = Line()
            text.bytes.reserveCapacity(2048)
            $0.writeJSON(to: &text)
            return Stored(summary: $0.summary, text: text.bytes)
        })
        e.row = Row(path: file, e)
        entries[file] = e
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
    ///
    /// The index is written row by row as bytes (no JSON tree of 200 rows to build and walk), from the
    /// rows `store` made as the answers came (`Row`; only rows read from the cache are made here), and
    /// the manifest texts go straight after it into the one output buffer.
    func save() -> String? {
        guard dirty else { return nil }
        let files = entries.keys.sorted()
        var indexText: [UInt8] = Array(#"{"format":"#.utf8)
        indexText.reserveCapacity(files.count * 512 + 256)
        indexText.append(contentsOf: "\(Self.formatVersion)".utf8)
        indexText.append(contentsOf: #","host":"#.utf8)
        JSON.writeString(hostSignature, to: &indexText)
        indexText.append(contentsOf: #","files":["#.utf8)
        var texts: [[UInt8]] = []
        texts.reserveCapacity(files.count)
        var offset = 0
        for (k, f) in files.enumerated() {
            let e = entries[f]!
            if k > 0 { indexText.append(0x2c) }
            let row = e.row ?? Row(path: f, e)
            indexText.append(contentsOf: row.head)
            if let tail = row.tail, case .success(let m) = e.outcome {
                JSONText.appendInteger(Int64(offset), to: &indexText)
                indexText.append(0x2c)
                indexText.append(contentsOf: tail)
                offset += m.text.count
                texts.append(m.text)
            }
        }
        indexText.append(contentsOf: "]}".utf8)
        var out = Array("\(Self.magic) \(Self.formatVersion) \(Self.checksum(indexText[...]))\n".utf8)
        out.reserveCapacity(out.count + indexText.count + 1 + offset)
        out.append(contentsOf: indexText)
        out.append(0x0a)
        for t in texts { out.append(contentsOf: t) }
        // Plain system calls (StateFile: a temporary file, then rename): Foundation's directory and
        // file writing cost a cold scan of 200 files 2.5 ms of CPU.
        do throws(StateFile.Failure) {
            try StateFile.makeFolder(PathText.directory(of: path))
            try StateFile(path: path).store(out)
            return nil
        } catch {
            return "cannot write the scan cache: \(error)"
        }
    }
}
