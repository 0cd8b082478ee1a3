internal import SkillABI
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One call as the SDK tracks it: the borrowed `skh_call`, its completion function, and whether it has
/// completed. Also used, with no call, for the ambient context of `setUp` and `healthCheck`.
///
/// Invariants: `complete` reaches the host at most once; no service touches the call after that. Service
/// calls hold `state` while they use the call pointer, and completion flips `state` first, so a service
/// call either finishes before the completion starts or sees `completed` and does not touch the call.
final class CallSession: Sendable {
    typealias CompleteFn = @convention(c) (UnsafePointer<skh_call>?, Int32, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?) -> Void

    private struct Borrowed: @unchecked Sendable {
        let call: UnsafePointer<skh_call>
        let complete: CompleteFn
    }

    let host: HostServices?
    private let borrowed: Borrowed?
    private let completed = Mutex(false)

    /// A session for a call (`call` and `complete` are valid until `complete` is called).
    init(host: HostServices?, call: UnsafePointer<skh_call>, complete: CompleteFn) {
        self.host = host
        self.borrowed = Borrowed(call: call, complete: complete)
    }

    /// An ambient session (no call).
    init(host: HostServices?) {
        self.host = host
        self.borrowed = nil
    }

    /// Runs `body` with the call pointer (nil for ambient sessions) unless the call has completed.
    private func withLiveCall<R: Sendable>(_ body: (UnsafePointer<skh_call>?) -> R) -> R? {
        guard let borrowed else { return body(nil) }
        return completed.withLock { done -> R? in done ? nil : body(borrowed.call) }
    }

    /// Completes the call once; later attempts return `false` and do nothing.
    @discardableResult
    func complete(status: Int32, json: [UInt8]?, message: String?) -> Bool {
        guard let borrowed else { return false }
        let first = completed.withLock { done -> Bool in
            if done { return false }
            done = true
            return true
        }
        guard first else { return false }
        func send(_ message: UnsafePointer<CChar>?) {
            if let json {
                // NUL-terminated as well as counted, in a buffer on the stack (small results: no malloc).
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: json.count + 1) { buffer in
                    json.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
                    buffer[json.count] = 0
                    borrowed.complete(borrowed.call, status, buffer.baseAddress, json.count, message)
                }
            } else {
                borrowed.complete(borrowed.call, status, nil, 0, message)
            }
        }
        if let message { message.withCString(send) } else { send(nil) }
        return true
    }

    var isCompleted: Bool { borrowed == nil ? false : completed.withLock { $0 } }

    // MARK: Services

    func log(_ level: LogLevel, _ message: String) {
        guard let host else { return }
        let sent = withLiveCall { call -> Bool in host.write(call, level, message); return true }
        if sent == nil { host.write(nil, level, message) }   // after completion: log without the call
    }

    func progress(step: UInt32, total: UInt32, message: String?) {
        guard let host, let progress = host.progress, borrowed != nil else { return }
        _ = withLiveCall { call -> Bool in
            if let message { message.withCString { progress(call, step, total, $0) } } else { progress(call, step, total, nil) }
            return true
        }
    }

    var isCancelled: Bool {
        guard borrowed != nil else { return false }
        guard let fn = host?.isCancelled else { return isCompleted }
        return withLiveCall { fn($0) != 0 } ?? true
    }

    /// Milliseconds left before the host stops waiting; nil without a deadline, a call, or the service.
    var millisecondsLeft: Int64? {
        guard let fn = host?.timeLeft, borrowed != nil else { return nil }
        let left = withLiveCall { fn($0) } ?? 0
        return left < 0 ? nil : left
    }

    func contextValue(_ key: String) -> [UInt8]? {
        guard let host, let get = host.contextGet else { return nil }
        return withLiveCall { call -> [UInt8]? in
            var length = 0
            guard let text = key.withCString({ get(call, $0, &length) }) else { return nil }
            let count = length > 0 ? length : strlen(text)
            let bytes = UnsafeRawBufferPointer(start: text, count: count).map { $0 }
            host.free?(text)
            return bytes
        } ?? nil
    }

    func setContextValue(_ key: String, json: [UInt8]) -> Bool {
        guard let host, let set = host.contextSet else { return false }
        return withLiveCall { call -> Bool in
            key.withCString { k in
                (json + [0]).withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { set(call, k, $0.baseAddress, json.count) == 0 }
                }
            }
        } ?? false
    }
}
