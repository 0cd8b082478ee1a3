/// One input that deliberately violates an intent's input schema, for `skillhost validate`'s
/// wrong-input check: the skill gets it directly, without the host's schema check, and must answer
/// SKH_STATUS_INVALID_INPUT (not crash, hang, or act on it).
public struct WrongInput: Sendable, Equatable {
    /// Which rule of the schema the input breaks.
    public enum Kind: String, Sendable, Equatable {
        /// `{}` for a schema with required fields.
        case missingRequired = "missing-required"
        /// One property with a value of another JSON type.
        case wrongType = "wrong-type"
        /// A property the schema does not name, where `additionalProperties` is false.
        case unknownProperty = "unknown-property"
        /// A value outside a property's `enum`.
        case notInEnum = "not-in-enum"
        /// A number under `minimum` (or at `exclusiveMinimum`).
        case belowMinimum = "below-minimum"
        /// A number over `maximum` (or at `exclusiveMaximum`).
        case aboveMaximum = "above-maximum"
        /// A string shorter than `minLength`.
        case tooShort = "too-short"
        /// A string longer than `maxLength`.
        case tooLong = "too-long"
        /// A string that is not the `format` ("date", "date-time").
        case badFormat = "bad-format"
        /// An array with fewer items than `minItems`.
        case tooFewItems = "too-few-items"
    }

    public var kind: Kind
    /// What is wrong, for a report: `field "text": 42 instead of a string`.
    public var label: String
    /// The whole input object sent to the skill.
    public var input: JSON
}

/// Generates the wrong inputs for an intent from its input schema (the subset in `JSONSchema`).
///
/// Each input starts from `base` — a valid input (an example's), so that exactly one thing is wrong —
/// or, without one, from an object holding only the property at fault. Only the root object's own
/// properties are varied (not nested ones), and every input is checked against the schema: one that
/// the schema accepts after all (because of `anyOf`, say) is dropped. Pure; thread-safe.
public enum WrongInputs {
    /// The name of the property the unknown-property input adds.
    public static let unknownPropertyName = "validateUnknownField"

    /// The wrong inputs for `schema` (an intent's input schema), in a stable order; none if the schema
    /// does not compile or rules nothing out (e.g. `{"type":"object"}`).
    public static func generate(schema json: JSON, base: JSON? = nil) -> [WrongInput] {
        guard let schema = try? JSONSchema(json) else { return [] }
        return generate(schema, base: base)
    }

    static func generate(_ schema: JSONSchema, base: JSON?) -> [WrongInput] {
        let start = base?.objectValue ?? JSONObject()
        func with(_ name: String, _ value: JSON) -> JSON {
            var o = start
            o[name] = value
            return .object(o)
        }
        var out: [WrongInput] = []
        if !schema.required.isEmpty {
            out.append(WrongInput(kind: .missingRequired,
                                  label: "{} (missing required " + schema.required.map { "\"\($0)\"" }.joined(separator: ", ") + ")",
                                  input: .object(JSONObject())))
        }
        for (name, p) in schema.properties {
            func add(_ kind: WrongInput.Kind, _ value: JSON, _ why: String) {
                out.append(WrongInput(kind: kind, label: "field \"\(name)\": \(shown(value)) (\(why))", input: with(name, value)))
            }
            if let bits = p.typeBits, let types = p.types, let wrong = valueOfAnotherType(than: bits) {
                add(.wrongType, wrong, "expected \(JSONSchema.describe(types))")
            }
            if let e = p.enumValues {
                add(.notInEnum, .string("validate-not-in-enum"), "expected one of \(e.map(\.serialized).joined(separator: ", "))")
            }
            let integral = p.types == ["integer"]
            func number(_ d: Double) -> JSON { integral || d == d.rounded() && abs(d) < 1e15 ? .int(Int64(d)) : .double(d) }
            if let m = p.minimum { add(.belowMinimum, number(m - 1), "minimum \(JSON.format(m))") }
            if let m = p.exclusiveMinimum { add(.belowMinimum, number(m), "exclusiveMinimum \(JSON.format(m))") }
            if let m = p.maximum { add(.aboveMaximum, number(m + 1), "maximum \(JSON.format(m))") }
            if let m = p.exclusiveMaximum { add(.aboveMaximum, number(m), "exclusiveMaximum \(JSON.format(m))") }
            if let n = p.minLength, n > 0 {
                add(.tooShort, .string(String(repeating: "x", count: n - 1)), "minLength \(n)")
            }
            if let n = p.maxLength, n < 100_000 {
                add(.tooLong, .string(String(repeating: "x", count: n + 1)), "maxLength \(n)")
            }
            switch p.format {
            case "date"?: add(.badFormat, .string("2026-02-30"), "format date")
            case "date-time"?: add(.badFormat, .string("2026-11-30 at noon"), "format date-time")
            default: break
            }
            if let n = p.minItems, n > 0 { add(.tooFewItems, .array([]), "minItems \(n)") }
        }
        if case .forbidden = schema.additional {
            var o = start
            o[unknownPropertyName] = .bool(true)
            out.append(WrongInput(kind: .unknownProperty,
                                  label: "unknown field \"\(unknownPropertyName)\" (additionalProperties is false)",
                                  input: .object(o)))
        }
        return out.filter { !schema.validate($0.input, limit: 1).isEmpty }
    }

    /// `value` as a label shows it: a long string cut, with its length.
    static func shown(_ value: JSON) -> String {
        guard case .string(let s) = value, s.count > 24 else { return value.serialized }
        return JSON.quote(String(s.prefix(12)) + "…") + " (\(s.count) characters)"
    }

    /// A value none of the types in `bits` (`JSONSchema.typeBits`) accepts: a number where a string
    /// is expected, a string otherwise.
    static func valueOfAnotherType(than bits: UInt8) -> JSON? {
        let candidates: [JSON] = [.int(42), .string("validate-wrong-type"), .bool(true), .array([]), .object(JSONObject()), .null]
        return candidates.first { !JSONSchema.matches($0, bits) }
    }
}
