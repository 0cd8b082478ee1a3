/// Reads a request's head (request line and headers, up to the blank line) and says how its body is
/// framed (RFC 9112 §6.3): `Content-Length` (one longer than the limit: 413) or `Transfer-Encoding:
/// chunked` (decoded by `HTTPBodyReader`). Refused, each with a message saying what was wrong: both
/// headers at once (400: the request-smuggling shape), a transfer coding other than chunked (501),
/// `Transfer-Encoding` on HTTP/1.0 (400), and an HTTP/1.1 request without exactly one `Host` (400).
enum HTTPRequestParser {
    /// The index just past the "\r\n\r\n" ending the head in `buffer`, or nil when it has not come yet.
    static func headEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var i = 3
        while i < buffer.count {
            if buffer[i] == 0x0a && buffer[i - 1] == 0x0d && buffer[i - 2] == 0x0a && buffer[i - 3] == 0x0d { return i + 1 }
            i += 1
        }
        return nil
    }

    /// Parses the head `bytes` (without the final blank line's CRLF needed) into a request with an
    /// empty body, and how its body is framed (a length checked against `maxBody`).
    static func parseHead(_ bytes: ArraySlice<UInt8>, maxBody: Int) throws(HTTPRequestError) -> (HTTPRequest, body: HTTPBodyFraming) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw HTTPRequestError(400, "Bad Request: the request head is not UTF-8")
        }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw HTTPRequestError(400, "Bad Request: no request line") }
        let parts = first.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[1].hasPrefix("/") || parts[1] == "*" else {
            throw HTTPRequestError(400, "Bad Request: expected a request line \"METHOD /path HTTP/1.1\", found \"\(first.prefix(80))\"")
        }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            throw HTTPRequestError(505, "HTTP Version Not Supported: expected HTTP/1.1 or HTTP/1.0, found \(parts[2].prefix(20))")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  !line[..<colon].contains(where: { $0 == " " || $0 == "\t" }) else {
                throw HTTPRequestError(400, "Bad Request: malformed header line \"\(line.prefix(80))\" (expected \"Name: value\")")
            }
            headers.append((String(line[..<colon]).lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: " \t")))
        }
        let request = HTTPRequest(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers)
        if request.version == "HTTP/1.1" {
            let hosts = headers.filter { $0.name == "host" }
            guard hosts.count == 1 else {
                throw HTTPRequestError(400, hosts.isEmpty ? "Bad Request: an HTTP/1.1 request needs a Host header (e.g. Host: 127.0.0.1:8080)"
                                                         : "Bad Request: \(hosts.count) Host headers; send exactly one")
            }
        }
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        if let codings = request.header("transfer-encoding") {
            guard lengths.isEmpty else {
                throw HTTPRequestError(400, "Bad Request: both Content-Length and Transfer-Encoding are set, so the body's end is ambiguous (the request-smuggling shape); send one of them")
            }
            guard request.version == "HTTP/1.1" else {
                throw HTTPRequestError(400, "Bad Request: Transfer-Encoding on an HTTP/1.0 request; send Content-Length, or use HTTP/1.1")
            }
            let list = codings.split(separator: ",").map { $0.trimmingCharacters(in: " \t").lowercased() }
            guard list == ["chunked"] else {
                if list.filter({ $0 == "chunked" }).count > 1 {
                    throw HTTPRequestError(400, "Bad Request: Transfer-Encoding \"\(codings.prefix(60))\" applies chunked more than once")
                }
                throw HTTPRequestError(501, "Not Implemented: Transfer-Encoding \"\(codings.prefix(60))\"; this server decodes chunked only (send the body chunked or with Content-Length)")
            }
            return (request, .chunked)
        }
        var length = 0
        if let l = lengths.first {
            guard Set(lengths).count == 1, !l.isEmpty, l.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(l) else {
                throw HTTPRequestError(400, "Bad Request: Content-Length must be one whole number, found \"\(lengths.joined(separator: ", ").prefix(40))\"")
            }
            length = n
        }
        guard length <= maxBody else {
            throw HTTPRequestError(413, "Content Too Large: the body is \(length) bytes; this server accepts at most \(maxBody)")
        }
        return (request, .length(length))
    }
}
