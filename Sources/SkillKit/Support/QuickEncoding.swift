import Foundation

/// The quick path of `SkillResult(_:)`: an `Encoder` into a small tree, written as the bytes
/// `SkillJSON.encoder` would write — keys sorted, slashes not escaped, `Date` through
/// `SkillDates.format` — several times cheaper than `JSONEncoder` for a call's small result.
///
/// Contract: the bytes equal `JSONEncoder`'s (`.sortedKeys`, `.withoutEscapingSlashes`), or nil. It is
/// sure only of the plain cases (a top-level object or array of strings, booleans, null, integers,
/// finite floating-point numbers, `Date`, with ASCII keys); on anything else — `Data`, `URL`,
/// `Decimal`, a `superEncoder`, a non-ASCII or repeated key, a value that encodes nothing or twice,
/// a NaN — it gives up on the whole value and the caller encodes with `JSONEncoder` (which then
/// succeeds or throws exactly as before).
enum QuickEncoding {
    static func encode<T: Encodable>(_ value: T, timeZone: TimeZone) -> [UInt8]? {
        let root = TreeEncoder(path: [], state: nil, timeZone: timeZone)
        guard let node = try? root.encoded(value, path: [], encoder: root), !root.unsure else { return nil }
        switch node {
        case .object, .array: break
        default: return nil  // a top-level fragment: JSONEncoder's business
        }
        var out: [UInt8] = []
        out.reserveCapacity(128)
        return write(node, into: &out) ? out : nil
    }

    /// JSON text of `node`; false when a key is not ASCII or appears twice in one object.
    private static func write(_ node: EncodedNode, into out: inout [UInt8]) -> Bool {
        switch node {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let box):
            out.append(UInt8(ascii: "["))
            for (i, element) in box.elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                guard write(element, into: &out) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        case .object(let box):
            // ASCII keys: JSONEncoder's order is then plain byte order, which `<` gives.
            for member in box.members where !member.key.utf8.allSatisfy({ $0 < 0x80 }) { return false }
            let members = box.members.count > 1 ? box.members.sorted { $0.key < $1.key } : box.members
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 {
                    guard member.key != members[i - 1].key else { return false }
                    out.append(UInt8(ascii: ","))
                }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                guard write(member.node, into: &out) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// A string literal as JSONEncoder writes it: `"` and `\` escaped, \b \f \n \r \t, other
    /// control characters as \u00xx; everything else (slashes, DEL, non-ASCII) as is, in runs.
    private static func writeString(_ s: String, into out: inout [UInt8]) {
        var s = s
        out.append(UInt8(ascii: "\""))
        s.withUTF8 { u in
            var run = 0
            for i in 0..<u.count {
                let b = u[i]
                guard b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: u[run..<i]))
                run = i + 1
                out.append(0x5C)
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(b)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    func hex(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10 }
                    out.append(UInt8(ascii: "u"))
                    out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0"))
                    out.append(hex(b >> 4))
                    out.append(hex(b & 0xF))
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: u[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// What was encoded, before it is written.
private enum EncodedNode {
    case null
    case bool(Bool)
    /// The number's JSON text.
    case number(String)
    case string(String)
    case array(ArrayBox)
    case object(ObjectBox)
}

/// Containers hand out references: a nested container fills its box after it was put in place.
private final class ArrayBox { var elements: [EncodedNode] = [] }
private final class ObjectBox { var members: [(key: String, node: EncodedNode)] = [] }

/// Why the quick path stopped; never seen outside `QuickEncoding`.
private struct QuickEncodingGaveUp: Error {}

/// One encoding pass: whether it gave up anywhere, and the leaves. The encoder of the root value is the
/// pass's state (one object fewer per call); the others point to it.
private class EncodingState {
    let timeZone: TimeZone
    var unsure = false

    init(timeZone: TimeZone) { self.timeZone = timeZone }

    func giveUp() -> QuickEncodingGaveUp {
        unsure = true
        return QuickEncodingGaveUp()
    }

    /// What `value` encodes to; a non-leaf `value` through `encoder` (given for the root value), else a
    /// new one.
    func encoded<T: Encodable>(_ value: T, path: [any CodingKey], encoder: TreeEncoder? = nil) throws -> EncodedNode {
        if T.self == String.self { return .string(value as! String) }
        if T.self == Int.self { return .number(String(value as! Int)) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Double.self { return try number(value as! Double) }
        if T.self == Date.self { return .string(SkillDates.format(value as! Date, timeZone: timeZone)) }
        if T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw giveUp() }
        let encoder = encoder ?? TreeEncoder(path: path, state: self)
        try value.encode(to: encoder)
        guard let node = encoder.node else { throw giveUp() }
        return node
    }

    /// JSONEncoder's text for a finite number: its `description`, without a trailing ".0".
    func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ v: F) throws -> EncodedNode {
        guard v.isFinite else { throw giveUp() }
        var text = v.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}

private final class TreeEncoder: EncodingState, Encoder, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    /// The pass's state when this is not the root encoder (which is the state itself).
    private let rootState: EncodingState?
    var state: EncodingState { rootState ?? self }
    var node: EncodedNode?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// An encoder at `path`; `state` nil makes it the root encoder, the pass's state, in `timeZone`.
    init(path: [any CodingKey], state: EncodingState?, timeZone: TimeZone? = nil) {
        (self.codingPath, self.rootState) = (path, state)
        super.init(timeZone: timeZone ?? state?.timeZone ?? SkillDates.utc)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        switch node {
        case .object(let existing)?: box = existing
        case nil: box = ObjectBox(); node = .object(box)
        default: box = ObjectBox(); state.unsure = true
        }
        return KeyedEncodingContainer(KeyedTreeEncoder<Key>(box: box, codingPath: codingPath, state: state))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        switch node {
        case .array(let existing)?: box = existing
        case nil: box = ArrayBox(); node = .array(box)
        default: box = ArrayBox(); state.unsure = true
        }
        return UnkeyedTreeEncoder(box: box, codingPath: codingPath, state: state)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    private func set(_ value: EncodedNode) {
        if node != nil { state.unsure = true }
        node = value
    }

    func encodeNil() { set(.null) }
    func encode(_ v: Bool) { set(.bool(v)) }
    func encode(_ v: String) { set(.string(v)) }
    func encode(_ v: Double) throws { set(try state.number(v)) }
    func encode(_ v: Float) throws { set(try state.number(v)) }
    func encode(_ v: Int) { set(.number(String(v))) }
    func encode(_ v: Int8) { set(.number(String(v))) }
    func encode(_ v: Int16) { set(.number(String(v))) }
    func encode(_ v: Int32) { set(.number(String(v))) }
    func encode(_ v: Int64) { set(.number(String(v))) }
    func encode(_ v: UInt) { set(.number(String(v))) }
    func encode(_ v: UInt8) { set(.number(String(v))) }
    func encode(_ v: UInt16) { set(.number(String(v))) }
    func encode(_ v: UInt32) { set(.number(String(v))) }
    func encode(_ v: UInt64) { set(.number(String(v))) }
    func encode<T: Encodable>(_ v: T) throws { set(try state.encoded(v, path: codingPath)) }
}

private struct KeyedTreeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let codingPath: [any CodingKey]
    let state: EncodingState

    private func put(_ key: Key, _ node: EncodedNode) { box.members.append((key.stringValue, node)) }

    mutating func encodeNil(forKey key: Key) { put(key, .null) }
    mutating func encode(_ v: Bool, forKey key: Key) { put(key, .bool(v)) }
    mutating func encode(_ v: String, forKey key: Key) { put(key, .string(v)) }
    mutating func encode(_ v: Double, forKey key: Key) throws { put(key, try state.number(v)) }
    mutating func encode(_ v: Float, forKey key: Key) throws { put(key, try state.number(v)) }
    mutating func encode(_ v: Int, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: Int8, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: Int16, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: Int32, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: Int64, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: UInt, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: UInt8, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: UInt16, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: UInt32, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode(_ v: UInt64, forKey key: Key) { put(key, .number(String(v))) }
    mutating func encode<T: Encodable>(_ v: T, forKey key: Key) throws {
        put(key, try state.encoded(v, path: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBox()
        put(key, .object(nested))
        return KeyedEncodingContainer(KeyedTreeEncoder<NestedKey>(box: nested, codingPath: codingPath + [key], state: state))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        put(key, .array(nested))
        return UnkeyedTreeEncoder(box: nested, codingPath: codingPath + [key], state: state)
    }

    mutating func superEncoder() -> any Encoder {
        state.unsure = true
        return TreeEncoder(path: codingPath, state: state)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        state.unsure = true
        return TreeEncoder(path: codingPath + [key], state: state)
    }
}

/// A coding key for an array element, as JSONEncoder names it ("Index 2").
private struct ElementKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedTreeEncoder: UnkeyedEncodingContainer {
    let box: ArrayBox
    let codingPath: [any CodingKey]
    let state: EncodingState

    var count: Int { box.elements.count }

    mutating func encodeNil() { box.elements.append(.null) }
    mutating func encode(_ v: Bool) { box.elements.append(.bool(v)) }
    mutating func encode(_ v: String) { box.elements.append(.string(v)) }
    mutating func encode(_ v: Double) throws { box.elements.append(try state.number(v)) }
    mutating func encode(_ v: Float) throws { box.elements.append(try state.number(v)) }
    mutating func encode(_ v: Int) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: Int8) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: Int16) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: Int32) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: Int64) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: UInt) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: UInt8) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: UInt16) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: UInt32) { box.elements.append(.number(String(v))) }
    mutating func encode(_ v: UInt64) { box.elements.append(.number(String(v))) }
    mutating func encode<T: Encodable>(_ v: T) throws {
        let key = ElementKey(count)
        box.elements.append(try state.encoded(v, path: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = ElementKey(count)
        let nested = ObjectBox()
        box.elements.append(.object(nested))
        return KeyedEncodingContainer(KeyedTreeEncoder<NestedKey>(box: nested, codingPath: codingPath + [key], state: state))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = ElementKey(count)
        let nested = ArrayBox()
        box.elements.append(.array(nested))
        return UnkeyedTreeEncoder(box: nested, codingPath: codingPath + [key], state: state)
    }

    mutating func superEncoder() -> any Encoder {
        state.unsure = true
        return TreeEncoder(path: codingPath, state: state)
    }
}
