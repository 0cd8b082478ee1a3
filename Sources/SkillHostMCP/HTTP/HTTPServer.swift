import Glibc
import SkillHostCore
import SkillWire
import Synchronization

/// A small HTTP/1.1 server on Glibc sockets: one thread accepts, one thread per connection reads its
/// requests (keep-alive, `Content-Length` and chunked bodies, `HTTPBodyReader`) and hands each whole request to the handler, which
/// answers at once or starts a streamed response that any thread may finish later. A call may start on
/// the reader's thread (`MCPHTTPTransport`); one that holds it hands the reading on (`ReaderRelay`,
/// `serveConnection`). While a stream is open the reader waits on the socket to learn whether the
/// client went away, and sends a keep-alive comment every 15 s.
///
/// Limits (each answered with its status, then the connection is closed): a head over `maxHead`
/// bytes (431), a body over `maxBody` decoded or on the wire (413), a malformed head or chunked body
/// (400), a transfer coding other than chunked (501), a head not complete within
/// `headTimeout` seconds of its first byte or a body within `bodyTimeout` (408, against slow-sending
/// clients); an idle keep-alive connection is closed after `idleTimeout`; over `maxConnections` open
/// connections a new one gets 503.
public final class HTTPServer: Sendable {
    public struct Limits: Sendable {
        public var maxHead = 16 << 10
        public var maxBody = 4 << 20
        public var headTimeout = 10.0
        public var bodyTimeout = 30.0
        public var idleTimeout = 120.0
        public var sendTimeout = 30
        public var maxConnections = 512
        public init() {}
    }

    /// What the handler did with a request.
    enum Handled {
        /// A whole response was sent.
        case responded
        /// A streamed response was started; the reader waits for its end (or the client's leaving).
        case streaming(SSEStream)
    }

    let listener: Int32
    /// "HOST:PORT" as bound (the port the kernel picked for port 0).
    public let boundHost: String
    public let boundPort: Int
    let limits: Limits
    private let open = Atomic<Int>(0)

    /// Binds `host` (a name or numeric address; IPv6 without brackets) and `port` (0: a free one).
    public init(host: String, port: Int, limits: Limits = Limits()) throws(HTTPServerError) {
        self.limits = limits
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw HTTPServerError("cannot resolve the address \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var fd: Int32 = -1
        var lastError = "no address"
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            if fd >= 0 {
                var one: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
                if bind(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 && listen(fd, 128) == 0 { break }
                lastError = String(cString: strerror(errno))
                close(fd)
                fd = -1
            }
            ai = a.pointee.ai_next
        }
        guard fd >= 0 else { throw HTTPServerError("cannot listen on \(host):\(port): \(lastError)") }
        listener = fd
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        var name = [CChar](repeating: 0, count: Int(NI_MAXHOST)), service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        _ = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, len, &name, socklen_t(name.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        boundHost = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        boundPort = Int(String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? port
    }

    /// Accepts connections on the calling thread until SIGINT or SIGTERM (`stopOnSignals`), each served
    /// on a thread of its own by `handler`.
    func serve(_ handler: @escaping @Sendable (HTTPRequest, HTTPConnection) -> Handled) {
        while !stopped {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if stopped { break }
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno == EMFILE || errno == ENFILE { usleep(100_000); continue }
                break
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var timeout = timeval(tv_sec: limits.sendTimeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let connection = HTTPConnection(fd: fd)
            if open.wrappingAdd(1, ordering: .relaxed).newValue > limits.maxConnections {
                connection.keepAlive = false
                connection.respond(503, [("Content-Type", "text/plain")], body: Array("Service Unavailable: too many open connections\n".utf8))
                open.wrappingSubtract(1, ordering: .relaxed)
                continue
            }
            let started = startDetachedThread { [self] in
                serveConnection(connection, handler, ended: { [self] in open.wrappingSubtract(1, ordering: .relaxed) })
            }
            if !started { open.wrappingSubtract(1, ordering: .relaxed) }
        }
    }

    /// Makes SIGINT and SIGTERM stop `serve`, whichever thread of the process they land on. The handler
    /// does only what is async-signal-safe: an atomic store and shutdown(2) of the listener, which ends
    /// a blocked accept(2). (A Dispatch signal source is not enough on Linux: a signal delivered to a
    /// thread that does not block it never reaches the source's signalfd.) Call once, before `serve`.
    public func stopOnSignals() {
        signalListener = listener
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            signalStopped.store(true, ordering: .relaxed)
            if signalListener >= 0 { shutdown(signalListener, Int32(SHUT_RDWR)) }
        }
        sigemptyset(&action.sa_mask)
        for sig in [SIGINT, SIGTERM] { sigaction(sig, &action, nil) }
    }

    private var stopped: Bool { signalStopped.load(ordering: .relaxed) }

    // MARK: - One connection

    /// Serves `connection`'s requests until it closes. The handler runs on this thread (a call may
    /// start here, `MCPHTTPTransport`); one that holds it (a trusted skill whose `invoke()` blocks)
    /// hands the connection on (`ReaderRelay`): a new thread waits for the streamed response's end,
    /// sending keep-alive comments and watching for the client's leaving, then serves the next
    /// requests, and this thread ends once the handler returns. `ended` runs once, when the
    /// connection is done with (whichever thread serves it then).
    private func serveConnection(_ connection: HTTPConnection, _ handler: @escaping @Sendable (HTTPRequest, HTTPConnection) -> Handled,
                                 _ buffer: ReadBuffer = ReadBuffer(), after held: SSEStream? = nil, ended: @escaping @Sendable () -> Void) {
        var handedOn = false
        defer { if !handedOn { ended() } }
        if let held {
            guard waitForEnd(of: held, connection, pipelined: !buffer.bytes.isEmpty), connection.keepAlive else { return }
        }
        while true {
            let request: HTTPRequest
            switch readRequest(connection.fd, &buffer.bytes) {
            case nil: return
            case .failure(let e)?:
                connection.keepAlive = false
                connection.respond(e.status, [("Content-Type", "text/plain; charset=utf-8")], body: Array((e.message + "\n").utf8))
                return
            case .success(let r)?: request = r
            }
            connection.begin(keepAlive: request.keepAlive)
            var handled = Handled.responded
            let stillReading = ReaderRelay.shared.run({ handled = handler(request, connection) }, takeOver: { [self] in
                // A held handler with a stream (a call): the new thread waits for its end, then reads on.
                // Without one (any request whose handler took long, answering whole): the connection
                // closes after that answer, and counts as ended from now.
                guard let stream = connection.stream else {
                    connection.keepAlive = false
                    return ended()
                }
                serveConnection(connection, handler, buffer, after: stream, ended: ended)
            })
            guard stillReading else {
                handedOn = true
                return
            }
            if case .streaming(let stream) = handled {
                guard waitForEnd(of: stream, connection, pipelined: !buffer.bytes.isEmpty) else { return }
            }
            guard connection.keepAlive else { return }
        }
    }

    /// The bytes read from a connection and not yet used (the start of the next request). Touched by
    /// the connection's one reader thread at a time (`ReaderRelay` orders a hand-over).
    final class ReadBuffer: @unchecked Sendable {
        var bytes: [UInt8] = []
    }

    /// Waits until `stream` ends (true) or the client goes away (false; the stream hears of it); a
    /// stream that ended while the handler ran (a call answered at once) needs no wait.
    private func waitForEnd(of stream: SSEStream, _ connection: HTTPConnection, pipelined: Bool) -> Bool {
        guard stream.readerWaits() else { return true }
        var watchSocket = !pipelined
        while true {
            var fds = [pollfd(fd: connection.streamEnded, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: watchSocket ? connection.fd : -1, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, 15_000)
            if n < 0 && errno == EINTR { continue }
            if n == 0 { stream.comment("keep-alive"); continue }
            if fds[0].revents != 0 {
                var value: UInt8 = 0
                _ = read(connection.streamEnded, &value, 1)
                return true
            }
            if fds[1].revents != 0 {
                var byte: UInt8 = 0
                let r = recv(connection.fd, &byte, 1, Int32(MSG_PEEK))
                if r > 0 { watchSocket = false; continue }  // the next request, pipelined: read after the end
                if r < 0 && errno == EINTR { continue }
                stream.peerWentAway()
                return false
            }
        }
    }

    /// The next request on `fd` (bytes past it stay in `buffer`); nil when the client closed the
    /// connection or left it idle for `idleTimeout`.
    private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> Result<HTTPRequest, HTTPRequestError>? {
        var deadline = HTTPServer.now() + (buffer.isEmpty ? limits.idleTimeout : limits.headTimeout)
        var waitingForFirstByte = buffer.isEmpty
        var head: (request: HTTPRequest, body: HTTPBodyReader)?
        while true {
            if head == nil, let end = HTTPRequestParser.headEnd(buffer) {
                guard end <= limits.maxHead else {
                    return .failure(HTTPRequestError(431, "Request Header Fields Too Large: the request head is over \(limits.maxHead) bytes"))
                }
                do {
                    let (r, framing) = try HTTPRequestParser.parseHead(buffer[..<end], maxBody: limits.maxBody)
                    let body = HTTPBodyReader(framing, start: end, maxBody: limits.maxBody, maxTrailers: limits.maxHead)
                    head = (r, body)
                    if r.header("expect")?.lowercased() == "100-continue" && framing != .length(0) && buffer.count <= end {  // no byte of the body yet
                        _ = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    }
                    deadline = HTTPServer.now() + limits.bodyTimeout
                } catch { return .failure(error) }
            }
            if head == nil && buffer.count > limits.maxHead {
                return .failure(HTTPRequestError(431, "Request Header Fields Too Large: the request head is over \(limits.maxHead) bytes"))
            }
            if head != nil {
                do {
                    if let (body, end) = try head!.body.read(buffer) {
                        var r = head!.request
                        r.body = body
                        buffer.removeFirst(end)
                        return .success(r)
                    }
                } catch { return .failure(error) }
            }
            let remaining = deadline - HTTPServer.now()
            if remaining <= 0 {
                if waitingForFirstByte { return nil }
                return .failure(HTTPRequestError(408, "Request Timeout: the request did not arrive in time (\(head == nil ? "head within \(Int(limits.headTimeout)) s" : "body within \(Int(limits.bodyTimeout)) s"))"))
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&p, 1, Int32(min(remaining * 1000 + 1, 60_000)))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { return nil }
            buffer.append(contentsOf: chunk[..<got])
            if waitingForFirstByte {
                waitingForFirstByte = false
                deadline = HTTPServer.now() + limits.headTimeout
            }
        }
    }

    static func now() -> Double { MCPSession.monotonicSeconds() }
}

/// The server could not start (the address, the port).
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What `HTTPServer.stopOnSignals`' handler reaches: set before the handler is installed, then only read.
nonisolated(unsafe) private var signalListener: Int32 = -1
private let signalStopped = Atomic<Bool>(false)
