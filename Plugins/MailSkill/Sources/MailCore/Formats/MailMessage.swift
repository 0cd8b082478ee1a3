import Foundation

/// One parsed message (RFC 5322 + MIME): the header facts triage uses, the readable text, calendar
/// invitations and attachments.
///
/// Contract of `parse`: throws only when the bytes are not a message at all — empty, or no header field
/// before the body. Everything else (bad charset, broken MIME, undecodable date) is tolerated and listed
/// in `problems`, one sentence each, so a caller can report it with the message. `text` is the first
/// text/plain part that is not an attachment, else the first text/html one converted to plain text, else
/// "" — with LF line breaks. `calendars` are the decoded `text/calendar` (or `application/ics`, or `*.ics`) parts.
/// A `message/rfc822` part (forwarded mail) is an attachment whose `message` is the parsed inner message,
/// opened to `maxForwardDepth` levels; the inner message's problems are the outer one's too, prefixed
/// "attached message: ".
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
        /// For `message/rfc822`: the attached message, when it could be opened.
        public var message: Forwarded? = nil
    }

    /// An attached (forwarded) message, as far as a reader needs it.
    public struct Forwarded: Sendable, Equatable {
        public let from: MailAddress?
        public let subject: String
        public let date: MailDate?
        public let text: String
        public let attachments: [Attachment]
    }

    /// How deep attached messages inside attached messages are opened.
    public static let maxForwardDepth = 3

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
        try parse(bytes, depth: 0)
    }

    /// `depth`: how many attached messages this one is inside.
    static func parse(_ bytes: ArraySlice<UInt8>, depth: Int) throws(ParseError) -> MailMessage {
        guard !bytes.trimmed().isEmpty else { throw .empty }
        let (headers, body) = Headers.parse(bytes)
        guard !headers.fields.isEmpty else { throw .noHeaders }
        return MailMessage(headers: headers, body: body, depth: depth)
    }

    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> MailMessage {
        try parse(bytes[...])
    }

    private init(headers: Headers, body: ArraySlice<UInt8>, depth: Int) {
        var problems: [String] = []
        if headers.malformedLines > 0 { problems.append("header section ends at a line that is not a header field (no blank line before the body?)") }
        self.headers = headers
        root = MIMEPart.parse(headers: headers, body: body, problems: &problems)
        messageID = headers["Message-ID"].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> \t")) }.flatMap { $0.isEmpty ? nil : $0 }
        // Raw 8-bit header text is guessed, preferring the charset the message's parts declare, else the
        // guess for all of its 8-bit text at once (a two-character name alone says little).
        let hint = root.leaves.lazy.compactMap { $0.charset.flatMap { CharsetGuess.canonical(Charsets.normalize($0)) } }.first
            ?? Self.sharedGuess(headers, root.leaves)
        let fromText = headers.text("From", hint: hint, problems: &problems)
        for p in fromText.map({ EncodedWords.decode($0).problems }) ?? [] { problems.append("From: \(p)") }   // the name's charset problems
        from = fromText.flatMap(MailAddress.init(header:))
        subject = headers.decoded("Subject", hint: hint, problems: &problems)?.replacingOccurrences(of: "\t", with: " ") ?? ""
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
                calendars.append(Self.decodeText(leaf, hint: hint, problems: &problems))
            } else if leaf.contentType == "message/rfc822" || leaf.contentType == "message/global" {
                attachments.append(Self.attached(leaf, depth: depth, problems: &problems))
            } else if leaf.isAttachment {
                attachments.append(Attachment(filename: leaf.filename, contentType: leaf.contentType, size: leaf.body.count))
            } else if leaf.contentType == "text/plain", text == nil {
                text = Self.decodeText(leaf, hint: hint, problems: &problems)
            } else if leaf.contentType == "text/html", html == nil {
                html = Self.decodeText(leaf, hint: hint, problems: &problems)
            }
        }
        self.text = text ?? html.map(HTMLText.plain) ?? ""
        self.calendars = calendars
        self.attachments = attachments
        self.problems = problems
    }

    /// The charset guessed for the raw Subject, From and the first text part together, when they hold
    /// 8-bit bytes that are not UTF-8.
    private static func sharedGuess(_ headers: Headers, _ leaves: [MIMEPart]) -> String? {
        var bytes: [UInt8] = []
        for name in ["subject", "from"] {
            if let field = headers.fields.first(where: { $0.name.lowercased() == name }) { bytes += field.raw + [ASCII.lf] }
        }
        if let text = leaves.first(where: { $0.contentType.hasPrefix("text/") && !$0.isAttachment }) { bytes += text.body.prefix(4096) }
        guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        let guess = CharsetGuess.guess(bytes)
        return guess.guessed ? guess.charset : nil
    }

    /// A `message/rfc822` part as an attachment, with the inner message parsed while `depth` allows.
    private static func attached(_ part: MIMEPart, depth: Int, problems: inout [String]) -> Attachment {
        var attachment = Attachment(filename: part.filename, contentType: part.contentType, size: part.body.count)
        guard depth + 1 <= maxForwardDepth else {
            problems.append("attached message nested deeper than \(maxForwardDepth) levels is not opened")
            return attachment
        }
        do {
            let inner = try parse(part.body[...], depth: depth + 1)
            attachment.message = Forwarded(from: inner.from, subject: inner.subject, date: inner.date, text: inner.text,
                                           attachments: inner.attachments)
            problems.append(contentsOf: inner.problems.map { "attached message: \($0)" })
        } catch {
            problems.append("attached message (\(part.body.count) bytes) is not readable: \(error)")
        }
        return attachment
    }

    /// The part's text in its declared charset — unless its 8-bit bytes have no usable label: none or
    /// US-ASCII (and not UTF-8), a label they are not valid in, or a Latin-1/windows-1252 label on bytes
    /// that read better as a CJK charset. Those are read by `CharsetGuess` (the declared label as the
    /// hint, else `hint`), and the guess is reported ("text/plain part: 8-bit bytes labelled US-ASCII
    /// read as GB18030 (guessed)").
    static func decodeText(_ part: MIMEPart, hint: String?, problems: inout [String]) -> String {
        let text = decodeBody(part, hint: hint)
        if let problem = text.problem { problems.append("\(part.contentType) part: \(problem)") }
        return text.text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    private static func decodeBody(_ part: MIMEPart, hint: String?) -> Charsets.Decoded {
        let declared = Charsets.decode(part.body, charset: part.charset)
        guard part.body.contains(where: { $0 >= 0x80 }) else { return declared }
        let label = Charsets.normalize(part.charset)
        let unlabelled = label.isEmpty || label == "us-ascii" || label == "ascii"
        if (unlabelled || label.hasPrefix("utf")) && String(validating: part.body, as: UTF8.self) != nil { return declared }
        let canonical = CharsetGuess.canonical(label)
        guard unlabelled || declared.problem != nil || canonical == "WINDOWS-1252" else { return declared }
        let guess = CharsetGuess.guess(part.body, hint: canonical ?? hint)
        if !unlabelled && guess.charset == canonical { return declared }   // the label was right after all
        if canonical == "WINDOWS-1252" && declared.problem == nil && guess.charset == "WINDOWS-1252" { return declared }
        let what = unlabelled ? (label.isEmpty ? "8-bit bytes without a charset label" : "8-bit bytes labelled US-ASCII")
            : "bytes labelled \(part.charset ?? label)\(declared.problem != nil ? " but not valid in it" : "")"
        return Charsets.Decoded(text: guess.text, problem: "\(what) read as \(guess.charset)\(guess.guessed ? " (guessed)" : "")")
    }
}
