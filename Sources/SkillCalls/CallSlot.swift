import Glibc
import SkillABI
import SkillWire
import Synchronization

/// One call into skill code, on either side of the wire (the host's in-process runtime and the
/// worker): owns the `skh_call` the skill sees and turns the skill's `complete` into exactly one
/// delivery (`onComplete`).
///
/// Ownership: the slot is retained (through `host_data`) from `init` until the skill completes; the
/// `skh_call` and its strings (intent, input and context, copied NUL-terminated into the same block)
/// stay allocated until then, so a completion that arrives after the caller stopped waiting (`abandon`) is safe: it is
/// reported (`Misuse.completedLate`) and dropped. A slot whose skill never completes is leaked on
/// purpose (its memory is the price of not crashing). After completion the memory is kept in a
/// retirement ring of 256 calls, so that a buggy second `complete` is reported
/// (`Misuse.completedTwice`) instead of touching freed memory.
/// Threading: `complete`, `abandon`, `invokeReturned` and the services may run on any thread. The
/// closures are set before invoke() and run on the thread that triggers them.
public final class CallSlot: @unchecked Sendable {
    /// A skill's misuse of a call, reported through `SkillServices.Handlers.misuse`.
    public enum Misuse: Sendable { case completedTwice, completedLate }

    public let id: UInt64
    /// The skill that runs the call, for log lines.
    public let skillID: String
    public let intent: String
    public let call: UnsafeMutablePointer<skh_call>
    /// When the caller stops waiting (`time_left_ms`).
    public let deadline: CallDeadline
    /// Context-store entries this call reads before the shared store (`context_get`).
    public let view: [String: [UInt8]]?
    /// What `is_cancelled` answers.
    public let cancelled = Atomic<Bool>(false)

    private static let running: UInt8 = 0, completed: UInt8 = 1, abandoned: UInt8 = 2, completedLate: UInt8 = 3
    private let state = Atomic<UInt8>(0)
    /// Counts down "invoke() returned" and "completed"; `onFinish` runs when both happened.
    private let pendingEvents = Atomic<Int>(2)
    /// The first completion, while the skill's buffers are valid (copy what you keep).
    private let onComplete: @Sendable (CallSlot, Int32, UnsafeBufferPointer<UInt8>?, UnsafePointer<CChar>?) -> Void
    /// Progress reports while the call is running (dropped once it completed or was abandoned).
    let onProgress: (@Sendable (CallSlot, UInt32, UInt32, UnsafePointer<CChar>?) -> Void)?
    /// Set before invoke(); runs once, on the thread of the later of "invoke() returned" and
    /// "completed": `true` when that is the thread that called invoke(), `false` when it is the
    /// skill's completing thread (e.g. to let a serialized skill's next call start).
    /// (Not checked for exclusive access at run time: set once before invoke(), read once after.)
    @exclusivity(unchecked) public nonisolated(unsafe) var onFinish: ((_ onInvokingThread: Bool) -> Void)?
    /// Where a runner's list of running calls holds this slot (the worker's `ServedCalls.running`
    /// removes a completed call with it, in O(1)); -1 outside such a list. Read and written only
    /// under that list's lock.
    @exclusivity(unchecked) public nonisolated(unsafe) var runningIndex = -1

    /// `input` and `context` are copied (NUL-terminated) into memory the call owns.
    public init(id: UInt64, skillID: String, intent: String, input: UnsafeRawBufferPointer, context: UnsafeRawBufferPointer,
                deadline: CallDeadline, view: [String: [UInt8]]?,
                onProgress: (@Sendable (CallSlot, UInt32, UInt32, UnsafePointer<CChar>?) -> Void)?,
                onComplete: @escaping @Sendable (CallSlot, Int32, UnsafeBufferPointer<UInt8>?, UnsafePointer<CChar>?) -> Void) {
        (self.id, self.skillID, self.intent, self.deadline, self.view) = (id, skillID, intent, deadline, view)
        (self.onProgress, self.onComplete) = (onProgress, onComplete)
        // The `skh_call`, then the intent, input and context, each NUL-terminated: one block, one
        // malloc per call (`free()` releases it through `call`).
        let header = MemoryLayout<skh_call>.stride
        var name = intent
        let (block, intentText, inputText, contextText) = name.withUTF8 { n in
            let block = malloc(header + n.count + input.count + context.count + 3)!
            var at = header
            func put(_ u: UnsafeRawBufferPointer) -> UnsafePointer<CChar> {
                let p = (block + at).assumingMemoryBound(to: CChar.self)
                if let base = u.baseAddress { UnsafeMutableRawPointer(p).copyMemory(from: base, byteCount: u.count) }
                p[u.count] = 0
                at += u.count + 1
                return UnsafePointer(p)
            }
            return (block, put(UnsafeRawBufferPointer(n)), put(input), put(context))
        }
        call = block.bindMemory(to: skh_call.self, capacity: 1)
        call.initialize(to: skh_call(
            struct_size: UInt32(MemoryLayout<skh_call>.size), reserved0: 0, call_id: id,
            intent: intentText, input_json: inputText, input_len: input.count,
            context_json: contextText, context_len: context.count,
            host: SkillServices.table, complete: slotComplete, host_data: nil))
        call.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
    }

    /// The slot behind a `skh_call` a skill passed back (nil for a call it made up).
    public static func from(_ call: UnsafePointer<skh_call>?) -> CallSlot? {
        guard let data = call?.pointee.host_data else { return nil }
        return Unmanaged<CallSlot>.fromOpaque(data).takeUnretainedValue()
    }

    /// Neither completed nor abandoned.
    public var isRunning: Bool { state.load(ordering: .acquiring) == Self.running }

    /// The skill's `complete` (also for a call its runner ends itself, e.g. a skill without invoke()).
    public func complete(status: Int32, result: UnsafePointer<CChar>?, length: Int, message: UnsafePointer<CChar>?) {
        var current = state.load(ordering: .acquiring)
        while true {
            let next: UInt8
            switch current {
            case Self.running: next = Self.completed
            case Self.abandoned: next = Self.completedLate
            default:
                SkillServices.handlers.misuse(self, .completedTwice)
                return
            }
            let (exchanged, original) = state.compareExchange(expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = original
        }
        if current == Self.running {
            let bytes = result.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: length) }
            onComplete(self, status, bytes, message)
        } else {
            SkillServices.handlers.misuse(self, .completedLate)
        }
        let finish = onFinish
        let last = pendingEvents.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
        retire()
        if last { finish?(false) }
    }

    /// The thread that called invoke() says it returned.
    public func invokeReturned() {
        if pendingEvents.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { onFinish?(true) }
    }

    /// What `abandon` found.
    public enum Abandoned: Sendable {
        /// This abandon gave up on the running call: a later completion is dropped.
        case now
        /// An earlier abandon did (a grace timer and an expired wait may both try); nothing changed.
        case already
        /// The completion won the race: it was (or is being) delivered.
        case completed
    }

    /// The caller gives up on the call: it is marked cancelled, and a later completion is dropped.
    public func abandon() -> Abandoned {
        cancelled.store(true, ordering: .relaxed)
        let (exchanged, original) = state.compareExchange(expected: Self.running, desired: Self.abandoned, ordering: .acquiringAndReleasing)
        if exchanged { return .now }
        return original == Self.completed ? .completed : .already
    }

    // MARK: - Retirement

    private static let ring = RetirementRing<CallSlot>()

    private func retire() {
        Self.ring.retire(self)?.free()
    }

    private func free() {
        let data = call.pointee.host_data
        call.deinitialize(count: 1)
        Glibc.free(call)  // the strings too (one block)
        if let data { Unmanaged<CallSlot>.fromOpaque(data).release() }
    }
}

/// `skh_call.complete` for every call either side makes.
private let slotComplete: @convention(c) (UnsafePointer<skh_call>?, Int32, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?) -> Void = {
    call, status, result, length, message in
    CallSlot.from(call)?.complete(status: status, result: result, length: length, message: message)
}
