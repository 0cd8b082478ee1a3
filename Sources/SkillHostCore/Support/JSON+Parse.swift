import SkillWire

/// Where and why a JSON text could not be parsed. `offset` counts bytes from the start.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSON {
    /// Parses one JSON text (RFC 8259). Leading/trailing white space is allowed, anything else after
    /// the value is an error. Nesting deeper than `maxDepth` levels (`JSONLimits`, the limit both sides
    /// of the wire share) is refused rather than overflowing the stack.
    public static func parse(_ text: String, maxDepth: Int = JSONLimits.maxDepth) throws(JSONParseError) -> JSON {
        var text = text
        let result: Result<JSON, JSONParseError> = text.withUTF8 { buf in
            do throws(JSONParseError) { return .success(try parse(buf, maxDepth: maxDepth)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSONLimits.maxDepth) throws(JSONParseError) -> JSON {
        let result: Result<JSON, JSONParseError> = bytes.withUnsafeBufferPointer { buf in
            do throws(JSONParseError) { return .success(try parse(buf, maxDepth: maxDepth)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func parse(_ buf: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONLimits.maxDepth) throws(JSONParseError) -> JSON {
        var p = JSONParser(buf, maxDepth: maxDepth)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i != buf.count { throw p.fail("unexpected \(p.describeHere()) after the value") }
        return v
    }
}

struct JSONParser {
    let b: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var i = 0
    init(_ b: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONLimits.maxDepth) { (self.b, self.maxDepth) = (b, maxDepth) }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

    func describeHere() -> String {
        guard i < b.count else { return "end of input" }
        let c = b[i]
        if c >= 0x20 && c < 0x7f { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    mutating func skipSpace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x09, 0x0a, 0x0d: i += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSON {
        guard depth < maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
        guard i < b.count else { throw fail("expected a value, found end of input") }
        switch b[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("expected a value, found \(describeHere())")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw fail("expected \(word), found end of input") }
        let w = word.utf8Start
        for k in 0..<n where b[i + k] != w[k] { throw fail("expected \(word)") }
        i += n
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSON {
        i += 1
        var members: [(key: String, value: JSON)] = []
        skipSpace()
        if i < b.count && b[i] == UInt8(ascii: "}") { i += 1; return .object(JSONObject(members)) }
        members.reserveCapacity(4)  // one allocation for the usual small object, not one per growth
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else {
                throw fail("expected a member name in quotes, found \(describeHere())")
            }
            let key = try string()
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':' after member name, found \(describeHere())") }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard i < b.count else { throw fail("unterminated object, expected ',' or '}'") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return .object(JSONObject(members)) }
            throw fail("expected ',' or '}' in object, found \(describeHere())")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSON {
        i += 1
        var items: [JSON] = []
        skipSpace()
        if i < b.count && b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        items.reserveCapacity(4)
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < b.count else { throw fail("unterminated array, expected ',' or ']'") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw fail("expected ',' or ']' in array, found \(describeHere())")
        }
    }

    mutating func string() throws(JSONParseError) -> String {
        i += 1
        let start = i
        var ascii = true
        // Fast path, no escapes: eight bytes a step straight to the first byte that needs a look (a
        // quote, a backslash, a control byte, a byte of a multi-byte character; `JSONScan.skipPlain`).
        while i < b.count {
            i = JSONScan.skipPlain(b, from: i)
            guard i < b.count else { break }
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                let s = UnsafeBufferPointer(rebasing: b[start..<i])
                i += 1
                return try JSONParser.makeString(s, ascii: ascii, offset: start)
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            if c >= 0x80 { ascii = false }
            i += 1
        }
        var out = [UInt8](UnsafeBufferPointer(rebasing: b[start..<i]))
        while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return try out.withUnsafeBufferPointer { u throws(JSONParseError) in try JSONParser.makeString(u, ascii: false, offset: start) }
            case UInt8(ascii: "\\"):
                i += 1
                guard i < b.count else { throw fail("unterminated escape") }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5c)
                case UInt8(ascii: "/"): out.append(0x2f)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard i + 1 < b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                            throw fail("lone high surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw fail("lone low surrogate in \\u escape")
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    i -= 1
                    throw fail("invalid escape \\\(Character(Unicode.Scalar(e)))")
                }
            default:
                if c < 0x20 { throw fail("control character in string (escape it)") }
                // Copy the whole run up to the next quote, backslash or control character at once
                // (bytes of multi-byte characters belong to the run; the result is validated).
                let runStart = i
                i += 1
                while i < b.count {
                    i = JSONScan.skipPlain(b, from: i)
                    guard i < b.count else { break }
                    let d = b[i]
                    if d == 0x22 || d == 0x5c || d < 0x20 { break }
                    i += 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<i]))
            }
        }
        throw JSONParseError(offset: start - 1, reason: "unterminated string")
    }

    /// A String from UTF-8 bytes, refusing invalid UTF-8. `ascii`: the caller saw no byte above 0x7f
    /// (the fast path); otherwise the bytes are validated strictly.
    static func makeString(_ s: UnsafeBufferPointer<UInt8>, ascii: Bool, offset: Int) throws(JSONParseError) -> String {
        if ascii { return String(decoding: s, as: UTF8.self) }
        guard let str = String(validating: s, as: UTF8.self) else {
            throw JSONParseError(offset: offset, reason: "string is not valid UTF-8")
        }
        return str
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= b.count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 55)
            default: throw fail("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    mutating func number() throws(JSONParseError) -> JSON {
        let start = i
        var isInt = true
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count, (48...57).contains(b[i]) else { throw fail("expected a digit") }
        if b[i] == 48 {
            i += 1
            if i < b.count, (48...57).contains(b[i]) { throw fail("leading zero in number") }
        } else {
            while i < b.count, (48...57).contains(b[i]) { i += 1 }
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            isInt = false
            i += 1
            guard i < b.count, (48...57).contains(b[i]) else { throw fail("expected a digit after '.'") }
            while i < b.count, (48...57).contains(b[i]) { i += 1 }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            isInt = false
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count, (48...57).contains(b[i]) else { throw fail("expected a digit in exponent") }
            while i < b.count, (48...57).contains(b[i]) { i += 1 }
        }
        // An integer of up to 18 digits fits Int64 whatever its digits: read without a String.
        let negative = b[start] == UInt8(ascii: "-")
        if isInt, i - start - (negative ? 1 : 0) <= 18 {
            var v: Int64 = 0
            for k in (negative ? start + 1 : start)..<i { v = v &* 10 &+ Int64(b[k] &- 48) }
            return .int(negative ? -v : v)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        if isInt, let v = Int64(text) { return .int(v) }
        guard let d = Double(text), d.isFinite else { throw JSONParseError(offset: start, reason: "number out of range") }
        return .double(d)
    }
}
