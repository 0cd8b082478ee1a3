import Glibc
import SkillWire

extension ScanCache {
    /// One row of the cache's index (see `ScanCache` for the format).
    struct IndexRow {
        enum Body {
            /// A valid file: its summary, and where its manifest text is after the index, with its checksum.
            case manifest(SkillSummary, offset: Int64, length: Int64, checksum: String)
            case refusal(Refusal)
        }
        var path: String
        var key: Key
        var sha256: String?
        var body: Body
    }

    /// The rows of index line `bytes`, read straight from the bytes (a warm start reads one row per
    /// skill on every command; a JSON tree of every row, summary and intent cost about as much as the
    /// rest of reading the cache). The grammar, the escapes and the limits are `JSONParser`'s; the
    /// shape is exactly what `save()` writes, so anything else — another format or host signature,
    /// a missing or extra member, a number out of range — is nil, and the whole cache is dropped
    /// (its files are scanned again), never half read.
    static func readIndex(_ bytes: UnsafeBufferPointer<UInt8>, hostSignature: String) -> [IndexRow]? {
        var r = IndexReader(p: JSONParser(bytes))
        do throws(JSONParseError) {
            try r.expect(UInt8(ascii: "{"))
            try r.member("format")
            guard try r.int() == formatVersion else { return nil }
            try r.expect(UInt8(ascii: ","))
            try r.member("host")
            guard try r.string() == hostSignature else { return nil }
            try r.expect(UInt8(ascii: ","))
            try r.member("files")
            var rows: [IndexRow] = []
            var repeats = IndexReader.Repeats()
            try r.list { (r: inout IndexReader) throws(JSONParseError) in rows.append(try r.row(&repeats)) }
            try r.expect(UInt8(ascii: "}"))
            r.p.skipSpace()
            return r.p.i == bytes.count ? rows : nil
        } catch {
            return nil
        }
    }
}

/// Reads the index's values in the order `ScanCache.save()` writes them; every mismatch throws.
private struct IndexReader {
    var p: JSONParser

    private func wrong(_ what: String) -> JSONParseError { p.fail("expected \(what) in the scan cache index, found \(p.describeHere())") }

    mutating func expect(_ c: UInt8) throws(JSONParseError) {
        p.skipSpace()
        guard p.i < p.b.count, p.b[p.i] == c else { throw wrong("'\(Character(Unicode.Scalar(c)))'") }
        p.i += 1
    }

    /// `"name":`
    mutating func member(_ name: String) throws(JSONParseError) {
        guard try string() == name else { throw wrong("member \"\(name)\"") }
        try expect(UInt8(ascii: ":"))
    }

    mutating func next() -> UInt8? {
        p.skipSpace()
        return p.i < p.b.count ? p.b[p.i] : nil
    }

    /// Any value, as a tree (a refusal, requested permissions: rare or small).
    mutating func value() throws(JSONParseError) -> JSON {
        p.skipSpace()
        return try p.value(depth: 1)
    }

    mutating func string() throws(JSONParseError) -> String {
        guard next() == UInt8(ascii: "\"") else { throw wrong("a string") }
        return try p.string()
    }

    /// An integer as `save()` writes it: `-?(0|[1-9][0-9]*)` within Int64, read from the bytes (no
    /// text, no JSON value). A fraction, an exponent or an overflow throws (the cache is dropped).
    mutating func int() throws(JSONParseError) -> Int64 {
        p.skipSpace()
        let start = p.i
        if p.i < p.b.count && p.b[p.i] == UInt8(ascii: "-") { p.i += 1 }
        let digits = p.i
        while p.i < p.b.count, p.b[p.i] &- 0x30 < 10 { p.i += 1 }
        guard p.i > digits, p.i - digits == 1 || p.b[digits] != 0x30 else { throw wrong("an integer") }
        guard let n = JSONScan.int(p.b, start..<p.i) else { throw wrong("an integer within 64 bits") }
        if let c = next(), c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { throw wrong("an integer") }
        return n
    }

    /// `true` or `false`.
    mutating func bool() throws(JSONParseError) -> Bool {
        switch next() {
        case UInt8(ascii: "t"): try p.literal("true"); return true
        case UInt8(ascii: "f"): try p.literal("false"); return false
        default: throw wrong("true or false")
        }
    }

    /// A string, or `null` (nil).
    mutating func optionalString() throws(JSONParseError) -> String? {
        if next() == UInt8(ascii: "n") { try p.literal("null"); return nil }
        return try string()
    }

    /// A number (an intent's confidence).
    mutating func double() throws(JSONParseError) -> Double {
        guard next().map({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }) == true,
              let v = try p.number().doubleValue else { throw wrong("a number") }
        return v
    }

    /// A value read from a string token, and where that token's bytes are.
    typealias Remembered<T> = (span: Range<Int>, value: T)

    /// The last token read for the members of a summary that skills often share, and its value
    /// (see `repeated`); kept from row to row.
    struct Repeats {
        var version: Remembered<SemanticVersion>? = nil
        var category: Remembered<String>? = nil
        var vendor: Remembered<String>? = nil
        var toolchain: Remembered<String>? = nil
    }

    /// The value of the string token here. When its bytes (from quote to quote, escapes as written)
    /// are those `last` was read from, it is skipped and `last`'s value is the answer, not decoded nor
    /// allocated again: skills share a vendor, a category, a toolchain and often a version. Otherwise
    /// `read` reads it, and `last` remembers the token and the value.
    @inline(__always)
    mutating func repeated<T>(_ last: inout Remembered<T>?,
                              _ read: (inout IndexReader) throws(JSONParseError) -> T) throws(JSONParseError) -> T {
        if let l = last, skipRepeat(of: l.span) { return l.value }
        _ = next()
        let start = p.i
        let value = try read(&self)
        last = (start..<p.i, value)
        return value
    }

    /// Whether the string token here is the one at `span` (see `repeated`); then it is skipped.
    private mutating func skipRepeat(of span: Range<Int>) -> Bool {
        guard next() == UInt8(ascii: "\"") else { return false }
        let start = p.i
        var end = start + 1
        while end < p.b.count, p.b[end] != UInt8(ascii: "\"") { end += p.b[end] == UInt8(ascii: "\\") ? 2 : 1 }
        end += 1
        guard span.count == end - start, end <= p.b.count, memcmp(p.b.baseAddress! + span.lowerBound, p.b.baseAddress! + start, span.count) == 0 else {
            return false
        }
        p.i = end
        return true
    }

    /// `[item, item, …]`
    mutating func list(_ item: (inout IndexReader) throws(JSONParseError) -> Void) throws(JSONParseError) {
        try expect(UInt8(ascii: "["))
        if next() == UInt8(ascii: "]") { p.i += 1; return }
        while true {
            try item(&self)
            if next() == UInt8(ascii: ",") { p.i += 1; continue }
            try expect(UInt8(ascii: "]"))
            return
        }
    }

    /// `[path, inode, size, mtimeNs, ctimeNs, mode, sha256|null, summary, offset, length, checksum]`
    /// or `[path, inode, size, mtimeNs, ctimeNs, mode, sha256|null, refusal]`.
    mutating func row(_ repeats: inout Repeats) throws(JSONParseError) -> ScanCache.IndexRow {
        try expect(UInt8(ascii: "["))
        let path = try string()
        try expect(UInt8(ascii: ","))
        let inode = try int()
        try expect(UInt8(ascii: ","))
        let size = try int()
        try expect(UInt8(ascii: ","))
        let mtimeNs = try int()
        try expect(UInt8(ascii: ","))
        let ctimeNs = try int()
        try expect(UInt8(ascii: ","))
        guard let mode = UInt32(exactly: try int()) else { throw wrong("a file mode") }
        let key = ScanCache.Key(inode: UInt64(bitPattern: inode), size: size, mtimeNs: mtimeNs, ctimeNs: ctimeNs, mode: mode)
        try expect(UInt8(ascii: ","))
        let sha256 = try optionalString()
        try expect(UInt8(ascii: ","))
        let body: ScanCache.IndexRow.Body
        if next() == UInt8(ascii: "[") {
            let summary = try self.summary(&repeats)
            try expect(UInt8(ascii: ","))
            let offset = try int()
            try expect(UInt8(ascii: ","))
            let length = try int()
            try expect(UInt8(ascii: ","))
            body = .manifest(summary, offset: offset, length: length, checksum: try string())
        } else {
            guard let refusal = Refusal(json: try value()) else { throw wrong("a refusal") }
            body = .refusal(refusal)
        }
        try expect(UInt8(ascii: "]"))
        return ScanCache.IndexRow(path: path, key: key, sha256: sha256, body: body)
    }

    /// `SkillSummary.compactJSON`: `[id, name, version, category, vendor, description, abiMajor,
    /// abiMinor, toolchain|null, threadSafe, hasHealth, [[intent, flags, surfaces, priority,
    /// confidence, version], …], abiMinorRequired(, requestedPermissions)]`
    mutating func summary(_ repeats: inout Repeats) throws(JSONParseError) -> SkillSummary {
        try expect(UInt8(ascii: "["))
        let id = try string()
        try expect(UInt8(ascii: ","))
        let name = try string()
        try expect(UInt8(ascii: ","))
        let version = try repeated(&repeats.version) { (r: inout IndexReader) throws(JSONParseError) in
            guard let v = SemanticVersion(try r.string()) else { throw r.wrong("a semantic version") }
            return v
        }
        try expect(UInt8(ascii: ","))
        let category = try repeated(&repeats.category) { (r: inout IndexReader) throws(JSONParseError) in try r.string() }
        try expect(UInt8(ascii: ","))
        let vendor = try repeated(&repeats.vendor) { (r: inout IndexReader) throws(JSONParseError) in try r.string() }
        try expect(UInt8(ascii: ","))
        let description = try string()
        try expect(UInt8(ascii: ","))
        guard let major = UInt32(exactly: try int()) else { throw wrong("an ABI major") }
        try expect(UInt8(ascii: ","))
        guard let minor = UInt32(exactly: try int()) else { throw wrong("an ABI minor") }
        try expect(UInt8(ascii: ","))
        let toolchain: String? = next() == UInt8(ascii: "n") ? try optionalString()
            : try repeated(&repeats.toolchain) { (r: inout IndexReader) throws(JSONParseError) in try r.string() }
        try expect(UInt8(ascii: ","))
        let threadSafe = try bool()
        try expect(UInt8(ascii: ","))
        let hasHealth = try bool()
        try expect(UInt8(ascii: ","))
        var intents: [IntentSummary] = []
        intents.reserveCapacity(4)
        try list { (r: inout IndexReader) throws(JSONParseError) in intents.append(try r.intent()) }
        try expect(UInt8(ascii: ","))
        guard let required = UInt32(exactly: try int()) else { throw wrong("an ABI minor") }
        var summary = SkillSummary(identity: SkillIdentity(id: id, name: name, version: version, category: category,
                                                           vendor: vendor, description: description, toolchain: toolchain,
                                                           abiMajor: major, abiMinor: minor, abiMinorRequired: required,
                                                           threadSafe: threadSafe, hasHealth: hasHealth),
                                   intents: intents)
        if next() == UInt8(ascii: ",") {
            p.i += 1
            if let permissions = Permissions(json: try value()) { summary.identity.permissions = permissions }
        }
        try expect(UInt8(ascii: "]"))
        return summary
    }

    /// `[intent, flags, surfaces, priority, confidence, version]`
    mutating func intent() throws(JSONParseError) -> IntentSummary {
        try expect(UInt8(ascii: "["))
        let name = try string()
        try expect(UInt8(ascii: ","))
        guard let flags = UInt32(exactly: try int()) else { throw wrong("intent flags") }
        try expect(UInt8(ascii: ","))
        guard let surfaces = UInt32(exactly: try int()) else { throw wrong("intent surfaces") }
        try expect(UInt8(ascii: ","))
        guard let priority = Int32(exactly: try int()) else { throw wrong("an intent priority") }
        try expect(UInt8(ascii: ","))
        let confidence = try double()
        try expect(UInt8(ascii: ","))
        let version = Int(try int())
        try expect(UInt8(ascii: "]"))
        return IntentSummary(name: name, version: version, flags: IntentFlags(rawValue: flags), surfaces: Surfaces(rawValue: surfaces),
                             priority: priority, confidence: confidence)
    }
}
