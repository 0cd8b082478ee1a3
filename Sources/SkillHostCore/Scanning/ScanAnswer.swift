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
    /// one check of the line's grammar: what is inside is then only split (`JSONScan.members(checked:)`).
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
        return AnswerFields(inner, JSONScan.members(checked: inner) ?? [])
    }

    /// Where each element of the array at `range` is; nil when the value there is not an array.
    func elements(at range: Range<Int>) -> [Range<Int>]? {
        JSONScan.elements(checked: bytes, range)
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
