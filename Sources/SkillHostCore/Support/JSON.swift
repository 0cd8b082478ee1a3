/// A JSON value as the host sees it: numbers keep the difference between integers and reals,
/// objects keep their members' order (so output is stable and matches what a skill declared).
///
/// The host parses skill manifests, inputs and results with `JSON.parse` (a small RFC 8259 parser
/// over UTF-8 bytes) instead of Foundation's `JSONSerialization`, which on Linux cannot tell `true`
/// from `1` and is slower on the invoke path.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    // MARK: - Accessors

    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var arrayValue: [JSON]? { if case .array(let a) = self { return a }; return nil }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9.2e18: return Int64(d)
        default: return nil
        }
    }
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// How many containers deep the value nests (a scalar 0, `{"a":1}` 1, `[[]]` 2): what `parse`'s
    /// `maxDepth` limits.
    public var depth: Int {
        switch self {
        case .array(let a): return 1 + (a.lazy.map(\.depth).max() ?? 0)
        case .object(let o): return 1 + (o.members.lazy.map(\.value.depth).max() ?? 0)
        default: return 0
        }
    }

    /// A short name of the value's JSON type, for error messages ("a string", "an object", …).
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// JSON object members in their original order. Lookup is linear: objects here are small
/// (schemas, inputs); a host-side hot path that needs many lookups builds its own index.
public struct JSONObject: Equatable, Sendable, Sequence {
    public private(set) var members: [(key: String, value: JSON)]

    public init(_ members: [(key: String, value: JSON)] = []) { self.members = members }

    public subscript(key: String) -> JSON? {
        get {
            for m in members where m.key == key { return m.value }
            return nil
        }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let v = newValue { members[i].value = v } else { members.remove(at: i) }
            } else if let v = newValue {
                members.append((key, v))
            }
        }
    }
    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSON)]> { members.makeIterator() }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral v: String) { self = .string(v) }
    public init(integerLiteral v: Int64) { self = .int(v) }
    public init(floatLiteral v: Double) { self = .double(v) }
    public init(booleanLiteral v: Bool) { self = .bool(v) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}
