import Foundation

/// The quick path of `SkillInput.decode` and `SkillContext.config`: a `Decoder` over a `JSONTree`,
/// for the common case, several times cheaper than `JSONDecoder` for a call's small input.
///
/// Contract: it gives the value `SkillJSON.decoder` would give, or throws. It is sure only of the plain
/// cases (objects, arrays, strings, booleans, null, integers that fit, finite numbers, `Date` from an
/// RFC 3339 string); whenever it meets anything else — a missing key, a type mismatch, `Data`, `URL`,
/// `Decimal`, a `superDecoder`, a float that is not exact — it gives up on the whole value, even if the
/// type caught the error itself (`try?`), and the caller decodes with `JSONDecoder`, which then succeeds
/// or throws exactly as before (so every error message stays `JSONDecoder`'s).
enum QuickDecoding {
    /// Throws `QuickDecodingGaveUp` where it is not sure (and the caller asks `JSONDecoder`). Throwing
    /// rather than returning `T?`: an optional of a generic type looks its metadata up at run time
    /// (hundreds of instructions on every call).
    static func decode<T: Decodable>(_ type: T.Type, from json: [UInt8]) throws(QuickDecodingGaveUp) -> T {
        guard let tree = JSONTree.parse(json) else { throw QuickDecodingGaveUp() }
        let root = TreeDecoder(tree, path: [], state: nil)
        let value: T
        do { value = try root.decode(T.self, from: tree, path: [], decoder: root) } catch { throw QuickDecodingGaveUp() }
        if root.unsure { throw QuickDecodingGaveUp() }
        return value
    }
}

/// Why the quick path stopped: `JSONDecoder` decides instead.
struct QuickDecodingGaveUp: Error {}

/// One decoding pass: whether it gave up anywhere, and the conversions of leaf values. The decoder of
/// the root value is the pass's state (one object fewer per call); the others point to it.
private class DecodingState {
    private(set) var unsure = false

    init() {}

    func giveUp() -> QuickDecodingGaveUp {
        unsure = true
        return QuickDecodingGaveUp()
    }

    /// `T` from `value`; a non-leaf `T` through `decoder` (given for the root value), else a new one.
    func decode<T: Decodable>(_: T.Type, from value: JSONTree.Value, path: [any CodingKey], decoder: TreeDecoder? = nil) throws -> T {
        // The leaf types directly (no decoder per array element); the types JSONDecoder treats
        // specially: Date with SkillJSON's strategy, the rest left to JSONDecoder.
        if T.self == String.self { return try string(value) as! T }
        if T.self == Int.self { return try integer(value) as Int as! T }
        if T.self == Bool.self { return try bool(value) as! T }
        if T.self == Double.self { return try double(value) as! T }
        if T.self == Date.self {
            guard case .string(let text) = value, let date = SkillDates.parseInstant(text) else { throw giveUp() }
            return date as! T
        }
        if T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw giveUp() }
        return try T(from: decoder ?? TreeDecoder(value, path: path, state: self))
    }

    func bool(_ value: JSONTree.Value) throws -> Bool {
        guard case .bool(let b) = value else { throw giveUp() }
        return b
    }

    func string(_ value: JSONTree.Value) throws -> String {
        guard case .string(let s) = value else { throw giveUp() }
        return s
    }

    /// Digits only (JSON's grammar, no fraction or exponent) that fit `I`.
    func integer<I: FixedWidthInteger>(_ value: JSONTree.Value) throws -> I {
        guard case .number(let text) = value, let i = I(text, radix: 10) else { throw giveUp() }
        return i
    }

    func double(_ value: JSONTree.Value) throws -> Double {
        guard case .number(let text) = value, let d = Double(text), d.isFinite else { throw giveUp() }
        return d
    }

    /// Only a number a `Float` holds exactly (no question of how to round it).
    func float(_ value: JSONTree.Value) throws -> Float {
        let d = try double(value)
        let f = Float(d)
        guard Double(f) == d else { throw giveUp() }
        return f
    }
}

/// A coding key for an array element, as JSONDecoder names it ("Index 2").
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private final class TreeDecoder: DecodingState, Decoder, SingleValueDecodingContainer {
    let value: JSONTree.Value
    let codingPath: [any CodingKey]
    /// The pass's state when this is not the root decoder (which is the state itself).
    private let rootState: DecodingState?
    var state: DecodingState { rootState ?? self }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder of `value`; `state` nil makes it the root decoder, the pass's state.
    init(_ value: JSONTree.Value, path: [any CodingKey], state: DecodingState?) {
        (self.value, self.codingPath, self.rootState) = (value, path, state)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw state.giveUp() }
        return KeyedDecodingContainer(KeyedTree<Key>(members: members, codingPath: codingPath, state: state))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw state.giveUp() }
        return UnkeyedTree(elements: elements, codingPath: codingPath, state: state)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_: Bool.Type) throws -> Bool { try state.bool(value) }
    func decode(_: String.Type) throws -> String { try state.string(value) }
    func decode(_: Double.Type) throws -> Double { try state.double(value) }
    func decode(_: Float.Type) throws -> Float { try state.float(value) }
    func decode(_: Int.Type) throws -> Int { try state.integer(value) }
    func decode(_: Int8.Type) throws -> Int8 { try state.integer(value) }
    func decode(_: Int16.Type) throws -> Int16 { try state.integer(value) }
    func decode(_: Int32.Type) throws -> Int32 { try state.integer(value) }
    func decode(_: Int64.Type) throws -> Int64 { try state.integer(value) }
    func decode(_: UInt.Type) throws -> UInt { try state.integer(value) }
    func decode(_: UInt8.Type) throws -> UInt8 { try state.integer(value) }
    func decode(_: UInt16.Type) throws -> UInt16 { try state.integer(value) }
    func decode(_: UInt32.Type) throws -> UInt32 { try state.integer(value) }
    func decode(_: UInt64.Type) throws -> UInt64 { try state.integer(value) }
    func decode<T: Decodable>(_: T.Type) throws -> T { try state.decode(T.self, from: value, path: codingPath) }
}

private struct KeyedTree<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: JSONTree.Value)]
    let codingPath: [any CodingKey]
    let state: DecodingState

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    private func find(_ key: Key) -> JSONTree.Value? {
        let name = key.stringValue
        for member in members where member.key == name { return member.value }
        return nil
    }

    private func value(_ key: Key) throws -> JSONTree.Value {
        guard let v = find(key) else { throw state.giveUp() }
        return v
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try state.bool(value(key)) }
    func decode(_: String.Type, forKey key: Key) throws -> String { try state.string(value(key)) }
    func decode(_: Double.Type, forKey key: Key) throws -> Double { try state.double(value(key)) }
    func decode(_: Float.Type, forKey key: Key) throws -> Float { try state.float(value(key)) }
    func decode(_: Int.Type, forKey key: Key) throws -> Int { try state.integer(value(key)) }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try state.integer(value(key)) }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try state.integer(value(key)) }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try state.integer(value(key)) }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try state.integer(value(key)) }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try state.integer(value(key)) }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try state.integer(value(key)) }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try state.integer(value(key)) }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try state.integer(value(key)) }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try state.integer(value(key)) }
    func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
        try state.decode(T.self, from: value(key), path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        guard case .object(let members) = try value(key) else { throw state.giveUp() }
        return KeyedDecodingContainer(KeyedTree<NestedKey>(members: members, codingPath: codingPath + [key], state: state))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = try value(key) else { throw state.giveUp() }
        return UnkeyedTree(elements: elements, codingPath: codingPath + [key], state: state)
    }

    func superDecoder() throws -> any Decoder { throw state.giveUp() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw state.giveUp() }
}

private struct UnkeyedTree: UnkeyedDecodingContainer {
    let elements: [JSONTree.Value]
    let codingPath: [any CodingKey]
    let state: DecodingState
    private(set) var currentIndex = 0

    init(elements: [JSONTree.Value], codingPath: [any CodingKey], state: DecodingState) {
        (self.elements, self.codingPath, self.state) = (elements, codingPath, state)
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> JSONTree.Value {
        guard !isAtEnd else { throw state.giveUp() }
        currentIndex += 1
        return elements[currentIndex - 1]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw state.giveUp() }
        guard case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_: Bool.Type) throws -> Bool { try state.bool(next()) }
    mutating func decode(_: String.Type) throws -> String { try state.string(next()) }
    mutating func decode(_: Double.Type) throws -> Double { try state.double(next()) }
    mutating func decode(_: Float.Type) throws -> Float { try state.float(next()) }
    mutating func decode(_: Int.Type) throws -> Int { try state.integer(next()) }
    mutating func decode(_: Int8.Type) throws -> Int8 { try state.integer(next()) }
    mutating func decode(_: Int16.Type) throws -> Int16 { try state.integer(next()) }
    mutating func decode(_: Int32.Type) throws -> Int32 { try state.integer(next()) }
    mutating func decode(_: Int64.Type) throws -> Int64 { try state.integer(next()) }
    mutating func decode(_: UInt.Type) throws -> UInt { try state.integer(next()) }
    mutating func decode(_: UInt8.Type) throws -> UInt8 { try state.integer(next()) }
    mutating func decode(_: UInt16.Type) throws -> UInt16 { try state.integer(next()) }
    mutating func decode(_: UInt32.Type) throws -> UInt32 { try state.integer(next()) }
    mutating func decode(_: UInt64.Type) throws -> UInt64 { try state.integer(next()) }
    mutating func decode<T: Decodable>(_: T.Type) throws -> T {
        let key = IndexKey(currentIndex)
        return try state.decode(T.self, from: next(), path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let key = IndexKey(currentIndex)
        guard case .object(let members) = try next() else { throw state.giveUp() }
        return KeyedDecodingContainer(KeyedTree<NestedKey>(members: members, codingPath: codingPath + [key], state: state))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let key = IndexKey(currentIndex)
        guard case .array(let elements) = try next() else { throw state.giveUp() }
        return UnkeyedTree(elements: elements, codingPath: codingPath + [key], state: state)
    }

    mutating func superDecoder() throws -> any Decoder { throw state.giveUp() }
}
