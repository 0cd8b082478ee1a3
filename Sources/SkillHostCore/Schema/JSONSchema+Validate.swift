import FoundationEssentials

/// One way a value fails a schema. `path` is where, written like `from` or `events[2].start`
/// (empty for the root).
public struct SchemaViolation: Sendable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { path.isEmpty ? message : "field \"\(path)\": \(message)" }
}

extension JSONSchema {
    /// Every violation of this schema by `value`, at most `limit` of them, in document order. A
    /// message never quotes a value the schema marks secret (`SecretScope`): it names its type only.
    /// The check runs without tracking secrets (the common case: no violation, and no message to
    /// word); only a failing value of a schema that marks secrets is checked again, tracking them.
    public func validate(_ value: JSON, limit: Int = 8) -> [SchemaViolation] {
        var out: [SchemaViolation] = []
        check(value, path: "", scope: .plain, into: &out, limit: limit)
        if !out.isEmpty && mayRedact {
            out = []
            check(value, path: "", scope: SecretScope(self), into: &out, limit: limit)
        }
        return out
    }

    /// Whether `value` matches this schema (for `anyOf` / `oneOf` branches: no message is kept).
    private func matches(_ value: JSON) -> Bool {
        var out: [SchemaViolation] = []
        check(value, path: "", scope: .plain, into: &out, limit: 1)
        return out.isEmpty
    }

    /// `scope`: where `v` sits as far as secrets go (the same for every schema that describes `v`).
    private func check(_ v: JSON, path: String, scope: SecretScope, into out: inout [SchemaViolation], limit: Int) {
        guard out.count < limit else { return }
        func fail(_ m: String) { if out.count < limit { out.append(SchemaViolation(path: path, message: m)) } }
        let secret = scope.isSecret

        if let typeBits, let types, !JSONSchema.matches(v, typeBits) {
            fail("expected \(JSONSchema.describe(types)), found \(JSONSchema.brief(v, secret: secret))")
            return
        }
        if let enumValues, !enumValues.contains(where: { JSONSchema.equal($0, v) }) {
            fail("expected one of \(enumValues.map(\.serialized).joined(separator: ", ")), found \(JSONSchema.brief(v, secret: secret))")
        }
        if let constValue, !JSONSchema.equal(constValue, v) {
            fail("expected \(constValue.serialized), found \(JSONSchema.brief(v, secret: secret))")
        }
        switch v {
        case .object(let o):
            for name in required where o[name] == nil { fail("missing required field \"\(name)\"") }
            for m in o {
                let childPath = path.isEmpty ? m.key : path + "." + m.key
                if let s = properties.first(where: { $0.0 == m.key })?.1 {
                    s.check(m.value, path: childPath, scope: scope.member(m.key), into: &out, limit: limit)
                } else {
                    switch additional {
                    case .allowed: break
                    case .forbidden:
                        let known = properties.map(\.0)
                        out.append(SchemaViolation(path: childPath, message: "unknown field (expected only \(known.isEmpty ? "no fields" : known.map { "\"\($0)\"" }.joined(separator: ", ")))"))
                    case .schema(let s): s.check(m.value, path: childPath, scope: scope.member(m.key), into: &out, limit: limit)
                    }
                }
            }
        case .array(let a):
            if let minItems, a.count < minItems { fail("expected at least \(minItems) items, found \(a.count)") }
            if let maxItems, a.count > maxItems { fail("expected at most \(maxItems) items, found \(a.count)") }
            if let items {
                let inner = scope.elements
                for (i, e) in a.enumerated() { items.check(e, path: "\(path)[\(i)]", scope: inner, into: &out, limit: limit) }
            }
        case .string(let s):
            if minLength != nil || maxLength != nil {
                let n = s.count
                if let minLength, n < minLength { fail("expected at least \(minLength) characters, found \(n)") }
                if let maxLength, n > maxLength { fail("expected at most \(maxLength) characters, found \(n)") }
            }
            if let pattern {
                if (try? pattern.regex.firstMatch(in: s)) == nil { fail("expected a string matching \(pattern.source), found \(JSONSchema.brief(v, secret: secret))") }
            }
            if let format {
                switch format {
                case "date" where !JSONSchema.isDate(s): fail("expected a date YYYY-MM-DD, found \(JSONSchema.brief(v, secret: secret))")
                case "date-time" where !JSONSchema.isDateTime(s): fail("expected an RFC 3339 date-time like 2026-11-30T15:00:00+01:00, found \(JSONSchema.brief(v, secret: secret))")
                default: break
                }
            }
        case .int, .double:
            let d = v.doubleValue!
            func shown() -> String { JSONSchema.brief(v, secret: secret) }  // only for a failure
            if let minimum, d < minimum { fail("expected a number ≥ \(JSON.format(minimum)), found \(shown())") }
            if let maximum, d > maximum { fail("expected a number ≤ \(JSON.format(maximum)), found \(shown())") }
            if let exclusiveMinimum, d <= exclusiveMinimum { fail("expected a number > \(JSON.format(exclusiveMinimum)), found \(shown())") }
            if let exclusiveMaximum, d >= exclusiveMaximum { fail("expected a number < \(JSON.format(exclusiveMaximum)), found \(shown())") }
        default: break
        }
        for s in allOf { s.check(v, path: path, scope: scope, into: &out, limit: limit) }
        if !anyOf.isEmpty, !anyOf.contains(where: { $0.matches(v) }) {
            fail("does not match any of the \(anyOf.count) allowed shapes")
        }
        if !oneOf.isEmpty {
            let n = oneOf.filter { $0.matches(v) }.count
            if n != 1 { fail("expected exactly one of \(oneOf.count) shapes to match, \(n) did") }
        }
    }

    /// The bit of a type name (`knownTypes`) in `typeBits`.
    static func bit(_ type: String) -> UInt8 {
        switch type {
        case "null": 1
        case "boolean": 2
        case "integer": 4
        case "number": 8
        case "string": 16
        case "array": 32
        case "object": 64
        default: 0
        }
    }

    static func matches(_ v: JSON, _ bits: UInt8) -> Bool {
        switch v {
        case .null: return bits & 1 != 0
        case .bool: return bits & 2 != 0
        case .int: return bits & (4 | 8) != 0
        case .double(let d): return bits & 8 != 0 || (bits & 4 != 0 && d == d.rounded())
        case .string: return bits & 16 != 0
        case .array: return bits & 32 != 0
        case .object: return bits & 64 != 0
        }
    }

    static func describe(_ types: Set<String>) -> String {
        let names = types.sorted().map { t -> String in
            switch t {
            case "object": return "an object"
            case "array": return "an array"
            case "integer": return "an integer"
            case "null": return "null"
            default: return "a \(t)"
            }
        }
        return names.joined(separator: " or ")
    }

    /// The value as shown in a message: short values in full, long ones cut; a `secret` one by its
    /// type only ("a secret string (not shown)").
    static func brief(_ v: JSON, secret: Bool = false) -> String {
        if secret, case .string = v { return "a secret string (not shown)" }
        if secret, v.doubleValue != nil { return "a secret number (not shown)" }
        if secret, case .bool = v { return "a secret boolean (not shown)" }
        switch v {
        case .object: return "an object"
        case .array(let a): return "an array of \(a.count)"
        default:
            let s = v.serialized
            return s.count > 60 ? String(s.prefix(57)) + "…" : s
        }
    }

    static func equal(_ a: JSON, _ b: JSON) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    static func isDate(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 10, u[4] == 45, u[7] == 45 else { return false }
        for i in [0, 1, 2, 3, 5, 6, 8, 9] where !(48...57).contains(u[i]) { return false }
        let m = Int(s.dropFirst(5).prefix(2))!, d = Int(s.suffix(2))!, y = Int(s.prefix(4))!
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...12).contains(m) && d >= 1 && d <= days[m - 1]
    }

    static func isDateTime(_ s: String) -> Bool {
        guard s.count >= 20, isDate(String(s.prefix(10))) else { return false }
        let rest = Array(s.utf8.dropFirst(10))
        guard rest[0] == UInt8(ascii: "T") || rest[0] == UInt8(ascii: "t") || rest[0] == 32 else { return false }
        let t = Array(rest.dropFirst())  // HH:MM:SS[.frac](Z|±HH:MM)
        guard t.count >= 9, t[2] == 58, t[5] == 58 else { return false }
        for i in [0, 1, 3, 4, 6, 7] where !(48...57).contains(t[i]) { return false }
        var i = 8
        if i < t.count, t[i] == 46 {
            i += 1
            let start = i
            while i < t.count, (48...57).contains(t[i]) { i += 1 }
            if i == start { return false }
        }
        guard i < t.count else { return false }
        if t[i] == UInt8(ascii: "Z") || t[i] == UInt8(ascii: "z") { return i == t.count - 1 }
        guard t[i] == 43 || t[i] == 45, t.count - i == 6, t[i + 3] == 58 else { return false }
        return [1, 2, 4, 5].allSatisfy { (48...57).contains(t[i + $0]) }
    }
}
