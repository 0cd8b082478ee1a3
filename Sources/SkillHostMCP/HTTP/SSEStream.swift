import SkillHostCore
import Synchronization

/// A `text/event-stream` response in progress (Server-Sent Events, one JSON-RPC message per `message`
/// event), written as HTTP chunks from any thread. The response head waits for the first write (or
/// `readerWaits`), and the last event goes out with the end in one write: a call answered at once is
/// one write of head, event and end (each separate small write cost the client a wake-up, or
/// milliseconds), and the reader thread, which learns of the end without waiting, is not signalled.
/// `end` closes it; after that (or once the client is gone) sends are dropped.
/// `peerClosed` runs once if the client goes away before the end (the reader thread sees the
/// connection close): a POST's stream then cancels its call.
final class SSEStream: Sendable {
    let connection: HTTPConnection
    private struct State {
        var ended = false
        var peerClosed: (@Sendable () -> Void)?
        /// The response head, until it is written.
        var head: [UInt8]
        /// The reader thread waits for the end (`readerWaits`), so `end` must signal it.
        var readerWaiting = false
    }
    private let state: Mutex<State>

    /// A stream whose response `head` has not been written yet.
    init(connection: HTTPConnection, head: [UInt8]) {
        self.connection = connection
        state = Mutex(State(head: head))
    }

    /// Called by the connection's reader thread before it waits for the end: false when the stream
    /// has already ended (nothing to wait for); else writes the response head if nothing has been
    /// written yet (the client learns at once that its request was accepted) and makes `end` signal
    /// the reader (`HTTPConnection.signalStreamEnded`).
    func readerWaits() -> Bool {
        state.withLock { s in
            guard !s.ended else { return false }
            if !s.head.isEmpty {
                connection.write(s.head)
                s.head = []
            }
            s.readerWaiting = true
            return true
        }
    }

    /// Sets what to do if the client goes away before the end.
    func onPeerClosed(_ action: @escaping @Sendable () -> Void) { state.withLock { $0.peerClosed = action } }

    /// One `message` event carrying `message`.
    func send(_ message: JSON) { write(Self.chunk(Self.event(message))) }


    /// A comment line (ignored by clients; keeps proxies from timing out an idle stream).
    func comment(_ text: String) { write(Self.chunk(Array(": \(text)\n\n".utf8))) }

    /// Ends the stream, after `last` when given (one write), and tells the reader thread if it waits;
    /// later calls do nothing.
    func end(after last: RPCMessage? = nil) {
        let signal = state.withLock { s -> Bool in
            guard !s.ended else { return false }
            s.ended = true
            var bytes = s.head
            s.head = []
            if let last { bytes += Self.chunk(Self.event(last.bytes)) }
            connection.write(bytes + Array("0\r\n\r\n".utf8))
            return s.readerWaiting
        }
        if signal { connection.signalStreamEnded() }
    }

    /// The client went away: runs the `onPeerClosed` action once, unless the stream had ended.
    func peerWentAway() {
        let action = state.withLock { s -> (@Sendable () -> Void)? in
            guard !s.ended else { return nil }
            s.ended = true
            defer { s.peerClosed = nil }
            return s.peerClosed
        }
        action?()
    }

    /// Writes `bytes`, after the head if it is still pending, under the stream's lock, so nothing
    /// follows the end.
    private func write(_ bytes: [UInt8]) {
        state.withLock { s in
            guard !s.ended else { return }
            let head = s.head
            s.head = []
            connection.write(head.isEmpty ? bytes : head + bytes)
        }
    }

    static func event(_ message: JSON) -> [UInt8] { event(message.bytes) }

    /// An SSE event carrying one message's JSON text.
    static func event(_ text: [UInt8]) -> [UInt8] {
        Array("event: message\ndata: ".utf8) + text + [0x0a, 0x0a]
    }

    static func chunk(_ payload: [UInt8]) -> [UInt8] {
        Array(String(payload.count, radix: 16).utf8) + [0x0d, 0x0a] + payload + [0x0d, 0x0a]
    }
}
