/// Where a value sits under a schema, as far as secrets go — the one rule that decides what is
/// redacted, for every writer: the audit log (`AuditLine.json`), `ask` traces and responses
/// (`TraceRedaction`) and the validator's messages (`JSONSchema.validate` never echoes a secret).
///
/// A value is secret when any schema that describes it is marked `"secret": true` or
/// `"writeOnly": true`. The schemas that describe a value are: its object's `properties` entry of
/// that name (or the object's `additionalProperties` schema when no property names it), its array's
/// `items`, and every branch of `allOf` / `anyOf` / `oneOf` of each of those — whichever branch
/// matched. A secret value is replaced whole by `SecretScope.marker`, whatever is inside it.
enum SecretScope {
    /// Nothing here or inside can be secret: the value as it is.
    case plain
    /// The value is secret.
    case secret
    /// Something inside may be: the schemas that describe the value, branches included (each one
    /// `mayRedact`, none `isSecret`).
    case within([JSONSchema])

    /// What a secret is written as.
    static let marker = "[redacted]"

    /// The scope of a value that `schema` describes (nil: no schema, so nothing is known secret).
    /// A schema with nothing secret anywhere (`JSONSchema.mayRedact`) costs nothing more.
    init(_ schema: JSONSchema?) {
        guard let schema, schema.mayRedact else { self = .plain; return }
        self.init(describedBy: [schema])
    }

    /// The scope of a value described by every schema in `schemas` at once, with their branches.
    init(describedBy schemas: [JSONSchema]) {
        var all: [JSONSchema] = []
        func gather(_ s: JSONSchema) {
            guard s.mayRedact else { return }
            all.append(s)
            for b in s.allOf { gather(b) }
            for b in s.anyOf { gather(b) }
            for b in s.oneOf { gather(b) }
        }
        schemas.forEach(gather)
        if all.isEmpty { self = .plain } else if all.contains(where: \.isSecret) { self = .secret } else { self = .within(all) }
    }

    var isSecret: Bool { if case .secret = self { true } else { false } }

    /// The scope of this object's member `key`.
    func member(_ key: String) -> SecretScope {
        guard case .within(let all) = self else { return self }
        var inner: [JSONSchema] = []
        for s in all {
            if let p = s.properties.first(where: { $0.0 == key })?.1 { inner.append(p) } else if case .schema(let a) = s.additional { inner.append(a) }
        }
        return SecretScope(describedBy: inner)
    }

    /// The scope of each element of this array.
    var elements: SecretScope {
        guard case .within(let all) = self else { return self }
        return SecretScope(describedBy: all.compactMap(\.items))
    }

    // MARK: - Redacting a value

    /// `value` with every secret in it replaced by `marker`. `found` gets each value replaced and its
    /// path ("password", "auth.token", "keys[1]"; empty for the whole value).
    func redacting(_ value: JSON, path: String = "", found: (_ path: String, _ value: JSON) -> Void = { _, _ in }) -> JSON {
        switch self {
        case .plain: return value
        case .secret:
            found(path, value)
            return .string(Self.marker)
        case .within:
            switch value {
            case .object(let o):
                return .object(JSONObject(o.map { m in
                    (key: m.key, value: member(m.key).redacting(m.value, path: path.isEmpty ? m.key : path + "." + m.key, found: found))
                }))
            case .array(let a):
                let inner = elements
                return .array(a.indices.map { inner.redacting(a[$0], path: "\(path)[\($0)]", found: found) })
            default: return value
            }
        }
    }
}
