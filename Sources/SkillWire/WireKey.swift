/// Every top-level member name of a host ↔ worker frame (which operation carries which: `WireOp`).
/// The one list both sides write frames with (`Line.key(_:)`) and read them with (`FrameMembers`).
/// Names inside a member's value (the hello's `sandbox` object) are that value's business.
public enum WireKey: Int, CaseIterable, Sendable {
    // host → worker
    case op, id, intent, input, context, deadlineMs, view, store
    // worker → host
    case `protocol`, pid, skill, threadSafe, hasHealth, limitProblems, sandbox
    case kind, message, status, result, resultText, resultProblem
    case step, total, level, event, declared, detail, key, value

    /// The name as static bytes.
    public var name: StaticString {
        switch self {
        case .op: "op"
        case .id: "id"
        case .intent: "intent"
        case .input: "input"
        case .context: "context"
        case .deadlineMs: "deadlineMs"
        case .view: "view"
        case .store: "store"
        case .protocol: "protocol"
        case .pid: "pid"
        case .skill: "skill"
        case .threadSafe: "threadSafe"
        case .hasHealth: "hasHealth"
        case .limitProblems: "limitProblems"
        case .sandbox: "sandbox"
        case .kind: "kind"
        case .message: "message"
        case .status: "status"
        case .result: "result"
        case .resultText: "resultText"
        case .resultProblem: "resultProblem"
        case .step: "step"
        case .total: "total"
        case .level: "level"
        case .event: "event"
        case .declared: "declared"
        case .detail: "detail"
        case .key: "key"
        case .value: "value"
        }
    }

    /// The key whose name is the JSON string text `bytes[keyText]` (quotes included, as
    /// `JSONScan.Member.keyText`); nil for a name this side does not know (a newer peer's). A name
    /// written with escapes is compared unescaped. By length and first letter (and for "s…" of five
    /// letters, the second), which leave one candidate, then that name whole (`WireKeyTests` reads
    /// every key back, so a key missing here fails there).
    public init?(named bytes: UnsafeBufferPointer<UInt8>, _ keyText: Range<Int>) {
        let inner = (keyText.lowerBound + 1)..<(keyText.upperBound - 1)
        let first = inner.isEmpty ? 0 : bytes[inner.lowerBound]
        // Nested switches (by length, then by letter) compile to jump tables; one switch over the
        // pair compiled to a chain of some thirty comparisons.
        let candidate: WireKey?
        switch inner.count {
        case 2: candidate = first == 0x6f ? .op : first == 0x69 ? .id : nil                  // o i
        case 3: candidate = first == 0x70 ? .pid : first == 0x6b ? .key : nil                // p k
        case 4:
            switch first {
            case 0x76: candidate = .view                                                    // v
            case 0x6b: candidate = .kind                                                    // k
            case 0x73: candidate = .step                                                    // s
            default: candidate = nil
            }
        case 5:
            switch first {
            case 0x69: candidate = .input                                                   // i
            case 0x73: candidate = bytes[inner.lowerBound + 1] == 0x74 ? .store : .skill    // st sk
            case 0x6c: candidate = .level                                                   // l
            case 0x65: candidate = .event                                                   // e
            case 0x74: candidate = .total                                                   // t
            case 0x76: candidate = .value                                                   // v
            default: candidate = nil
            }
        case 6:
            switch first {
            case 0x73: candidate = .status                                                  // s
            case 0x72: candidate = .result                                                  // r
            case 0x69: candidate = .intent                                                  // i
            case 0x64: candidate = .detail                                                  // d
            default: candidate = nil
            }
        case 7:
            switch first {
            case 0x6d: candidate = .message                                                 // m
            case 0x63: candidate = .context                                                 // c
            case 0x73: candidate = .sandbox                                                 // s
            default: candidate = nil
            }
        case 8: candidate = first == 0x70 ? .protocol : first == 0x64 ? .declared : nil     // p d
        case 9: candidate = first == 0x68 ? .hasHealth : nil                                 // h
        case 10:
            switch first {
            case 0x64: candidate = .deadlineMs                                              // d
            case 0x72: candidate = .resultText                                              // r
            case 0x74: candidate = .threadSafe                                              // t
            default: candidate = nil
            }
        case 13: candidate = first == 0x72 ? .resultProblem : first == 0x6c ? .limitProblems : nil  // r l
        default: candidate = nil
        }
        let found = candidate.flatMap { k in
            let name = k.name
            return JSONScan.equals(bytes, inner, name.utf8Start, count: name.utf8CodeUnitCount) ? k : nil
        }
        if let found { self = found; return }
        guard bytes[inner].contains(0x5c), let text = JSONScan.string(bytes, keyText),
              let k = Self.allCases.first(where: { $0.name.description == text }) else { return nil }
        self = k
    }
}

/// The members of one frame, found in place in one pass (`JSONScan.forEachMember`) and indexed by
/// `WireKey`: each lookup is a read of one slot, and no `String` is made for a key. A member whose
/// name this side does not know is skipped; of two members with the same name the first counts.
/// Reads `frame` only while it is alive: the caller keeps the bytes. (The slots are one heap object,
/// `Slots`, not an `InlineArray`: a 32-slot inline array was copied whole, 768 bytes, on every lookup;
/// nor an `Array`, whose allocation looked up its storage type at run time on every frame.)
public struct FrameMembers {
    public let frame: UnsafeBufferPointer<UInt8>
    private let slots: Slots

    /// Two `Int`s per key, tail-allocated: `2 * key.rawValue` and `2 * key.rawValue + 1` hold the
    /// value's range, or -1 and -1 when the frame has no such member.
    private final class Slots: ManagedBuffer<Void, Int> {}
    private static let count = 2 * WireKey.allCases.count

    /// Nil when `frame` is not one JSON object (nested at most `maxDepth` levels).
    public init?(_ frame: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONLimits.frameDepth) {
        let slots = unsafeDowncast(Slots.create(minimumCapacity: Self.count) { _ in }, to: Slots.self)
        let ok = slots.withUnsafeMutablePointerToElements { r in
            r.initialize(repeating: -1, count: Self.count)
            return JSONScan.forEachMember(frame, maxDepth: maxDepth) { keyText, value in
                if let k = WireKey(named: frame, keyText), r[2 * k.rawValue] < 0 {
                    (r[2 * k.rawValue], r[2 * k.rawValue + 1]) = (value.lowerBound, value.upperBound)
                }
            }
        }
        guard ok else { return nil }
        (self.frame, self.slots) = (frame, slots)
    }

    /// The value's byte range.
    public subscript(_ key: WireKey) -> Range<Int>? {
        slots.withUnsafeMutablePointerToElements { r in
            let lower = r[2 * key.rawValue]
            return lower < 0 ? nil : lower..<r[2 * key.rawValue + 1]
        }
    }
    public func has(_ key: WireKey) -> Bool { self[key] != nil }
    public func string(_ key: WireKey) -> String? { self[key].flatMap { JSONScan.string(frame, $0) } }
    public func int(_ key: WireKey) -> Int64? { self[key].flatMap { JSONScan.int(frame, $0) } }
    /// The value's bytes (its JSON text).
    public func bytes(_ key: WireKey) -> UnsafeBufferPointer<UInt8>? { self[key].map { UnsafeBufferPointer(rebasing: frame[$0]) } }
}

extension Line {
    /// `"key":` for a frame's member (see `key(_: StaticString)`).
    public mutating func key(_ k: WireKey) { key(k.name) }

    /// `"key":N`: what `key(k)` then `number(n)` write, in one append (frames carry ids, statuses
    /// and steps; each append costs more than the bytes it writes).
    @inlinable
    public mutating func key<T: BinaryInteger>(_ k: WireKey, number n: T) {
        guard let v = Int64(exactly: n) else {
            key(k)
            return number(n)
        }
        key(k.name, int: v)
    }

    /// `"key":` then `value`'s bytes (raw JSON, already checked to be one value; or a literal word):
    /// what `key(k)` then `rawJSON(value)` write, in one append when `value` is short.
    public mutating func key(_ k: WireKey, rawJSON value: UnsafeBufferPointer<UInt8>) {
        guard value.count <= Self.onePieceLimit, let from = value.baseAddress else {
            key(k)
            return bytes.append(contentsOf: value)
        }
        appendKeyed(k.name, room: value.count) { p in
            p.update(from: from, count: value.count)
            return value.count
        }
    }

    public mutating func key(_ k: WireKey, rawJSON value: [UInt8]) {
        value.withUnsafeBufferPointer { key(k, rawJSON: $0) }
    }

    /// `"key":` then `value`'s UTF-8 (raw JSON text).
    public mutating func key(_ k: WireKey, rawJSON value: String) {
        var value = value
        value.withUTF8 { key(k, rawJSON: $0) }
    }

    /// `"key":` then a literal word (`null`, `true`, …), in one append.
    public mutating func key(_ k: WireKey, literal word: StaticString) {
        key(k, rawJSON: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    /// `"key":` then `value` as a JSON string (as `quoted(_:)` writes it): what `key(k)` then
    /// `quoted(value)` write, in one append when `value` is short and needs no escape.
    public mutating func key(_ k: WireKey, quoted value: UnsafeBufferPointer<UInt8>) {
        guard value.count <= Self.onePieceLimit, JSONText.isPlain(value) else {
            key(k)
            return quoted(value)
        }
        appendKeyed(k.name, room: value.count + 2) { p in
            p[0] = UInt8(ascii: "\"")
            if let from = value.baseAddress { (p + 1).update(from: from, count: value.count) }
            p[value.count + 1] = UInt8(ascii: "\"")
            return value.count + 2
        }
    }

    public mutating func key(_ k: WireKey, quoted value: String) {
        var value = value
        value.withUTF8 { key(k, quoted: $0) }
    }

    @usableFromInline
    mutating func key(_ name: StaticString, int v: Int64) {
        appendKeyed(name, room: 20) { JSONText.writeInteger(v, to: $0) }  // 20: "-9223372036854775808"
    }
}
