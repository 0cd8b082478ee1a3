/// How a request's body is framed, as its head says (RFC 9112 §6.3).
enum HTTPBodyFraming: Sendable, Equatable {
    /// `Content-Length: n` (or no body: 0).
    case length(Int)
    /// `Transfer-Encoding: chunked`.
    case chunked
}

/// Reads one request's body from the connection's buffer as its bytes arrive, whichever framing the
/// head chose. The buffer holds the whole request from its first byte; the body starts at `start`.
///
/// A chunked body (RFC 9112 §7.1) is decoded here: chunk sizes in hex, chunk extensions ignored,
/// trailer fields read and dropped. The body limit holds twice: over the decoded bytes and over the
/// bytes on the wire (sizes, extensions, CRLFs and trailers count), so framing cannot be used to make
/// the server read more than a `Content-Length` body may be. A size line longer than `maxSizeLine`,
/// a size that is not hex, a chunk not followed by CRLF, a line ended by a bare LF: 400; a body or
/// its wire form over `maxBody`: 413; trailers over `maxTrailers` bytes: 431.
struct HTTPBodyReader {
    static let maxSizeLine = 4096

    private let start: Int
    private let maxBody: Int
    private let maxTrailers: Int
    private let framing: HTTPBodyFraming
    /// Chunked only: what comes next, the decoded bytes so far and where the next unread byte is.
    private var state = State.sizeLine
    private var body: [UInt8] = []
    private var position: Int

    private enum State {
        case sizeLine
        /// Inside a chunk: this many bytes of its data still to come.
        case data(Int)
        /// After a chunk's data: its CRLF.
        case dataEnd
        /// After the last chunk: trailer lines until an empty one; this many trailer bytes so far.
        case trailers(Int)
    }

    init(_ framing: HTTPBodyFraming, start: Int, maxBody: Int, maxTrailers: Int) {
        (self.framing, self.start, self.maxBody, self.maxTrailers, position) = (framing, start, maxBody, maxTrailers, start)
    }

    /// The whole body and the index just past it in `buffer` once all of it is there; nil while more
    /// must arrive. Throws when the body is malformed or too large (then the connection is closed).
    mutating func read(_ buffer: [UInt8]) throws(HTTPRequestError) -> (body: [UInt8], end: Int)? {
        switch framing {
        case .length(let n):
            return buffer.count >= start + n ? (Array(buffer[start..<(start + n)]), start + n) : nil
        case .chunked:
            while true {
                guard let step = try advance(buffer) else { return nil }
                if step { return (body, position) }
            }
        }
    }

    /// Moves one state on: true when the body ended, false when a step was made, nil when `buffer`
    /// has no more to go on with.
    private mutating func advance(_ buffer: [UInt8]) throws(HTTPRequestError) -> Bool? {
        switch state {
        case .sizeLine:
            guard let line = try self.line(buffer, limit: Self.maxSizeLine, what: "chunk size line") else { return nil }
            let size = try Self.chunkSize(buffer[line])
            guard size <= maxBody - body.count else {
                throw HTTPRequestError(413, "Content Too Large: the chunked body is over \(maxBody) bytes (a chunk of \(size) after \(body.count)); this server accepts at most \(maxBody)")
            }
            state = size == 0 ? .trailers(0) : .data(size)
        case .data(let left):
            let n = min(left, buffer.count - position)
            guard n > 0 else { return nil }
            body.append(contentsOf: buffer[position..<(position + n)])
            position += n
            state = n == left ? .dataEnd : .data(left - n)
        case .dataEnd:
            guard buffer.count - position >= 2 else { return nil }
            guard buffer[position] == 0x0d && buffer[position + 1] == 0x0a else {
                throw HTTPRequestError(400, "Bad Request: a chunk's data is not followed by CRLF (the chunk is longer than its size line said, found \(Self.shown(buffer[position..<min(buffer.count, position + 8)])))")
            }
            position += 2
            state = .sizeLine
        case .trailers(let seen):
            guard let line = try self.line(buffer, limit: maxTrailers - seen, what: "trailer section", status: 431) else { return nil }
            if line.isEmpty { return true }
            guard seen + line.count + 2 <= maxTrailers else { throw Self.overlong("trailer section", maxTrailers, 431) }
            state = .trailers(seen + line.count + 2)
        }
        try checkWire()
        return false
    }

    /// The next line in `buffer` (without its CRLF; `position` moves past it), nil while it has not
    /// all come. A line must end with CRLF and stay within `limit` bytes.
    private mutating func line(_ buffer: [UInt8], limit: Int, what: String, status: Int = 400) throws(HTTPRequestError) -> Range<Int>? {
        var i = position
        while i < buffer.count && buffer[i] != 0x0a { i += 1 }
        guard i < buffer.count else {
            if buffer.count - position > limit { throw Self.overlong(what, limit, status) }
            return nil
        }
        guard i > position, buffer[i - 1] == 0x0d else {
            throw HTTPRequestError(400, "Bad Request: a \(what) in the chunked body ends with a bare LF; expected CRLF")
        }
        if i - 1 - position > limit { throw Self.overlong(what, limit, status) }
        defer { position = i + 1 }
        return position..<(i - 1)
    }

    private static func overlong(_ what: String, _ limit: Int, _ status: Int) -> HTTPRequestError {
        status == 431
            ? HTTPRequestError(431, "Request Header Fields Too Large: the chunked body's trailers are over \(limit) bytes")
            : HTTPRequestError(400, "Bad Request: a \(what) in the chunked body is longer than \(limit) bytes")
    }

    private func checkWire() throws(HTTPRequestError) {
        if position - start > maxBody {
            throw HTTPRequestError(413, "Content Too Large: the chunked body takes over \(maxBody) bytes on the wire (sizes, extensions and CRLFs count); this server accepts at most \(maxBody)")
        }
    }

    /// The size of a chunk-size line: hex digits, then optional whitespace and `;` extensions (ignored).
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
        var size = 0, digits = 0
        var i = line.startIndex
        while i < line.endIndex, let d = hexValue(line[i]) {
            guard digits < 15 else {
                throw HTTPRequestError(400, "Bad Request: chunk size \(shown(line.prefix(24))) has too many digits (at most 15 hex digits)")
            }
            size = size << 4 | d
            digits += 1
            i += 1
        }
        while i < line.endIndex && (line[i] == 0x20 || line[i] == 0x09) { i += 1 }
        guard digits > 0, i == line.endIndex || line[i] == 0x3b else {
            throw HTTPRequestError(400, "Bad Request: chunk size line \(shown(line.prefix(40))) is not a hex size (expected e.g. \"1a\" or \"1a;name=value\", then CRLF)")
        }
        return size
    }

    private static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        default: return nil
        }
    }

    /// Bytes from the wire, quoted for a message (control characters escaped).
    static func shown(_ bytes: ArraySlice<UInt8>) -> String {
        var s = "\""
        for b in bytes {
            switch b {
            case 0x0d: s += "\\r"
            case 0x0a: s += "\\n"
            case 0x20...0x7e where b != 0x22 && b != 0x5c: s.unicodeScalars.append(Unicode.Scalar(b))
            default: s += "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
            }
        }
        return s + "\""
    }
}
