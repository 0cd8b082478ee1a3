import Foundation

/// One parsed message (RFC 5322 + MIME): the header facts triage uses, the readable text, calendar
/// invitations and attachments.
///
/// Contract of `parse`: throws only when the bytes are not a message at all — empty, or no header field
/// before the body. Everything else (bad charset, broken MIME, undecodable date) is tolerated and listed
/// in `problems`, one sentence each, so a caller can report it with the message. `text` is the first
/// text/plain part that is not an attachment, else the first text/html one converted to plain text, else
/// "" — with LF line breaks. `calendars` are the decoded `text/calendar` (or `application/ics`, or `*.ics`) parts.
public struct MailMessage: Sendable {
    public let headers: Headers
    public let root: MIMEPart
    /// Message-ID without the angle brackets, or nil.
    public let messageID: String?
    public let from: MailAddress?
    /// The decoded Subject ("" when absent).
    public let subject: String
    public let date: MailDate?
    public let text: String
    public let calendars: [String]
    public let attachments: [Attachment]
    public let problems: [String]

    public struct Attachment: Sendable, Equatable {
        public let filename: String?
        public let contentType: String
        public let size: Int
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case empty
        case noHeaders

        public var description: String {
            switch self {
            case .empty: "empty file"
            case .noHeaders: "not an RFC 5322 message: no header field (Name: value) before the body"
            }
        }
    }

    public static func parse(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> MailMessage {
        guard !bytes.trimmed().isEmpty else { throw .empty }
        let (headers, body) = Headers.parse(bytes)
        guard !headers.fields.isEmpty else { throw .noHeaders }
        return MailMessage(headers: headers, body: body)
    }

    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> MailMessage {
        try parse(bytes[...])
    }

    private init(headers: Headers, body: ArraySlice<UInt8>) {
        var problems: [String] = []
        if headers.malformedLines > 0 { problems.append("header section ends at a line that is not a header field (no blank line before the body?)") }
        self.headers = headers
        root = MIMEPart.parse(headers: headers, body: body, problems: &problems)
        messageID = headers["Message-ID"].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> \t")) }.flatMap { $0.isEmpty ? nil : $0 }
        _ = headers.decoded("From", problems: &problems)   // only to report charset problems of the name
        from = headers["From"].flatMap(MailAddress.init(header:))
        subject = headers.decoded("Subject", problems: &problems)?.replacingOccurrences(of: "\t", with: " ") ?? ""
        if let raw = headers["Date"] {
            date = MailDate(rfc5322: raw)
            if date == nil { problems.append("Date header \"\(raw)\" is not an RFC 5322 date") }
        } else {
            date = nil
        }
        let leaves = root.leaves
        var text: String?
        var html: String?
        var calendars: [String] = []
        var attachments: [Attachment] = []
        for leaf in leaves {
            let isCalendar = leaf.contentType == "text/calendar" || leaf.contentType == "application/ics"
                || (leaf.filename?.lowercased().hasSuffix(".ics") ?? false)
            if isCalendar {
                calendars.append(Self.decodeText(leaf, problems: &problems))
            } else if leaf.isAttachment {
                attachments.append(Attachment(filename: leaf.filename, contentType: leaf.contentType, size: leaf.body.count))
            } else if leaf.contentType == "text/plain", text == nil {
                text = Self.decodeText(leaf, problems: &problems)
            } else if leaf.contentType == "text/html", html == nil {
                html = Self.decodeText(leaf, problems: &problems)
            }
        }
        self.text = text ?? html.map(HTMLText.plain) ?? ""
        self.calendars = calendars
        self.attachments = attachments
        self.problems = problems
    }

    private static func decodeText(_ part: MIMEPart, problems: inout [String]) -> String {
        let d = Charsets.decode(part.body, charset: part.charset)
        if let p = d.problem { problems.append("\(part.contentType) part: \(p)") }
        return d.text.replacingOccurrences(of: "\r\n", with: "\n")
    }
}
