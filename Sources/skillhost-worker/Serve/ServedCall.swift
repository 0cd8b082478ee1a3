import Dispatch
import Glibc
import SkillABI
import SkillWire
import Synchronization

/// One call the host asked for: owns the `skh_call` the skill sees and turns its completion into a
/// `complete` frame.
///
/// Ownership (the same rules as the host's in-process `CallTicket`): the object is retained through
/// `host_data` from `invoke` until the skill completes; the `skh_call` and its strings stay
/// allocated until then, and afterwards in a retirement ring of 256 calls, so that a second
/// `complete` on the same call is detected (and reported to the host as a log line) instead of
/// touching freed memory. A call its skill never completes is leaked on purpose; the host kills a
/// worker whose call overran its deadline anyway.
/// Threading: `complete`, `cancel` and the services may run on any thread.
final class ServedCall: @unchecked Sendable {
    let id: UInt64
    let call: UnsafeMutablePointer<skh_call>
    let intent: String
    let cancelled = Atomic<Bool>(false)
    /// When the host stops waiting (for `time_left_ms`).
    let deadline: CallDeadline
    /// Context-store entries this call reads before the worker's copy of the shared store.
    let view: [String: [UInt8]]?
    private let completed = Atomic<Bool>(false)
    /// Counts down "invoke() returned" and "completed"; `onFinish` runs when both happened (a
    /// serialized skill's next call may start then).
    private let pendingEvents = Atomic<Int>(2)
    /// Set before invoke(); runs once, on the thread of the later of the two events: `true` when that
    /// is the thread that called invoke() (the reader), `false` when it is the skill's completing thread.
    nonisolated(unsafe) var onFinish: ((_ onInvokingThread: Bool) -> Void)?

    /// Calls that have not completed yet, by id (for `cancel` frames).
    static let running = Mutex<[UInt64: ServedCall]>([:])

    /// `input` and `context` are copied (NUL-terminated) into memory the call owns.
    init(id: UInt64, intent: String, input: UnsafeBufferPointer<UInt8>, context: UnsafeBufferPointer<UInt8>,
         deadline: CallDeadline, view: [String: [UInt8]]? = nil, host: UnsafePointer<skh_host>) {
        self.id = id
        self.deadline = deadline
        self.view = view
        self.intent = intent
        func copy(_ u: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<CChar> {
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: u.count + 1)
            if let base = u.baseAddress {
                UnsafeMutableRawPointer(p).copyMemory(from: base, byteCount: u.count)
            }
            p[u.count] = 0
            return p
        }
        let inputCopy = copy(input)
        let contextCopy = copy(context)
        call = .allocate(capacity: 1)
        call.initialize(to: skh_call(
            struct_size: UInt32(MemoryLayout<skh_call>.size), reserved0: 0, call_id: id,
            intent: UnsafePointer(strdup(intent)), input_json: UnsafePointer(inputCopy), input_len: input.count,
            context_json: UnsafePointer(contextCopy), context_len: context.count,
            host: host, complete: servedComplete, host_data: nil))
        call.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
        Self.running.withLock { $0[id] = self }
    }

    static func from(_ call: UnsafePointer<skh_call>?) -> ServedCall? {
        guard let data = call?.pointee.host_data else { return nil }
        return Unmanaged<ServedCall>.fromOpaque(data).takeUnretainedValue()
    }

    var isCompleted: Bool { completed.load(ordering: .acquiring) }

    /// The skill's `complete`: the first one becomes a `complete` frame; a second one a warning.
    func complete(status: Int32, result: UnsafePointer<CChar>?, length: Int, message: UnsafePointer<CChar>?) {
        guard completed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            var f = Line.frame(.log)
            f.key("id"); f.number(id)
            f.key("level"); f.number(SKH_LOG_WARNING)
            // Machine-readable too, so the host can count it (`skillhost validate`'s exactly-once check).
            f.key("event"); f.quoted("complete_twice")
            f.key("intent"); f.quoted(intent)
            f.key("message")
            f.quoted("called complete twice for one \(intent) call; the second completion was ignored (a bug in the skill)")
            channel.send(f)
            return
        }
        var f = Line.frame(.complete)
        f.key("id"); f.number(id)
        f.key("status"); f.number(status)
        f.key("message"); f.text(message)
        if let result {
            let u = UnsafeBufferPointer(start: UnsafeRawPointer(result).assumingMemoryBound(to: UInt8.self), count: length)
            if JSONScan.isValid(u) {
                f.key("result"); f.rawJSON(u)
            } else {
                // Not JSON: passed on as text (repaired, for the message only) with why, so the host
                // reports a bad result — never a success, never a broken channel.
                f.key("resultText"); f.text(bytes: UnsafeBufferPointer(rebasing: u.prefix(4096)))
                f.key("resultProblem")
                if let bad = UTF8Check.firstInvalidOffset(u) { f.quoted("is not valid UTF-8 (byte \(bad))") } else { f.quoted("is not JSON") }
            }
        } else {
            f.key("result"); f.raw("null")
        }
        _ = Self.running.withLock { $0.removeValue(forKey: id) }
        channel.send(f)
        let finish = onFinish
        let last = pendingEvents.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
        retire()
        if last { finish?(false) }
    }

    /// The thread that called invoke() says it returned.
    func invokeReturned() {
        if pendingEvents.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { onFinish?(true) }
    }

    // MARK: - Retirement

    private static let ring = RetirementRing<ServedCall>()

    /// Puts this call in the retirement ring (see `RetirementRing`); the one it displaces is freed.
    private func retire() {
        Self.ring.retire(self)?.free()
    }

    private func free() {
        Glibc.free(UnsafeMutableRawPointer(mutating: call.pointee.intent))
        UnsafeMutablePointer(mutating: call.pointee.input_json)?.deallocate()
        UnsafeMutablePointer(mutating: call.pointee.context_json)?.deallocate()
        let data = call.pointee.host_data
        call.deinitialize(count: 1)
        call.deallocate()
        if let data { Unmanaged<ServedCall>.fromOpaque(data).release() }
    }
}

/// `skh_call.complete` for every call this worker makes.
private let servedComplete: @convention(c) (UnsafePointer<skh_call>?, Int32, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?) -> Void = {
    call, status, result, length, message in
    ServedCall.from(call)?.complete(status: status, result: result, length: length, message: message)
}
