import Glibc
import SkillWire

/// One line the scan process wrote for a file, kept as its bytes with the members of its top object.
/// `JSONScan.members` checked the whole line on the way in: one JSON object, nested at most
/// `ManifestValidator.answerDepth` levels. `ManifestValidator` reads the fields in place
/// (`AnswerFields`); only JSON-text fields (schemas, keywords, examples, feeds), permissions and the
/// values a refusal names become `JSON` values. A cold scan reads one answer per file, so no tree of
/// the whole line is built and torn down.
struct ScanAnswer: Sendable {
    let bytes: [UInt8]
    let members: [JSONScan.Member]

    /// Nil when `bytes` are not one JSON object within `ManifestValidator.answerDepth`. This is the
    /// one check of the line's grammar: everything inside is then only split (`CheckedJSON`).
    init?(_ bytes: [UInt8]) {
        guard let m = bytes.withUnsafeBufferPointer({ JSONScan.members($0, maxDepth: ManifestValidator.answerDepth) }) else { return nil }
        self.bytes = bytes
        members = m
    }

    /// Runs `body` with the top object's fields.
    func read<T>(_ body: (inout AnswerFields) -> T) -> T {
        bytes.withUnsafeBufferPointer { b in
            var fields = AnswerFields(b, members)
            return body(&fields)
        }
    }
}

/// The members of one object of a scan answer, read in place from the answer's bytes (valid JSON,
/// checked by `ScanAnswer`). A lookup looks from the member after the previous one found onwards,
/// then from the first (one compare of key bytes when the reads follow the scan process's order).
/// No member (an object without it, or a value that is not an object): nil. A key written twice
/// (only a forged answer does that) reads as one of its values, which is validated like any other.
/// Valid while the bytes it reads are (inside `ScanAnswer.read`).
struct AnswerFields {
    let bytes: UnsafeBufferPointer<UInt8>
    private let members: [JSONScan.Member]
    private var next = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ members: [JSONScan.Member]) {
        self.bytes = bytes
        self.members = members
    }

    /// The fields of the object at `range`; no fields when the value there is not an object.
    func object(at range: Range<Int>) -> AnswerFields {
        let inner = UnsafeBufferPointer(rebasing: bytes[range])
        return AnswerFields(inner, CheckedJSON.members(inner) ?? [])
    }

    /// Where each element of the array at `range` is; nil when the value there is not an array.
    func elements(at range: Range<Int>) -> [Range<Int>]? {
        CheckedJSON.elements(bytes, range)
    }

    private func keyIs(_ m: JSONScan.Member, _ key: StaticString) -> Bool {
        let inner = (m.keyText.lowerBound + 1)..<(m.keyText.upperBound - 1)
        if inner.count == key.utf8CodeUnitCount, memcmp(bytes.baseAddress! + inner.lowerBound, key.utf8Start, inner.count) == 0 {
            return true
        }
        // A key written with escapes (never by the scan process) is compared unescaped.
        guard bytes[inner].contains(0x5c) else { return false }
        return JSONScan.string(bytes, m.keyText) == key.description
    }

    /// Where the value of `key` is.
    mutating func range(_ key: StaticString) -> Range<Int>? {
        guard let k = members[next...].firstIndex(where: { keyIs($0, key) }) ?? members[..<next].firstIndex(where: { keyIs($0, key) }) else {
            return nil
        }
        next = k + 1
        return members[k].value
    }

    /// `key`'s value when it is a string.
    mutating func string(_ key: StaticString) -> String? {
        range(key).flatMap { JSONScan.string(bytes, $0) }
    }

    /// `key`'s value when it is an integer (as `JSON.intValue` reads it: `2.0` and `2e0` are 2).
    mutating func int(_ key: StaticString) -> Int64? {
        guard let r = range(key) else { return nil }
        return JSONScan.int(bytes, r) ?? value(at: r)?.intValue
    }

    /// `key`'s value when it is `true` or `false`.
    mutating func bool(_ key: StaticString) -> Bool? {
        guard let r = range(key) else { return nil }
        if JSONScan.equals(bytes, r, "true") { return true }
        if JSONScan.equals(bytes, r, "false") { return false }
        return nil
    }

    /// `key`'s value as a `JSON` value.
    mutating func json(_ key: StaticString) -> JSON? {
        range(key).flatMap(value(at:))
    }

    /// The value at `range`, parsed with the limits of any JSON text (`JSONLimits.maxDepth`).
    func value(at range: Range<Int>) -> JSON? {
        try? parse(range).get()
    }

    func parse(_ range: Range<Int>) -> Result<JSON, JSONParseError> {
        do throws(JSONParseError) {
            return .success(try JSON.parse(UnsafeBufferPointer(rebasing: bytes[range])))
        } catch {
            return .failure(error)
        }
    }
}

/// Splitting of bytes that `JSONScan` already checked to be valid JSON: only strings and brackets
/// are followed (a string's end found with `memchr`), nothing is checked again. Nil (or an empty
/// result) wherever the bytes turn out not to be the expected value, never a trap.
enum CheckedJSON {

    static func skipSpace(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        var i = i
        while i < end, JSONScan.isSpace(b[i]) { i += 1 }
        return i
    }

    /// The index after the string whose opening quote is at `i` (before `end`).
    static func stringEnd(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        guard let base = b.baseAddress else { return nil }
        var from = i + 1
        while from < end {
            guard let hit = memchr(base + from, 0x22, end - from) else { return nil }
            let k = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            var backslashes = 0
            while k - 1 - backslashes > i, b[k - 1 - backslashes] == 0x5c { backslashes += 1 }
            if backslashes % 2 == 0 { return k + 1 }
            from = k + 1
        }
        return nil
    }

    /// The index after the value that starts at `i` (before `end`).
    static func valueEnd(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        guard i < end else { return nil }
        switch b[i] {
        case 0x22: return stringEnd(b, i, end)
        case 0x7b, 0x5b:
            var depth = 0, j = i
            while j < end {
                let c = b[j]
                if c == 0x22 {
                    guard let e = stringEnd(b, j, end) else { return nil }
                    j = e
                    continue
                }
                if c == 0x7b || c == 0x5b {
                    depth += 1
                } else if c == 0x7d || c == 0x5d {
                    depth -= 1
                    if depth == 0 { return j + 1 }
                }
                j += 1
            }
            return nil
        default:
            var j = i
            while j < end, !JSONScan.isSpace(b[j]), b[j] != 0x2c, b[j] != 0x7d, b[j] != 0x5d { j += 1 }
            return j
        }
    }

    /// The members of the object that is all of `b` (white space around it allowed).
    static func members(_ b: UnsafeBufferPointer<UInt8>) -> [JSONScan.Member]? {
        let end = b.count
        var i = skipSpace(b, 0, end)
        guard i < end, b[i] == 0x7b else { return nil }
        var out: [JSONScan.Member] = []
        out.reserveCapacity(16)
        i = skipSpace(b, i + 1, end)
        if i < end, b[i] == 0x7d { return out }
        while i < end {
            guard b[i] == 0x22, let keyEnd = stringEnd(b, i, end) else { return nil }
            let key = i..<keyEnd
            i = skipSpace(b, keyEnd, end)
            guard i < end, b[i] == 0x3a else { return nil }
            i = skipSpace(b, i + 1, end)
            guard let valueEnd = valueEnd(b, i, end) else { return nil }
            out.append(JSONScan.Member(keyText: key, value: i..<valueEnd))
            i = skipSpace(b, valueEnd, end)
            guard i < end else { return nil }
            if b[i] == 0x7d { return out }
            guard b[i] == 0x2c else { return nil }
            i = skipSpace(b, i + 1, end)
        }
        return nil
    }

    /// Where each element of the array at `range` of `b` is.
    static func elements(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [Range<Int>]? {
        let end = range.upperBound
        var i = range.lowerBound
        guard i < end, b[i] == 0x5b else { return nil }
        var out: [Range<Int>] = []
        i = skipSpace(b, i + 1, end)
        if i < end, b[i] == 0x5d { return out }
        while i < end {
            guard let valueEnd = valueEnd(b, i, end) else { return nil }
            out.append(i..<valueEnd)
            i = skipSpace(b, valueEnd, end)
            guard i < end else { return nil }
            if b[i] == 0x5d { return out }
            guard b[i] == 0x2c else { return nil }
            i = skipSpace(b, i + 1, end)
        }
        return nil
    }
}
