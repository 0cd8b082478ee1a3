import Glibc
import SkillHostCore
import Synchronization

/// One accepted TCP connection: whole responses and streamed ones written from any thread (one at a
/// time, under a lock, with `MSG_NOSIGNAL` so a client gone away is an error, never SIGPIPE), and the
/// descriptor the connection's reader thread waits on to learn that a streamed response has ended.
final class HTTPConnection: Sendable {
    let fd: Int32
    /// Readable when a streamed response has ended (a pipe the reader thread polls beside the socket).
    let streamEnded: Int32
    private let streamEndedWriter: Int32
    private struct State {
        var broken = false
        /// The request being answered asked to keep the connection open.
        var keepAlive = true
        /// The streamed response of the request being answered (weak: the stream holds the connection).
        weak var stream: SSEStream?
    }
    private let state = Mutex(State())

    init(fd: Int32) {
        self.fd = fd
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for e in ends { _ = fcntl(e, F_SETFD, FD_CLOEXEC) }
        }
        (streamEnded, streamEndedWriter) = (ends[0], ends[1])
    }

    deinit {
        close(fd)
        if streamEnded >= 0 { close(streamEnded); close(streamEndedWriter) }
    }

    /// Whether the connection stays open after the current response.
    var keepAlive: Bool {
        get { state.withLock { $0.keepAlive && !$0.broken } }
        set { state.withLock { $0.keepAlive = newValue } }
    }

    /// A new request is being answered: whether the connection stays open after it (forgets the
    /// stream of the one before).
    func begin(keepAlive: Bool) { state.withLock { $0.keepAlive = keepAlive; $0.stream = nil } }

    /// Writes all of `bytes`; false (and the connection is broken from then on) when the client is gone
    /// or stopped reading for the send timeout.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        state.withLock { s in
            guard !s.broken else { return false }
            var sent = 0
            while sent < bytes.count {
                let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { s.broken = true; return false }
                sent += n
            }
            return true
        }
    }

    /// Sends a whole response with `body` (Content-Length framing).
    func respond(_ status: Int, _ headers: [(String, String)] = [], body: [UInt8] = []) {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Length: \(body.count)\r\n"
        for (n, v) in headers { head += "\(n): \(v)\r\n" }
        if !keepAlive { head += "Connection: close\r\n" }
        write(Array((head + "\r\n").utf8) + body)
    }

    /// Starts a `text/event-stream` response (chunked, so the connection can serve another request
    /// after it ends). Its head goes out with the stream's first write, or at `SSEStream.readerWaits`
    /// (so a call answered at once is one write: head, event and end).
    func startStream(_ headers: [(String, String)]) -> SSEStream {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache, no-transform\r\nX-Accel-Buffering: no\r\nTransfer-Encoding: chunked\r\n"
        for (n, v) in headers { head += "\(n): \(v)\r\n" }
        if !keepAlive { head += "Connection: close\r\n" }
        let stream = SSEStream(connection: self, head: Array((head + "\r\n").utf8))
        state.withLock { $0.stream = stream }
        return stream
    }

    /// The streamed response of the request being answered, if one started (for the thread that
    /// takes over a held reader).
    var stream: SSEStream? { state.withLock { $0.stream } }

    /// Tells the reader thread that the streamed response is over.
    func signalStreamEnded() {
        var one: UInt8 = 1
        _ = Glibc.write(streamEndedWriter, &one, 1)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 421: return "Misdirected Request"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
