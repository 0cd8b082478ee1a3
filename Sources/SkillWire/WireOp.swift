/// Every operation of the host ↔ worker protocol: the `"op"` member of a frame. The one list both
/// sides build and read frames with (see `Line.frame(_:)`); a frame whose op a side does not know is
/// ignored by it (a newer peer's), never an error.
///
/// host → worker:
///   invoke    {"op":"invoke","id":N,"intent":S,"input":{…},"context":{…}[,"deadlineMs":N][,"view":{…}][,"store":{…}]}
///             deadlineMs: milliseconds the host will wait (-1 or absent: none), for time_left_ms;
///             view: context-store entries this call reads before the shared store; store: the host's
///             whole store, sent when it changed since the last invoke frame to this worker.
///   cancel    {"op":"cancel","id":N}
///   health    {"op":"health","id":N,"context":{…}}
///   shutdown  {"op":"shutdown"}
/// worker → host:
///   hello        {"op":"hello","protocol":N,"pid":N,"skill":S,"threadSafe":B,"hasHealth":B,"limitProblems":[S…]}
///   load_failed  {"op":"load_failed","protocol":N,"pid":N,"kind":K,"message":S}   (then exit 4)
///   complete     {"op":"complete","id":N,"status":N,"message":S|null,"result":JSON|null}  ("resultText":S if not JSON)
///   progress     {"op":"progress","id":N,"step":N,"total":N,"message":S|null}
///   log          {"op":"log","id":N|null,"level":N,"message":S}  (a second complete() adds "event":"complete_twice","intent":S)
///   health       {"op":"health","id":N,"status":N,"declared":B,"detail":JSON|null}
///   context_set  {"op":"context_set","key":S,"value":JSON}
public enum WireOp: String, Sendable, CaseIterable {
    // host → worker
    case invoke, cancel, shutdown
    /// Both directions: the host's probe and the worker's answer (told apart by direction).
    case health
    // worker → host
    case hello
    case loadFailed = "load_failed"
    case complete, progress, log
    case contextSet = "context_set"
}

extension WireOp {
    /// The operation named by the JSON string text `bytes[range]` (quotes included), read without
    /// making a `String`; nil for a name this side does not know (or one written with escapes).
    public init?(named bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        guard range.count >= 3, bytes[range.lowerBound] == 0x22 else { return nil }
        let name = (range.lowerBound + 1)..<(range.upperBound - 1)
        func named(_ op: WireOp) -> WireOp? { JSONScan.equals(bytes, name, op.name) ? op : nil }
        let found: WireOp?
        switch bytes[name.lowerBound] {  // the first letter, then the whole name
        case UInt8(ascii: "i"): found = named(.invoke)
        case UInt8(ascii: "c"): found = named(.complete) ?? named(.cancel) ?? named(.contextSet)
        case UInt8(ascii: "p"): found = named(.progress)
        case UInt8(ascii: "h"): found = named(.health) ?? named(.hello)
        case UInt8(ascii: "l"): found = named(.log) ?? named(.loadFailed)
        case UInt8(ascii: "s"): found = named(.shutdown)
        default: found = nil
        }
        guard let found else { return nil }
        self = found
    }

    /// `rawValue` as static bytes.
    var name: StaticString {
        switch self {
        case .invoke: "invoke"
        case .cancel: "cancel"
        case .shutdown: "shutdown"
        case .health: "health"
        case .hello: "hello"
        case .loadFailed: "load_failed"
        case .complete: "complete"
        case .progress: "progress"
        case .log: "log"
        case .contextSet: "context_set"
        }
    }
}

extension Line {
    /// A frame under construction: 4 bytes for the length (filled in by `Frame.sealInPlace` when it is
    /// sent), then `{"op":"<op>"`. Add members with `key(_: WireKey)`; `sealed()` closes the object.
    public static func frame(_ op: WireOp) -> Line {
        var l = Line()
        l.bytes.reserveCapacity(256)
        l.open(op)
        return l
    }

    /// Starts a frame in this line, which must be empty: what `frame(_:)` writes, into a buffer the
    /// caller keeps between frames (the host's sends reuse one per worker: no allocation per frame).
    public mutating func open(_ op: WireOp) {
        precondition(bytes.isEmpty, "a frame starts in an empty line")
        // The opening written in one piece.
        let name = op.name, head: StaticString = "\0\0\0\0{\"op\":\""
        let n = head.utf8CodeUnitCount, m = name.utf8CodeUnitCount
        JSONText.write(into: &bytes, room: n + m + 1) { p in
            p.update(from: head.utf8Start, count: n)
            (p + n).update(from: name.utf8Start, count: m)
            p[n + m] = UInt8(ascii: "\"")
            return n + m + 1
        }
    }

    /// Closes a frame started with `frame(_:)` and writes its length: the bytes to send.
    public consuming func sealed() -> [UInt8] {
        seal()
        return bytes
    }

    /// Closes a frame started with `frame(_:)` and writes its length, in place: `bytes` are then the
    /// bytes to send. (In place: `sealed()` on a line the caller still holds would append to a
    /// buffer with two owners, which copies the whole frame.)
    public mutating func seal() {
        bytes.append(UInt8(ascii: "}"))
        Frame.sealInPlace(&bytes)
    }

    /// Raw JSON bytes, already checked to be one JSON value.
    public mutating func rawJSON(_ u: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: u) }

    public mutating func rawJSON(_ u: [UInt8]) { bytes.append(contentsOf: u) }

    /// A JSON string of a C string (invalid UTF-8 repaired with U+FFFD), or null.
    public mutating func text(_ p: UnsafePointer<CChar>?) {
        guard let p else { return raw("null") }
        var n = 0
        while p[n] != 0 { n += 1 }
        text(bytes: UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: n))
    }

    /// `"key":` then what `text(p)` writes (`null`, with the key in one append, for nil).
    public mutating func key(_ k: WireKey, text p: UnsafePointer<CChar>?) {
        guard let p else { return key(k, literal: "null") }
        key(k)
        text(p)
    }

    /// `bytes` as a JSON string (invalid UTF-8 repaired with U+FFFD).
    public mutating func text(bytes u: UnsafeBufferPointer<UInt8>) {
        if UTF8Check.firstInvalidOffset(u) != nil {
            return quoted(String(decoding: u, as: UTF8.self))
        }
        quoted(u)
    }
}
