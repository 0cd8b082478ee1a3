/// Reads a request's head (request line and headers, up to the blank line) and says how long its body
/// is. Bodies come with `Content-Length` only: a chunked request body is refused with 411 (the MCP
/// clients and nginx in front of the server send lengths), and one longer than the limit with 413.
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
    /// empty body, and the body's length, checked against `maxBody`.
    static func parseHead(_ bytes: ArraySlice<UInt8>, maxBody: Int) throws(HTTPRequestError) -> (HTTPRequest, bodyLength: Int) {
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
        if request.header("transfer-encoding") != nil {
            throw HTTPRequestError(411, "Length Required: send the body with Content-Length; chunked request bodies are not supported")
        }
        var length = 0
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        if let l = lengths.first {
            guard Set(lengths).count == 1, let n = Int(l), n >= 0 else {
                throw HTTPRequestError(400, "Bad Request: Content-Length must be one whole number, found \"\(lengths.joined(separator: ", ").prefix(40))\"")
            }
            length = n
        }
        guard length <= maxBody else {
            throw HTTPRequestError(413, "Content Too Large: the body is \(length) bytes; this server accepts at most \(maxBody)")
        }
        return (request, length)
    }
}
