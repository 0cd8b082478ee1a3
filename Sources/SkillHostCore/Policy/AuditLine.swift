import Glibc
import SkillWire

/// One audit line under construction (see `AuditLog`), written straight into a byte buffer: on the
/// stack (`AuditLine.onStack` lends 1 KiB), moved to the heap only when a line outgrows it. Every call
/// writes one, so nothing here builds a String, a JSON tree or an Array per call.
///
/// The buffer's first byte is kept free for a newline that `AuditLog` puts before the line when the
/// file does not end in one (a torn line): the line and that newline still go out in one `write`.
/// Not thread-safe (each call builds its own).
struct AuditLine: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var onHeap = false
    /// Bytes in use, the spare first byte included.
    private var count = 1

    /// A line in `stack`, which outlives it; `stack` has room for at least a few bytes.
    init(in stack: UnsafeMutableBufferPointer<UInt8>) {
        base = stack.baseAddress!
        capacity = stack.count
    }

    deinit { if onHeap { base.deallocate() } }

    // MARK: - Text

    /// Bytes written as they are: punctuation and member names (`,"caller":`).
    mutating func raw(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n)
        (base + count).update(from: s.utf8Start, count: n)
        count += n
    }

    mutating func byte(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    /// A JSON string of `s`, escaped as `JSONText` says.
    mutating func quoted(_ s: String) {
        if let done: Void = s.utf8.withContiguousStorageIfAvailable({ quoted($0) }) { return done }
        Array(s.utf8).withUnsafeBufferPointer { quoted($0) }  // a bridged string: copied once
    }

    /// (Room for the longest escape of every byte is reserved only when some byte needs one: a
    /// plain 200-byte string stays in the stack's kilobyte.)
    mutating func quoted(_ u: UnsafeBufferPointer<UInt8>) {
        let plain = JSONText.isPlain(u)
        reserve((plain ? 1 : 6) * u.count + 2)
        base[count] = UInt8(ascii: "\"")
        if plain {
            if let b = u.baseAddress { (base + count + 1).update(from: b, count: u.count) }
            count += 1 + u.count
        } else {
            count += 1 + JSONText.write(u, escapedTo: base + count + 1)
        }
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// A JSON string of `s`, shortened when it is longer than 256 bytes: its first 200 characters
    /// and "…, N bytes", so a huge input does not become a huge audit line.
    mutating func shortened(_ s: String) {
        guard s.utf8.count > 256 else { return quoted(s) }
        quoted(String(s.prefix(200)) + "…, \(s.utf8.count) bytes")
    }

    mutating func integer(_ v: Int64) {
        reserve(20)
        count += JSONText.writeInteger(v, to: base + count)
    }

    /// A non-negative amount given in hundredths ("1234" → 12.34, "1230" → 12.3, "1200" → 12), as
    /// a JSON number.
    mutating func hundredths(_ n: Int) {
        integer(Int64(n / 100))
        let fraction = abs(n % 100)
        guard fraction != 0 else { return }
        reserve(3)
        base[count] = UInt8(ascii: ".")
        base[count + 1] = UInt8(ascii: "0") + UInt8(fraction / 10)
        count += 2
        if fraction % 10 != 0 { base[count] = UInt8(ascii: "0") + UInt8(fraction % 10); count += 1 }
    }

    /// `seconds` since the epoch as a quoted RFC 3339 time in UTC ("2026-11-30T09:00:00Z"), the same
    /// text as `TimeText.rfc3339`, digit by digit.
    mutating func utcTime(_ seconds: Int) {
        let date = CivilDate(dayNumber: seconds / 86400), rest = seconds % 86400
        guard seconds >= 0, date.year <= 9999 else { return quoted(TimeText.rfc3339(seconds)) }
        reserve(22)
        let p = base + count
        @inline(__always) func two(_ v: Int, at i: Int) {
            p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / 10)
            p[i + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
        }
        p[0] = UInt8(ascii: "\"")
        two(date.year / 100, at: 1); two(date.year % 100, at: 3); p[5] = UInt8(ascii: "-")
        two(date.month, at: 6); p[8] = UInt8(ascii: "-")
        two(date.day, at: 9); p[11] = UInt8(ascii: "T")
        two(rest / 3600, at: 12); p[14] = UInt8(ascii: ":")
        two(rest % 3600 / 60, at: 15); p[17] = UInt8(ascii: ":")
        two(rest % 60, at: 18); p[20] = UInt8(ascii: "Z"); p[21] = UInt8(ascii: "\"")
        count += 22
    }

    // MARK: - JSON values

    /// `value` as compact JSON (as `JSON.write` writes it), in one walk that also replaces what
    /// `schema` marks secret with "[redacted]" (the rule is `SecretScope`'s, shared with `ask` traces)
    /// and shortens long strings (`shortened`). A schema with nothing secret anywhere
    /// (`JSONSchema.mayRedact`) costs nothing more than the plain walk.
    mutating func json(_ value: JSON, redacting schema: JSONSchema? = nil) {
        json(value, in: SecretScope(schema))
    }

    /// `value` with long strings shortened and nothing redacted.
    private mutating func plainJSON(_ value: JSON) {
        switch value {
        case .null: raw("null")
        case .bool(let b): b ? raw("true") : raw("false")
        case .int(let i): integer(i)
        case .double(let d): var text = JSON.format(d); text.withUTF8 { bytes($0) }
        case .string(let s): shortened(s)
        case .array(let a):
            byte(UInt8(ascii: "["))
            for k in a.indices {
                if k > 0 { byte(UInt8(ascii: ",")) }
                plainJSON(a[k])
            }
            byte(UInt8(ascii: "]"))
        case .object(let o):
            byte(UInt8(ascii: "{"))
            o.members.withUnsafeBufferPointer { ms in
                for k in ms.indices {
                    if k > 0 { byte(UInt8(ascii: ",")) }
                    quoted(ms[k].key)
                    byte(UInt8(ascii: ":"))
                    plainJSON(ms[k].value)
                }
            }
            byte(UInt8(ascii: "}"))
        }
    }

    /// `value` in `scope`: redacted where the scope says it is secret, walked while something inside
    /// may be, written plainly otherwise.
    private mutating func json(_ value: JSON, in scope: SecretScope) {
        switch scope {
        case .plain: return plainJSON(value)
        case .secret: return raw("\"[redacted]\"")
        case .within: break
        }
        switch value {
        case .object(let o):
            byte(UInt8(ascii: "{"))
            for (k, m) in o.members.enumerated() {
                if k > 0 { byte(UInt8(ascii: ",")) }
                quoted(m.key)
                byte(UInt8(ascii: ":"))
                json(m.value, in: scope.member(m.key))
            }
            byte(UInt8(ascii: "}"))
        case .array(let a):
            let inner = scope.elements
            byte(UInt8(ascii: "["))
            for k in a.indices {
                if k > 0 { byte(UInt8(ascii: ",")) }
                json(a[k], in: inner)
            }
            byte(UInt8(ascii: "]"))
        default: plainJSON(value)
        }
    }

    // MARK: - Buffer

    /// Bytes written as they are (text another `AuditLine` wrote: see `text`).
    mutating func bytes(_ b: [UInt8]) { b.withUnsafeBufferPointer { bytes($0) } }

    private mutating func bytes(_ u: UnsafeBufferPointer<UInt8>) {
        reserve(u.count)
        if let b = u.baseAddress { (base + count).update(from: b, count: u.count) }
        count += u.count
    }

    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let bigger = max(2 * capacity, count + n)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        fresh.update(from: base, count: count)
        if onHeap { base.deallocate() }
        (base, capacity, onHeap) = (fresh, bigger, true)
    }

    /// Ends the line with a newline and passes `body` the whole buffer: the spare first byte (set to
    /// a newline) and the line with its newline.
    mutating func finish<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
        byte(0x0a)
        base[0] = 0x0a
        return body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// Runs `body` on an empty line on this thread's stack (1 KiB, the heap beyond).
    @inline(__always)
    static func onStack<R>(_ body: (inout AuditLine) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { stack in
            var line = AuditLine(in: stack)
            return body(&line)
        }
    }

    /// What `write` writes, as bytes: a part of lines written ahead of time (`IntentBinding.auditNames`).
    static func text(_ write: (inout AuditLine) -> Void) -> [UInt8] {
        onStack { line in
            write(&line)
            return Array(UnsafeBufferPointer(start: line.base + 1, count: line.count - 1))
        }
    }
}
