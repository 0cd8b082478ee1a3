/// Where in a config file a problem is: the file, and the line and column (both from 1; the column
/// counts characters) of the member at fault, or of the byte where the JSON stopped parsing. A
/// configuration error is `invalid_input` (exit 10) like any other wrong input, and says so
/// distinctly: its message reads `config file "PATH", line L, column C: …`, `--json` adds
/// `"config": {"file", "line", "column"}`, and the CLI prints it as a configuration error.
public struct ConfigLocation: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int

    init(file: String, text: [UInt8], offset: Int) {
        self.file = file
        let end = min(max(offset, 0), text.count)
        var line = 1, lineStart = 0
        for i in 0..<end where text[i] == 0x0a { line += 1; lineStart = i + 1 }
        self.line = line
        column = String(decoding: text[lineStart..<end], as: UTF8.self).count + 1
    }

    /// "line L, column C".
    public var place: String { "line \(line), column \(column)" }

    public var json: JSON {
        .object(JSONObject([("file", .string(file)), ("line", .int(Int64(line))), ("column", .int(Int64(column)))]))
    }

    /// `error` (thrown while reading the config at `file`) with the place of the member it names: the
    /// first quoted key after `config file "PATH": ` (e.g. "workers.killGraceMs", "policy.skills.a.b.agent"),
    /// found in `text` by walking its objects (a dotted key is matched greedily against member names,
    /// so skill ids with dots resolve). Without a key that can be found, the error is returned as is.
    static func locate(_ error: SkillError, file: String, text: [UInt8]) -> SkillError {
        let prefix = "config file \"\(file)\": "
        guard error.message.hasPrefix(prefix) else { return error }
        let rest = error.message.dropFirst(prefix.count)
        guard let open = rest.firstIndex(of: "\""), let close = rest[rest.index(after: open)...].firstIndex(of: "\"") else { return error }
        let key = String(rest[rest.index(after: open)..<close])
        guard let offset = JSON.offset(ofMember: key, in: text) else { return error }
        var e = error
        let place = ConfigLocation(file: file, text: text, offset: offset)
        e.config = place
        e.message = "config file \"\(file)\", \(place.place): " + rest
        return e
    }
}

extension JSON {
    /// The byte offset in `text` (a JSON object) of the member named by the dotted path `key` — the
    /// offset of its name — or nil. Member names may themselves contain dots: at each level the
    /// longest matching name wins, then the next-longest.
    static func offset(ofMember key: String, in text: [UInt8]) -> Int? {
        text.withUnsafeBufferPointer { buf in
            var p = JSONParser(buf)
            p.skipSpace()
            return find(key, &p)
        }
    }

    private static func find(_ key: String, _ p: inout JSONParser) -> Int? {
        guard p.i < p.b.count, p.b[p.i] == UInt8(ascii: "{") else { return nil }
        p.i += 1
        var candidates: [(name: String, nameAt: Int, valueAt: Int)] = []
        while true {
            p.skipSpace()
            guard p.i < p.b.count, p.b[p.i] == UInt8(ascii: "\"") else { break }
            let nameAt = p.i
            guard let name = try? p.string() else { return nil }
            p.skipSpace()
            guard p.i < p.b.count, p.b[p.i] == UInt8(ascii: ":") else { return nil }
            p.i += 1
            p.skipSpace()
            let valueAt = p.i
            if name == key { return nameAt }
            if key.hasPrefix(name + ".") { candidates.append((name, nameAt, valueAt)) }
            guard (try? p.value(depth: 1)) != nil else { return nil }
            p.skipSpace()
            if p.i < p.b.count, p.b[p.i] == UInt8(ascii: ",") { p.i += 1 } else { break }
        }
        for c in candidates.sorted(by: { $0.name.count > $1.name.count }) {
            var q = p
            q.i = c.valueAt
            if let found = find(String(key.dropFirst(c.name.count + 1)), &q) { return found }
        }
        return nil
    }
}
