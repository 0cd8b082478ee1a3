internal import SkillABI
import Foundation

/// The fields of a host's `skh_call`, read with `struct_size` checks (a field beyond the size the host
/// declared reads as absent). Only valid while the call is: copy what outlives it.
struct CallView {
    let intent: UnsafePointer<CChar>?
    let inputJSON: UnsafePointer<CChar>?
    let inputLength: Int
    let contextJSON: UnsafePointer<CChar>?
    let contextLength: Int
    let host: UnsafePointer<skh_host>?
    let complete: CallSession.CompleteFn?

    private static let offsets = (
        intent: MemoryLayout<skh_call>.offset(of: \.intent)!,
        input: MemoryLayout<skh_call>.offset(of: \.input_json)!,
        inputLength: MemoryLayout<skh_call>.offset(of: \.input_len)!,
        context: MemoryLayout<skh_call>.offset(of: \.context_json)!,
        contextLength: MemoryLayout<skh_call>.offset(of: \.context_len)!,
        host: MemoryLayout<skh_call>.offset(of: \.host)!,
        complete: MemoryLayout<skh_call>.offset(of: \.complete)!)

    init(_ call: UnsafePointer<skh_call>) {
        let raw = UnsafeRawPointer(call)
        let size = Int(raw.load(as: UInt32.self))   // struct_size is the first field
        func field<T>(_ offset: Int, _: T.Type) -> T? {
            offset + MemoryLayout<T>.size <= size ? raw.load(fromByteOffset: offset, as: T.self) : nil
        }
        let o = Self.offsets
        intent = field(o.intent, UnsafePointer<CChar>?.self) ?? nil
        inputJSON = field(o.input, UnsafePointer<CChar>?.self) ?? nil
        inputLength = field(o.inputLength, Int.self) ?? 0
        contextJSON = field(o.context, UnsafePointer<CChar>?.self) ?? nil
        contextLength = field(o.contextLength, Int.self) ?? 0
        host = field(o.host, UnsafePointer<skh_host>?.self) ?? nil
        complete = field(o.complete, CallSession.CompleteFn?.self) ?? nil
    }

    /// The `length` bytes at `text` (all of it up to the NUL when `length` is 0), borrowed; `nil` when
    /// there are none.
    static func borrow(_ text: UnsafePointer<CChar>?, _ length: Int) -> UnsafeRawBufferPointer? {
        guard let text else { return nil }
        let count = length > 0 ? length : strlen(text)
        return count == 0 ? nil : UnsafeRawBufferPointer(start: text, count: count)
    }

    /// A copy of `length` bytes at `text` (all of it up to the NUL when `length` is 0), or `nil`.
    static func copy(_ text: UnsafePointer<CChar>?, _ length: Int) -> [UInt8]? {
        borrow(text, length).map { Array($0) }
    }
}
