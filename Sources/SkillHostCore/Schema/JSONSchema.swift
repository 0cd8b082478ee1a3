import FoundationEssentials

/// A compiled JSON Schema — the subset skills use: `type` (one name or a list), `properties`,
/// `required`, `additionalProperties` (boolean or schema), `items`, `enum`, `const`, `minimum`,
/// `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`, `minItems`,
/// `maxItems`, `pattern`, `format` ("date", "date-time"), `anyOf`, `oneOf`, `allOf`.
/// Annotations (`description`, `title`, `default`, `examples`, `$schema`, `$id`, `readOnly`,
/// `writeOnly`, `deprecated`, `secret`) are accepted and ignored by validation; a value a schema marks
/// `"secret": true` or `"writeOnly": true` is redacted wherever the host records or shows an input —
/// the audit log, `ask` traces and responses, validation messages (`SecretScope` is the rule). Any other keyword (for example
/// `$ref`) makes the schema invalid: the host refuses to pretend it checks what it does not.
///
/// Immutable: compile once per intent, validate from any thread. (`@unchecked` only because the
/// compiled `Regex` of `pattern` is not marked Sendable; it is never mutated after compilation.)
public final class JSONSchema: @unchecked Sendable {
    let types: Set<String>?
    /// `types` as bits (`JSONSchema.bit`), checked on every call without hashing a name.
    let typeBits: UInt8?
    let properties: [(String, JSONSchema)]
    let required: [String]
    let additional: Additional
    let items: JSONSchema?
    let enumValues: [JSON]?
    let constValue: JSON?
    let minimum: Double?, maximum: Double?, exclusiveMinimum: Double?, exclusiveMaximum: Double?
    let minLength: Int?, maxLength: Int?, minItems: Int?, maxItems: Int?
    let pattern: (source: String, regex: Regex<AnyRegexOutput>)?
    let format: String?
    let anyOf: [JSONSchema], oneOf: [JSONSchema], allOf: [JSONSchema]
    /// This schema itself is marked `"secret": true` or `"writeOnly": true`: any value it describes is
    /// redacted, wherever it sits (a property, an `items`, an `additionalProperties`, a branch of
    /// `allOf` / `anyOf` / `oneOf`).
    let isSecret: Bool
    /// Whether anything this schema describes can be redacted (itself or any schema inside it is
    /// secret): when not, a value it describes is written as it is (`SecretScope.plain`).
    let mayRedact: Bool

    enum Additional: Sendable { case allowed, forbidden, schema(JSONSchema) }

    static let knownTypes: Set<String> = ["object", "array", "string", "number", "integer", "boolean", "null"]
    static let annotations: Set<String> = ["description", "title", "default", "examples", "$schema", "$id",
                                           "readOnly", "writeOnly", "deprecated", "secret", "$comment"]
    static let keywords: Set<String> = ["type", "properties", "required", "additionalProperties", "items", "enum",
                                        "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                                        "minLength", "maxLength", "minItems", "maxItems", "pattern", "format",
                                        "anyOf", "oneOf", "allOf"]

    // MARK: - Compiling

    /// A problem in a schema, with the JSON path of the keyword at fault ("properties.from.type").
    public struct CompileError: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { path.isEmpty ? reason : "at \(path): \(reason)" }
    }

    /// Compiles `json` into a schema, or says exactly which keyword is wrong and why.
    public convenience init(_ json: JSON) throws(CompileError) {
        try self.init(json, path: "")
    }

    private init(_ schema: JSON, path: String) throws(CompileError) {
        let json: JSON = schema == .bool(true) ? .object(JSONObject()) : schema
        func err(_ k: String, _ r: String) -> CompileError {
            CompileError(path: path.isEmpty ? k : path + "." + k, reason: r)
        }
        guard case .object(let o) = json else {
            throw CompileError(path: path, reason: "a schema must be a JSON object, found \(json.typeDescription)")
        }
        // One pass over the members: each keyword's value (the first, if a keyword is written twice,
        // as a lookup would find), and the first member that is neither a keyword nor an annotation.
        var kw = Keywords()
        for m in o.members where !kw.take(m.key, m.value) {
            guard Self.annotations.contains(m.key) else {
                throw err(m.key, "unsupported keyword \"\(m.key)\" (supported: \(Self.keywords.sorted().joined(separator: ", ")))")
            }
            if m.key == "secret" { if kw.secret == nil { kw.secret = m.value } } else if m.key == "writeOnly", kw.writeOnly == nil { kw.writeOnly = m.value }
        }
        switch kw.type {
        case nil: types = nil
        case .string(let t)?:
            guard Self.knownTypes.contains(t) else { throw err("type", "unknown type \"\(t)\" (expected one of \(Self.knownTypes.sorted().joined(separator: ", ")))") }
            types = [t]
        case .array(let a)?:
            var set = Set<String>()
            for v in a {
                guard let t = v.stringValue, Self.knownTypes.contains(t) else { throw err("type", "unknown type \(v.serialized)") }
                set.insert(t)
            }
            types = set
        case let v?: throw err("type", "expected a type name or a list of them, found \(v.typeDescription)")
        }
        typeBits = types.map { $0.reduce(0) { $0 | Self.bit($1) } }
        var props: [(String, JSONSchema)] = []
        if let p = kw.properties {
            guard case .object(let po) = p else { throw err("properties", "expected an object, found \(p.typeDescription)") }
            for m in po {
                props.append((m.key, try JSONSchema(m.value, path: (path.isEmpty ? "" : path + ".") + "properties." + m.key)))
            }
        }
        properties = props
        if let r = kw.required {
            guard case .array(let a) = r, let names = Optional(a.compactMap(\.stringValue)), names.count == a.count else {
                throw err("required", "expected an array of property names, found \(r.serialized)")
            }
            required = names
        } else { required = [] }
        switch kw.additionalProperties {
        case nil, .bool(true)?: additional = .allowed
        case .bool(false)?: additional = .forbidden
        case let s?: additional = .schema(try JSONSchema(s, path: (path.isEmpty ? "" : path + ".") + "additionalProperties"))
        }
        items = try kw.items.map { j throws(CompileError) in try JSONSchema(j, path: (path.isEmpty ? "" : path + ".") + "items") }
        if let e = kw.enum {
            guard case .array(let a) = e, !a.isEmpty else { throw err("enum", "expected a non-empty array") }
            enumValues = a
        } else { enumValues = nil }
        constValue = kw.const
        func number(_ k: String, _ v: JSON?) throws(CompileError) -> Double? {
            guard let v else { return nil }
            guard let d = v.doubleValue else { throw err(k, "expected a number, found \(v.typeDescription)") }
            return d
        }
        func count(_ k: String, _ v: JSON?) throws(CompileError) -> Int? {
            guard let v else { return nil }
            guard let i = v.intValue, i >= 0 else { throw err(k, "expected a non-negative integer, found \(v.serialized)") }
            return Int(i)
        }
        minimum = try number("minimum", kw.minimum); maximum = try number("maximum", kw.maximum)
        exclusiveMinimum = try number("exclusiveMinimum", kw.exclusiveMinimum); exclusiveMaximum = try number("exclusiveMaximum", kw.exclusiveMaximum)
        minLength = try count("minLength", kw.minLength); maxLength = try count("maxLength", kw.maxLength)
        minItems = try count("minItems", kw.minItems); maxItems = try count("maxItems", kw.maxItems)
        if let p = kw.pattern {
            guard let s = p.stringValue else { throw err("pattern", "expected a string") }
            guard let re = try? Regex(s) else { throw err("pattern", "not a valid regular expression: \(s)") }
            pattern = (s, re)
        } else { pattern = nil }
        format = kw.format?.stringValue
        func list(_ k: String, _ v: JSON?) throws(CompileError) -> [JSONSchema] {
            guard let v else { return [] }
            guard case .array(let a) = v, !a.isEmpty else { throw err(k, "expected a non-empty array of schemas") }
            var out: [JSONSchema] = []
            for (i, s) in a.enumerated() { out.append(try JSONSchema(s, path: (path.isEmpty ? "" : path + ".") + "\(k)[\(i)]")) }
            return out
        }
        anyOf = try list("anyOf", kw.anyOf); oneOf = try list("oneOf", kw.oneOf); allOf = try list("allOf", kw.allOf)
        isSecret = kw.secret?.boolValue == true || kw.writeOnly?.boolValue == true
        var inner = properties.map(\.1) + anyOf + oneOf + allOf
        if let items { inner.append(items) }
        if case .schema(let a) = additional { inner.append(a) }
        mayRedact = isSecret || inner.contains { $0.mayRedact }
    }

    /// A schema object's keyword values, gathered in one pass over its members (compiling reads each
    /// keyword once; a lookup per keyword was a linear scan with string compares, twenty per schema).
    struct Keywords {
        var type, properties, required, additionalProperties, items, `enum`, const: JSON?
        var minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, minItems, maxItems: JSON?
        var pattern, format, anyOf, oneOf, allOf, secret, writeOnly: JSON?

        /// Records `value` when `key` is one of `JSONSchema.keywords` (keeping the first); false
        /// when it is not a keyword.
        mutating func take(_ key: String, _ value: JSON) -> Bool {
            func keep(_ slot: inout JSON?) { if slot == nil { slot = value } }
            switch key {
            case "type": keep(&type)
            case "properties": keep(&properties)
            case "required": keep(&required)
            case "additionalProperties": keep(&additionalProperties)
            case "items": keep(&items)
            case "enum": keep(&`enum`)
            case "const": keep(&const)
            case "minimum": keep(&minimum)
            case "maximum": keep(&maximum)
            case "exclusiveMinimum": keep(&exclusiveMinimum)
            case "exclusiveMaximum": keep(&exclusiveMaximum)
            case "minLength": keep(&minLength)
            case "maxLength": keep(&maxLength)
            case "minItems": keep(&minItems)
            case "maxItems": keep(&maxItems)
            case "pattern": keep(&pattern)
            case "format": keep(&format)
            case "anyOf": keep(&anyOf)
            case "oneOf": keep(&oneOf)
            case "allOf": keep(&allOf)
            default: return false
            }
            return true
        }
    }

    /// True when the root accepts objects (required of every intent's input schema).
    public var isObjectRoot: Bool { types == ["object"] }
}
