/// One HTTP/1.1 request as the server read it: the request line, the headers (names lowercased, in
/// order) and the whole body.
struct HTTPRequest: Sendable {
    var method: String
    /// The request target as sent (`/mcp?x=1`).
    var target: String
    /// "HTTP/1.1" or "HTTP/1.0".
    var version: String
    var headers: [(name: String, value: String)]
    var body: [UInt8] = []

    /// The target without its query.
    var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0] }

    /// The value of header `name` (lowercase); several occurrences are joined with ", ".
    func header(_ name: String) -> String? {
        let values = headers.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Whether the connection stays open after the response (HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive`).
    var keepAlive: Bool {
        let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
        return version == "HTTP/1.1" ? !tokens.contains("close") : tokens.contains("keep-alive")
    }
}

/// Why a request could not be read; the server answers with `status` and closes the connection.
struct HTTPRequestError: Error, Sendable {
    let status: Int
    let message: String
    init(_ status: Int, _ message: String) { (self.status, self.message) = (status, message) }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
