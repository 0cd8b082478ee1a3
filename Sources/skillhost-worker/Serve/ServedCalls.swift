import Glibc
import SkillABI
import SkillCalls
import SkillLoading
import SkillWire
import Synchronization

/// The calls the host asked this worker for: each is a `CallSlot` (the call's memory and exactly-once
/// completion, shared with the host's in-process runtime) whose progress becomes `progress` frames and
/// whose completion becomes one `complete` frame. Thread-safe.
enum ServedCalls {
    /// Calls that have not completed yet, each at its `runningIndex` (a completed call's place is
    /// taken by the last one). A `cancel` frame, rare, finds its call by a scan: the list is kept for
    /// every call, so insert and removal stay O(1) without hashing ids.
    static let running = Mutex<[CallSlot]>([])

    /// The running call with this id, if any.
    static func runningCall(id: UInt64) -> CallSlot? {
        running.withLock { r in r.first { $0.id == id } }
    }

    /// A new call; `input` and `context` are copied.
    static func start(id: UInt64, intent: String, input: UnsafeBufferPointer<UInt8>, context: UnsafeBufferPointer<UInt8>,
                      deadline: CallDeadline, view: [String: [UInt8]]?) -> CallSlot {
        let slot = CallSlot(id: id, skillID: servedSkillID, intent: intent, input: UnsafeRawBufferPointer(input),
                            context: UnsafeRawBufferPointer(context), deadline: deadline, view: view,
                            onProgress: progress, onComplete: complete)
        running.withLock { r in
            slot.runningIndex = r.count
            r.append(slot)
        }
        return slot
    }

    private static func progress(_ slot: CallSlot, _ step: UInt32, _ total: UInt32, _ message: UnsafePointer<CChar>?) {
        var f = Line.frame(.progress)
        f.key(.id, number: slot.id)
        f.key(.step, number: step)
        f.key(.total, number: total)
        f.key(.message, text: message)
        channel.send(&f)
    }

    private static func complete(_ slot: CallSlot, _ status: Int32, _ result: UnsafeBufferPointer<UInt8>?, _ message: UnsafePointer<CChar>?) {
        var f = Line.frame(.complete)
        f.key(.id, number: slot.id)
        f.key(.status, number: status)
        f.key(.message, text: message)
        if let result {
            if JSONScan.isValid(result) {
                f.key(.result, rawJSON: result)
            } else {
                // Not JSON: passed on as text (repaired, for the message only) with why, so the host
                // reports a bad result — never a success, never a broken channel.
                f.key(.resultText); f.text(bytes: UnsafeBufferPointer(rebasing: result.prefix(4096)))
                f.key(.resultProblem)
                if let bad = UTF8Check.firstInvalidOffset(result) { f.quoted("is not valid UTF-8 (byte \(bad))") } else { f.quoted("is not JSON") }
            }
        } else {
            f.key(.result, literal: "null")
        }
        running.withLock { r in
            let last = r.removeLast()
            if last !== slot {
                r[slot.runningIndex] = last
                last.runningIndex = slot.runningIndex
            }
            slot.runningIndex = -1
        }
        channel.send(&f)
    }
}
