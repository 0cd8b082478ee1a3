/// A strict JSON parser into a small tree, for `QuickDecoder`. It accepts only what it is sure about:
/// anything it does not handle exactly as Foundation's `JSONDecoder` would — invalid JSON, invalid
/// UTF-8, a lone surrogate escape, a repeated member name, nesting deeper than `maxDepth` — makes
/// `parse` return nil, and the caller decodes with `JSONDecoder` instead (which then reports or
/// accepts the text as it always did).
enum JSONTree {
    enum Value {
        case null
        case bool(Bool)
        /// The number's text, as it appears in the JSON (already checked against JSON's grammar).
        case number(String)
        case string(String)
        case array([Value])
        case object([(key: String, value: Value)])
    }

    static let maxDepth = 512

    static func parse(_ bytes: [UInt8]) -> Value? {
        bytes.withUnsafeBufferPointer { buffer in
            var p = Parser(bytes: buffer)
            p.skipSpace()
            guard let v = p.value(depth: 0) else { return nil }
            p.skipSpace()
            return p.at == buffer.count ? v : nil
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x09, 0x0A, 0x0D: at += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> Value? {
            guard at < bytes.count, depth < JSONTree.maxDepth else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard at + n <= bytes.count else { return false }
            for i in 0..<n where bytes[at + i] != word.utf8Start[i] { return false }
            at += n
            return true
        }

        mutating func object(depth: Int) -> Value? {
            at += 1
            var members: [(key: String, value: Value)] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                at += 1
                skipSpace()
                guard let v = value(depth: depth + 1) else { return nil }
                members.append((key, v))
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                guard bytes[at] == UInt8(ascii: "}") else { return nil }
                at += 1
                break
            }
            // Which of two equal names JSONDecoder keeps is its own business: let it decide.
            if members.count > 1 {
                if members.count <= 8 {
                    for i in 1..<members.count {
                        for j in 0..<i where members[j].key == members[i].key { return nil }
                    }
                } else if Set(members.map(\.key)).count != members.count {
                    return nil
                }
            }
            return .object(members)
        }

        mutating func array(depth: Int) -> Value? {
            at += 1
            var elements: [Value] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(elements) }
            while true {
                skipSpace()
                guard let v = value(depth: depth + 1) else { return nil }
                elements.append(v)
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                guard bytes[at] == UInt8(ascii: "]") else { return nil }
                at += 1
                return .array(elements)
            }
        }

        /// A string literal starting at the quote; nil if it is not valid JSON or not valid UTF-8.
        mutating func string() -> String? {
            at += 1
            let start = at
            var ascii = true
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    let text = UnsafeBufferPointer(rebasing: bytes[start..<at])
                    at += 1
                    // ASCII needs no validation: `String(validating:)` is generic and looked up its
                    // metadata on every string (about 1 k instructions each, two per call).
                    return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
                }
                if b == UInt8(ascii: "\\") { return escapedString(from: start) }
                if b < 0x20 { return nil }
                if b >= 0x80 { ascii = false }
                at += 1
            }
            return nil
        }

        private mutating func escapedString(from start: Int) -> String? {
            var out: [UInt8] = Array(bytes[start..<at])
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    at += 1
                    return String(validating: out, as: UTF8.self)
                }
                if b < 0x20 { return nil }
                if b != UInt8(ascii: "\\") { out.append(b); at += 1; continue }
                guard at + 1 < bytes.count else { return nil }
                at += 2
                switch bytes[at - 1] {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return nil }
                    var scalar = UInt32(unit)
                    if (0xD800..<0xDC00).contains(unit) {
                        // A high surrogate must be followed by an escaped low one.
                        guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else { return nil }
                        at += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(unit) {
                        return nil
                    }
                    guard let s = Unicode.Scalar(scalar) else { return nil }
                    out.append(contentsOf: UTF8.encode(s)!)
                default: return nil
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt16? {
            guard let v = JSONGrammar.hex4(bytes, at: at) else { return nil }
            at += 4
            return v
        }

        mutating func number() -> Value? {
            let start = at
            guard let end = JSONGrammar.numberEnd(bytes, from: at) else { return nil }
            at = end
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self))
        }
    }
}
