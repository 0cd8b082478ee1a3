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
    /// written with escapes is compared unescaped. By length first, then the few names of that length
    /// (`WireKeyTests` reads every key back, so a key missing here fails there).
    public init?(named bytes: UnsafeBufferPointer<UInt8>, _ keyText: Range<Int>) {
        let inner = (keyText.lowerBound + 1)..<(keyText.upperBound - 1)
        func named(_ k: WireKey) -> WireKey? { JSONScan.equals(bytes, inner, k.name) ? k : nil }
        let found: WireKey?
        switch inner.count {
        case 2: found = named(.op) ?? named(.id)
        case 3: found = named(.pid) ?? named(.key)
        case 4: found = named(.view) ?? named(.kind) ?? named(.step)
        case 5: found = named(.input) ?? named(.store) ?? named(.skill) ?? named(.level) ?? named(.event) ?? named(.total) ?? named(.value)
        case 6: found = named(.status) ?? named(.result) ?? named(.intent) ?? named(.detail)
        case 7: found = named(.message) ?? named(.context) ?? named(.sandbox)
        case 8: found = named(.protocol) ?? named(.declared)
        case 9: found = named(.hasHealth)
        case 10: found = named(.deadlineMs) ?? named(.resultText) ?? named(.threadSafe)
        case 13: found = named(.resultProblem) ?? named(.limitProblems)
        default: found = nil
        }
        if let found { self = found; return }
        guard bytes[inner].contains(0x5c), let text = JSONScan.string(bytes, keyText),
              let k = Self.allCases.first(where: { $0.name.description == text }) else { return nil }
        self = k
    }
}

/// The members of one frame, found in place in one pass (`JSONScan.forEachMember`) and indexed by
/// `WireKey`: each lookup is an array read, and no `String` is made for a key. A member whose name
/// this side does not know is skipped; of two members with the same name the first counts. Reads
/// `frame` only while it is alive: the caller keeps the bytes. (The slots are a heap array, not an
/// `InlineArray`: a 32-slot inline array was copied whole, 768 bytes, on every lookup.)
public struct FrameMembers {
    public let frame: UnsafeBufferPointer<UInt8>
    private let ranges: [Range<Int>?]
    private static let slots = WireKey.allCases.count

    /// Nil when `frame` is not one JSON object (nested at most `maxDepth` levels).
    public init?(_ frame: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONLimits.frameDepth) {
        var ranges = [Range<Int>?](repeating: nil, count: Self.slots)
        let ok = ranges.withUnsafeMutableBufferPointer { r in
            JSONScan.forEachMember(frame, maxDepth: maxDepth) { keyText, value in
                if let k = WireKey(named: frame, keyText), r[k.rawValue] == nil { r[k.rawValue] = value }
            }
        }
        guard ok else { return nil }
        (self.frame, self.ranges) = (frame, ranges)
    }

    /// The value's byte range.
    public subscript(_ key: WireKey) -> Range<Int>? { ranges[key.rawValue] }
    public func has(_ key: WireKey) -> Bool { ranges[key.rawValue] != nil }
    public func string(_ key: WireKey) -> String? { self[key].flatMap { JSONScan.string(frame, $0) } }
    public func int(_ key: WireKey) -> Int64? { self[key].flatMap { JSONScan.int(frame, $0) } }
    /// The value's bytes (its JSON text).
    public func bytes(_ key: WireKey) -> UnsafeBufferPointer<UInt8>? { self[key].map { UnsafeBufferPointer(rebasing: frame[$0]) } }
}

extension Line {
    /// `"key":` for a frame's member (see `key(_: StaticString)`).
    public mutating func key(_ k: WireKey) { key(k.name) }
}
