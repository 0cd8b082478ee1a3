import Foundation

/// The quick path of `SkillResult(_:)`: an `Encoder` that writes the JSON text straight into one byte
/// buffer — the bytes `SkillJSON.encoder` would write: keys sorted, slashes not escaped, `Date` through
/// `SkillDates.format` — several times cheaper than `JSONEncoder` for a call's small result.
///
/// Contract: the bytes equal `JSONEncoder`'s (`.sortedKeys`, `.withoutEscapingSlashes`), or nil. It is
/// sure only of the plain cases (a top-level object or array of strings, booleans, null, integers,
/// finite floating-point numbers, `Date`, with ASCII keys that need no escaping); on anything else —
/// `Data`, `URL`, `Decimal`, a `superEncoder`, another key, a repeated key, a value that encodes
/// nothing or twice, a NaN, a write to a container after a later-made one was written to — it gives
/// up on the whole value and the caller encodes with `JSONEncoder` (which then succeeds or throws
/// exactly as before).
///
/// How: containers write as they are given values. A container stays open until a container made
/// before it is written to again, or the `encode(to:)` that made it returns; then it is closed (its
/// bracket written, an object's members put in key order in place). Writing to a closed container is
/// one of the cases above.
enum QuickEncoding {
    static func encode<T: Encodable>(_ value: T, timeZone: TimeZone) -> [UInt8]? {
        let root = StreamEncoder(pass: nil, path: [], timeZone: timeZone)
        root.out.reserveCapacity(128)
        do { try root.write(value, path: [], encoder: root) } catch { return nil }
        // A top-level fragment is JSONEncoder's business.
        guard !root.unsure, let first = root.out.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        return root.out
    }
}

/// Why the quick path stopped; never seen outside `QuickEncoding`.
private struct QuickEncodingGaveUp: Error {}

/// One encoding pass: the bytes written so far, the containers still open, whether it gave up. The
/// encoder of the root value is the pass (one object fewer per call); the others point to it.
///
/// Not thread-safe: one pass runs on one thread. Its variables are `@exclusivity(unchecked)`: a
/// dynamic exclusivity check per access (two runtime calls) cost more than the writing itself, and
/// no access overlaps another (user code — `encode(to:)` — runs while none is under way).
private class EncodingPass {
    let timeZone: TimeZone
    @exclusivity(unchecked) var unsure = false
    @exclusivity(unchecked) var out: [UInt8] = []

    /// An open container: its serial number, where its bracket is in `out`, whether it is an object,
    /// how many members or elements it has; for an object, where its last key starts (at the quote)
    /// and whether the keys came in ascending order so far (then closing it moves nothing).
    private struct Frame {
        let serial: Int
        let start: Int
        let isObject: Bool
        var count = 0
        var lastKey = 0
        var sorted = true
    }
    /// The innermost open container, and the others (innermost last): a result of one object or
    /// array with values in it (the usual one) needs no array of frames.
    @exclusivity(unchecked) private var top: Frame?
    @exclusivity(unchecked) private var outer: [Frame] = []
    @exclusivity(unchecked) private var serials = 0

    init(timeZone: TimeZone) { self.timeZone = timeZone }

    func giveUp() -> QuickEncodingGaveUp {
        unsure = true
        return QuickEncodingGaveUp()
    }

    /// How many containers are open.
    var depth: Int { top == nil ? 0 : outer.count + 1 }

    // MARK: Containers

    /// Writes the opening bracket of a new container and returns its serial number.
    func openContainer(object: Bool) -> Int {
        serials += 1
        out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        if let top { outer.append(top) }
        top = Frame(serial: serials, start: out.count - 1, isObject: object)
        return serials
    }

    /// Whether container `serial` is still open.
    func isOpen(_ serial: Int) -> Bool { top?.serial == serial || outer.contains { $0.serial == serial } }

    /// Makes container `serial` the innermost open one, closing those made after it, and writes the
    /// separator of its next element; false (and the pass gives up) when it was closed already.
    private func enter(_ serial: Int) -> Bool {
        while let top, top.serial != serial { close() }
        guard top != nil else { unsure = true; return false }
        if top!.count > 0 { out.append(UInt8(ascii: ",")) }
        top!.count += 1
        return true
    }

    /// Starts the next element of array `serial`: after this, write its value.
    func beginElement(_ serial: Int) throws {
        guard enter(serial) else { throw giveUp() }
    }

    /// Starts member `key` of object `serial`: writes `"key":`, after which write its value. Only keys
    /// of printable ASCII without `"` or `\` (their text is their bytes, and byte order is
    /// JSONEncoder's order).
    func beginMember(_ serial: Int, _ key: String) throws {
        guard enter(serial) else { throw giveUp() }
        let start = out.count
        out.append(UInt8(ascii: "\""))
        var key = key
        let plain = key.withUTF8 { u -> Bool in
            for b in u where b < 0x20 || b >= 0x80 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: u)
            return true
        }
        guard plain else { throw giveUp() }
        out.append(UInt8(ascii: "\""))
        if top!.count > 1, top!.sorted {
            // Still in order when this key is after the previous one.
            top!.sorted = compareKeys(top!.lastKey, start) < 0
        }
        top!.lastKey = start
        out.append(UInt8(ascii: ":"))
    }

    /// Closes every container opened at `depth` or deeper.
    func close(downTo depth: Int) {
        while self.depth > depth { close() }
    }

    /// Closes the innermost open container.
    private func close() {
        let frame = top!
        top = outer.popLast()
        guard frame.isObject else { out.append(UInt8(ascii: "]")); return }
        if !frame.sorted, !unsure { reorder(frame) }
        out.append(UInt8(ascii: "}"))
    }

    /// The key text starting at the quote at `offset` (the key is plain, see `beginMember`).
    private func key(at offset: Int) -> Range<Int> {
        var end = offset + 1
        while out[end] != UInt8(ascii: "\"") { end += 1 }
        return offset + 1 ..< end
    }

    /// <0, 0, >0 as the key at `a` sorts before, equal to, after the key at `b`.
    private func compareKeys(_ a: Int, _ b: Int) -> Int {
        let (x, y) = (key(at: a), key(at: b))
        return out.withUnsafeBufferPointer { p in
            let n = min(x.count, y.count)
            let c = memcmp(p.baseAddress! + x.lowerBound, p.baseAddress! + y.lowerBound, n)
            return c != 0 ? Int(c) : x.count - y.count
        }
    }

    /// Puts the members of the object `frame` (the last bytes of `out`, without the closing brace) in
    /// key order; gives up on a repeated key.
    private func reorder(_ frame: Frame) {
        let starts = memberStarts(frame)
        let ends = (1..<starts.count).map { starts[$0] - 1 } + [out.count]   // each but the last ends at a comma
        let order = starts.indices.sorted { compareKeys(starts[$0], starts[$1]) < 0 }
        for k in 1..<order.count where compareKeys(starts[order[k - 1]], starts[order[k]]) == 0 {
            unsure = true
            return
        }
        let members = Array(out[starts[0]...])
        out.removeSubrange(starts[0]...)
        for (k, i) in order.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: members[(starts[i] - starts[0]) ..< (ends[i] - starts[0])])
        }
    }

    /// Where each member of the object `frame` starts (at its key's quote): after its brace and after
    /// each comma outside strings and nested containers (the text is this pass's own, valid JSON).
    private func memberStarts(_ frame: Frame) -> [Int] {
        var starts = [frame.start + 1]
        var depth = 0, inString = false, escaped = false
        for i in (frame.start + 1)..<out.count {
            let b = out[i]
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 0: starts.append(i + 1)
            default: break
            }
        }
        return starts
    }

    // MARK: Values

    /// Writes `value`; a non-leaf `value` through `encoder` (given for the root value), else a new one.
    func write<T: Encodable>(_ value: T, path: [any CodingKey], encoder: StreamEncoder? = nil) throws {
        if T.self == String.self { return writeString(value as! String) }
        if T.self == Int.self { return writeInteger(value as! Int) }
        if T.self == Bool.self { return writeBool(value as! Bool) }
        if T.self == Double.self { return try writeNumber(value as! Double) }
        if T.self == Date.self { return writeString(SkillDates.format(value as! Date, timeZone: timeZone)) }
        if T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw giveUp() }
        let encoder = encoder ?? StreamEncoder(pass: self, path: path)
        let depth = self.depth
        try value.encode(to: encoder)
        close(downTo: depth)
        guard encoder.wrote else { throw giveUp() }  // a value that encodes nothing
    }

    func writeNull() { out.append(contentsOf: "null".utf8) }

    func writeBool(_ b: Bool) { out.append(contentsOf: (b ? "true" : "false").utf8) }

    func writeInteger<I: FixedWidthInteger>(_ v: I) {
        guard v != 0 else { out.append(UInt8(ascii: "0")); return }
        // Digits from the last, into a stack buffer (40 holds any 128-bit value and its sign).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var at = 40
            var rest = v.magnitude
            while rest != 0 {
                let (q, r) = rest.quotientAndRemainder(dividingBy: 10)
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: r)
                rest = q
            }
            if v < 0 { at -= 1; buffer[at] = UInt8(ascii: "-") }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[at...]))
        }
    }

    /// JSONEncoder's text for a finite number: its `description`, without a trailing ".0".
    func writeNumber<F: BinaryFloatingPoint & CustomStringConvertible>(_ v: F) throws {
        guard v.isFinite else { throw giveUp() }
        var text = v.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    /// A string literal as JSONEncoder writes it: `"` and `\` escaped, \b \f \n \r \t, other
    /// control characters as \u00xx; everything else (slashes, DEL, non-ASCII) as is, in runs.
    func writeString(_ s: String) {
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

/// The encoder of one value: it writes that value once, either as a single value or through one
/// keyed or one unkeyed container (asked for as often as the type likes).
private final class StreamEncoder: EncodingPass, Encoder, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    /// The pass when this is not the root encoder (which is the pass itself).
    private let rootPass: EncodingPass?
    var pass: EncodingPass { rootPass ?? self }
    /// Whether this value was written: a single value, or the opening of its container.
    @exclusivity(unchecked) private(set) var wrote = false
    /// The serial number of this value's container, and whether it is an object.
    @exclusivity(unchecked) private var container: (serial: Int, isObject: Bool)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// An encoder at `path`; `pass` nil makes it the root encoder, the pass itself, in `timeZone`.
    init(pass: EncodingPass?, path: [any CodingKey], timeZone: TimeZone? = nil) {
        (self.codingPath, self.rootPass) = (path, pass)
        super.init(timeZone: timeZone ?? pass?.timeZone ?? SkillDates.utc)
    }

    /// The serial number of this value's container of the given kind: the one made before when it is
    /// still open, else a new one. 0 (nothing may be written to it) when this value was written
    /// otherwise.
    private func containerSerial(object: Bool) -> Int {
        if let container {
            if container.isObject == object, pass.isOpen(container.serial) { return container.serial }
            pass.unsure = true
            return 0
        }
        guard !wrote else { pass.unsure = true; return 0 }
        wrote = true
        let serial = pass.openContainer(object: object)
        container = (serial, object)
        return serial
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedStreamEncoder<Key>(serial: containerSerial(object: true), codingPath: codingPath, pass: pass))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedStreamEncoder(serial: containerSerial(object: false), codingPath: codingPath, pass: pass)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// Marks the single value as written; false (and the pass gives up) when it was already.
    private func claim() throws {
        guard !wrote else { throw pass.giveUp() }
        wrote = true
    }

    func encodeNil() throws { try claim(); pass.writeNull() }
    func encode(_ v: Bool) throws { try claim(); pass.writeBool(v) }
    func encode(_ v: String) throws { try claim(); pass.writeString(v) }
    func encode(_ v: Double) throws { try claim(); try pass.writeNumber(v) }
    func encode(_ v: Float) throws { try claim(); try pass.writeNumber(v) }
    func encode(_ v: Int) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: Int8) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: Int16) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: Int32) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: Int64) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: UInt) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: UInt8) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: UInt16) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: UInt32) throws { try claim(); pass.writeInteger(v) }
    func encode(_ v: UInt64) throws { try claim(); pass.writeInteger(v) }
    func encode<T: Encodable>(_ v: T) throws { try claim(); try pass.write(v, path: codingPath) }
}

private struct KeyedStreamEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// The object's serial number in the pass (0: writes give up).
    let serial: Int
    let codingPath: [any CodingKey]
    let pass: EncodingPass

    private func begin(_ key: Key) throws { try pass.beginMember(serial, key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { try begin(key); pass.writeNull() }
    mutating func encode(_ v: Bool, forKey key: Key) throws { try begin(key); pass.writeBool(v) }
    mutating func encode(_ v: String, forKey key: Key) throws { try begin(key); pass.writeString(v) }
    mutating func encode(_ v: Double, forKey key: Key) throws { try begin(key); try pass.writeNumber(v) }
    mutating func encode(_ v: Float, forKey key: Key) throws { try begin(key); try pass.writeNumber(v) }
    mutating func encode(_ v: Int, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: Int8, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: Int16, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: Int32, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: Int64, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: UInt, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: UInt8, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: UInt16, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: UInt32, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode(_ v: UInt64, forKey key: Key) throws { try begin(key); pass.writeInteger(v) }
    mutating func encode<T: Encodable>(_ v: T, forKey key: Key) throws {
        try begin(key)
        try pass.write(v, path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let serial = (try? begin(key)) == nil ? 0 : pass.openContainer(object: true)
        return KeyedEncodingContainer(KeyedStreamEncoder<NestedKey>(serial: serial, codingPath: codingPath + [key], pass: pass))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let serial = (try? begin(key)) == nil ? 0 : pass.openContainer(object: false)
        return UnkeyedStreamEncoder(serial: serial, codingPath: codingPath + [key], pass: pass)
    }

    mutating func superEncoder() -> any Encoder {
        pass.unsure = true
        return StreamEncoder(pass: pass, path: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        pass.unsure = true
        return StreamEncoder(pass: pass, path: codingPath + [key])
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

private struct UnkeyedStreamEncoder: UnkeyedEncodingContainer {
    /// The array's serial number in the pass (0: writes give up).
    let serial: Int
    let codingPath: [any CodingKey]
    let pass: EncodingPass
    private(set) var count = 0

    init(serial: Int, codingPath: [any CodingKey], pass: EncodingPass) {
        (self.serial, self.codingPath, self.pass) = (serial, codingPath, pass)
    }

    private mutating func begin() throws {
        try pass.beginElement(serial)
        count += 1
    }

    mutating func encodeNil() throws { try begin(); pass.writeNull() }
    mutating func encode(_ v: Bool) throws { try begin(); pass.writeBool(v) }
    mutating func encode(_ v: String) throws { try begin(); pass.writeString(v) }
    mutating func encode(_ v: Double) throws { try begin(); try pass.writeNumber(v) }
    mutating func encode(_ v: Float) throws { try begin(); try pass.writeNumber(v) }
    mutating func encode(_ v: Int) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: Int8) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: Int16) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: Int32) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: Int64) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: UInt) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: UInt8) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: UInt16) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: UInt32) throws { try begin(); pass.writeInteger(v) }
    mutating func encode(_ v: UInt64) throws { try begin(); pass.writeInteger(v) }
    mutating func encode<T: Encodable>(_ v: T) throws {
        let key = ElementKey(count)
        try begin()
        try pass.write(v, path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = ElementKey(count)
        let serial = (try? begin()) == nil ? 0 : pass.openContainer(object: true)
        return KeyedEncodingContainer(KeyedStreamEncoder<NestedKey>(serial: serial, codingPath: codingPath + [key], pass: pass))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = ElementKey(count)
        let serial = (try? begin()) == nil ? 0 : pass.openContainer(object: false)
        return UnkeyedStreamEncoder(serial: serial, codingPath: codingPath + [key], pass: pass)
    }

    mutating func superEncoder() -> any Encoder {
        pass.unsure = true
        return StreamEncoder(pass: pass, path: codingPath)
    }
}
