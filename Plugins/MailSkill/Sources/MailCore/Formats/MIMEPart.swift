/// A MIME entity (RFC 2045/2046): a leaf with its transfer-decoded body, or a multipart with children.
///
/// Contract of `parse`: `multipart/*` with a `boundary` is split on `--boundary` lines (transport padding
/// after the boundary tolerated; preamble and epilogue dropped; the line break before a delimiter belongs
/// to the delimiter) and each part parsed recursively, to at most `maxDepth` levels. A multipart without
/// a boundary, without any delimiter, or nested too deep becomes a `text/plain` leaf; a missing closing
/// delimiter keeps the last part. Each such case adds a problem; nothing throws. `message/rfc822` parts
/// are leaves (an attached message is an attachment, not part of this message's text).
public struct MIMEPart: Sendable {
    /// Lowercased `type/subtype`; `text/plain` when absent or malformed.
    public let contentType: String
    public let parameters: [String: String]
    /// Lowercased disposition (`inline`, `attachment`) or nil.
    public let disposition: String?
    /// The file name (disposition `filename`, else content-type `name`), RFC 2047/2231 decoded.
    public let filename: String?
    /// The transfer-decoded body of a leaf; empty for a multipart.
    public let body: [UInt8]
    public let children: [MIMEPart]

    public static let maxDepth = 16

    public var isMultipart: Bool { contentType.hasPrefix("multipart/") }
    public var charset: String? { parameters["charset"] }

    /// An attachment rather than text of the message: disposition attachment, or a named non-text part.
    public var isAttachment: Bool {
        disposition == "attachment" || (filename != nil && !contentType.hasPrefix("text/"))
    }

    /// Every leaf, depth first, in order.
    public var leaves: [MIMEPart] { isMultipart ? children.flatMap(\.leaves) : [self] }

    public static func parse(headers: Headers, body: ArraySlice<UInt8>, depth: Int = 0, problems: inout [String]) -> MIMEPart {
        let type = HeaderParameters(headers["Content-Type"] ?? "text/plain")
        let validType = type.value.split(separator: "/").count == 2 && !type.value.contains(" ")
        var contentType = validType ? type.value : "text/plain"
        var parameters = validType ? type.parameters : [:]
        let disposition = headers["Content-Disposition"].map(HeaderParameters.init)
        let rawName = disposition?["filename"] ?? type["name"]
        let filename = rawName.map { EncodedWords.decode($0).text }

        if contentType.hasPrefix("multipart/") {
            if depth >= maxDepth {
                problems.append("MIME parts nested deeper than \(maxDepth) levels are not read")
            } else if let boundary = type["boundary"], !boundary.isEmpty,
                      let parts = split(body, boundary: boundary, problems: &problems) {
                let children = parts.map { part -> MIMEPart in
                    let (h, b) = Headers.parse(part)
                    return MIMEPart.parse(headers: h, body: b, depth: depth + 1, problems: &problems)
                }
                return MIMEPart(contentType: contentType, parameters: parameters, disposition: disposition?.value,
                                filename: filename, body: [], children: children)
            } else if type["boundary"]?.isEmpty ?? true {
                problems.append("\(contentType) without a boundary parameter, read as text")
            }
            contentType = "text/plain"
            parameters = [:]
        }
        let decoded = TransferEncoding.decode(body, encoding: headers["Content-Transfer-Encoding"])
        if let p = decoded.problem { problems.append(p) }
        return MIMEPart(contentType: contentType, parameters: parameters, disposition: disposition?.value,
                        filename: filename, body: decoded.bytes, children: [])
    }

    /// The parts between `--boundary` delimiters, or nil (with a problem) when there is no delimiter at all.
    static func split(_ body: ArraySlice<UInt8>, boundary: String, problems: inout [String]) -> [ArraySlice<UInt8>]? {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [ArraySlice<UInt8>] = []
        var partStart: Int?
        var previousLineEnd = body.startIndex   // where the line break before the current line starts
        var closed = false
        for line in body.lines() {
            let content = body[line.content]
            if content.hasPrefix(delimiter) {
                let rest = content.dropFirst(delimiter.count)
                let isClose = rest.hasPrefix([ASCII.dash, ASCII.dash])
                let tail = isClose ? rest.dropFirst(2) : rest
                if tail.allSatisfy(ASCII.isBlank) {
                    if let start = partStart { parts.append(body[start..<max(start, previousLineEnd)]) }
                    if isClose { closed = true; partStart = nil; break }
                    partStart = line.next
                    previousLineEnd = line.next
                    continue
                }
            }
            previousLineEnd = line.content.upperBound
        }
        if let start = partStart {
            parts.append(body[start..<body.endIndex])
            problems.append("multipart body ends without its closing boundary \"--\(boundary)--\"")
        } else if parts.isEmpty && !closed {
            problems.append("no part found for boundary \"\(boundary)\"")
            return nil
        }
        return parts
    }
}
