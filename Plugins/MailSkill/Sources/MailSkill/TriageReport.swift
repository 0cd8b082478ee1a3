import Foundation
import MailCore

/// The result of `mail.triage` (see `MailIntents.triageOutput` for every field), and its sentence.
struct TriageReport: Encodable {
    struct Message: Encodable {
        let id: String
        let source: String
        let from: String
        let fromAddress: String
        let subject: String
        let date: String?
        let labels: [String]
        let seen: Bool
        let summary: String
        let event: Event?
        let attachments: [Attachment]
        let problems: [String]
    }

    struct Event: Encodable {
        let summary: String
        let start: String?
        let end: String?
        let location: String?
    }

    struct Attachment: Encodable {
        let name: String?
        let type: String
        let bytes: Int
        /// For an attached message (message/rfc822): what it says.
        let message: AttachedMessage?

        init(_ a: MailMessage.Attachment) {
            (name, type, bytes) = (a.filename, a.contentType, a.size)
            message = a.message.map(AttachedMessage.init)
        }
    }

    /// A forwarded message: sender, subject, date, its text (at most `textLimit` characters) and its
    /// own attachments, nested as deep as `MailMessage.maxForwardDepth`.
    struct AttachedMessage: Encodable {
        static let textLimit = 2000
        let from: String
        let fromAddress: String
        let subject: String
        let date: String?
        let text: String
        let attachments: [Attachment]

        init(_ m: MailMessage.Forwarded) {
            from = m.from?.display ?? ""
            fromAddress = m.from?.address ?? ""
            subject = m.subject
            date = m.date?.rfc3339
            text = m.text.count > Self.textLimit ? String(m.text.prefix(Self.textLimit)) + "…" : m.text
            attachments = m.attachments.map(Attachment.init)
        }
    }

    struct Counts: Encodable {
        let invoice, meeting, newsletter, personal, unread: Int
    }

    let mailbox: String
    let format: String
    let total: Int
    let matched: Int
    let messages: [Message]
    let counts: Counts
    let skipped: [SkippedMessage]
    let message: String

    init(_ run: TriageRun, language: TextLanguage) {
        mailbox = run.path
        format = run.format.rawValue
        total = run.total
        matched = run.matched
        messages = run.messages.map(Self.message)
        let count = { (l: MailLabel) in run.messages.filter { $0.labels.contains(l) }.count }
        counts = Counts(invoice: count(.invoice), meeting: count(.meeting), newsletter: count(.newsletter),
                        personal: count(.personal), unread: run.messages.filter { !$0.seen }.count)
        skipped = run.skipped
        message = Self.sentence(counts: counts, shown: messages.count, matched: run.matched, skipped: skipped.count, language: language)
    }

    static func message(_ m: TriagedMessage) -> Message {
        Message(id: m.id, source: m.source, from: m.message.from?.display ?? "", fromAddress: m.message.from?.address ?? "",
                subject: m.message.subject, date: m.date?.rfc3339, labels: m.labels.map(\.rawValue), seen: m.seen,
                summary: m.summary,
                event: m.invitation.map { Event(summary: $0.summary ?? m.message.subject, start: $0.start?.text, end: $0.end?.text, location: $0.location) },
                attachments: m.message.attachments.map(Attachment.init),
                problems: m.problems)
    }

    /// "8 messages: 2 invoices, 2 meeting invitations, 1 newsletter, 3 personal messages; 3 unread."
    static func sentence(counts c: Counts, shown: Int, matched: Int, skipped: Int, language: TextLanguage) -> String {
        switch language {
        case .en:
            if shown == 0 { return "No messages" + (skipped > 0 ? "; \(skipped) skipped." : ".") }
            let parts = [(c.invoice, "invoice", "invoices"), (c.meeting, "meeting invitation", "meeting invitations"),
                         (c.newsletter, "newsletter", "newsletters"), (c.personal, "personal message", "personal messages")]
                .filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
            var s = "\(shown) message\(shown == 1 ? "" : "s")"
            if matched > shown { s += " (the newest of \(matched))" }
            if !parts.isEmpty { s += ": " + parts.joined(separator: ", ") }
            s += "; \(c.unread) unread"
            if skipped > 0 { s += "; \(skipped) skipped (unreadable)" }
            return s + "."
        case .zh:
            if shown == 0 { return "没有邮件" + (skipped > 0 ? "；\(skipped) 封无法读取，已跳过。" : "。") }
            let parts = [(c.invoice, "发票"), (c.meeting, "会议邀请"), (c.newsletter, "订阅邮件"), (c.personal, "私人邮件")]
                .filter { $0.0 > 0 }.map { "\($0.1) \($0.0) 封" }
            var s = "共 \(shown) 封邮件"
            if matched > shown { s += "（最新的 \(shown) 封，共 \(matched) 封）" }
            if !parts.isEmpty { s += "：" + parts.joined(separator: "，") }
            s += "；未读 \(c.unread) 封"
            if skipped > 0 { s += "；\(skipped) 封无法读取，已跳过" }
            return s + "。"
        }
    }
}
