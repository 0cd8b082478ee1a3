/// The labels triage gives a message; a message gets any subset (`personal` only alone).
///
/// How each is decided (`Classifier.labels`):
/// - `meeting`: a calendar part (text/calendar) whose METHOD is REQUEST, or invitation words in the
///   subject (invitation, invite, 邀请, 会议通知 …) or the body (has invited you, 诚邀, 邀请您参加 …) —
///   unless the calendar part is a CANCEL or REPLY.
/// - `newsletter`: a `List-Unsubscribe` or `List-Id` header, or `Precedence: bulk` / `list` / `junk`.
/// - `invoice`: invoice, receipt or amount-due words (invoice, receipt, amount due, 发票, 账单, 付款, 应付 …)
///   in the subject or in an attachment's name (e.g. `invoice-1142.pdf`), or in the body together with
///   a money amount (EUR 240.00, ¥1,280.00, 12.50 USD …).
/// - `personal`: none of the above, sent by a person: the sender's address is not a machine's
///   (noreply, notifications, billing, newsletter …) and the message is not `Auto-Submitted`.
public enum MailLabel: String, CaseIterable, Sendable, Codable {
    case invoice, meeting, newsletter, personal
}

public enum Classifier {
    public static func labels(_ message: MailMessage, invitation: Invitation?) -> [MailLabel] {
        var labels: [MailLabel] = []
        let subject = message.subject.lowercased()
        let body = message.text.lowercased()
        if isInvoice(message, subject: subject, body: body) { labels.append(.invoice) }
        if isMeeting(invitation: invitation, subject: subject, body: body) { labels.append(.meeting) }
        if isBulk(message.headers) { labels.append(.newsletter) }
        if labels.isEmpty && isFromPerson(message) { labels.append(.personal) }
        return labels
    }

    static func isInvoice(_ message: MailMessage, subject: String, body: String) -> Bool {
        if Vocabulary.containsAny(subject, Vocabulary.invoice) { return true }
        if message.attachments.contains(where: { ($0.filename?.lowercased()).map { Vocabulary.containsAny($0, Vocabulary.invoice) } ?? false }) {
            return true
        }
        return Vocabulary.containsAny(body, Vocabulary.invoice) && InvoiceFacts.firstAmount(in: message.text) != nil
    }

    static func isMeeting(invitation: Invitation?, subject: String, body: String) -> Bool {
        if let method = invitation?.method {
            if method == "REQUEST" { return true }
            if method == "CANCEL" || method == "REPLY" { return false }
        }
        return Vocabulary.containsAny(subject, Vocabulary.invitationSubject) || Vocabulary.containsAny(body, Vocabulary.invitationBody)
    }

    static func isBulk(_ headers: Headers) -> Bool {
        if headers["List-Unsubscribe"] != nil || headers["List-Id"] != nil { return true }
        let precedence = headers["Precedence"]?.lowercased() ?? ""
        return ["bulk", "list", "junk"].contains(precedence)
    }

    static func isFromPerson(_ message: MailMessage) -> Bool {
        guard let from = message.from, !from.address.isEmpty else { return false }
        if let auto = message.headers["Auto-Submitted"]?.lowercased(), auto != "no" { return false }
        let local = from.localPart
        if Vocabulary.automatedSenders.contains(local) { return false }
        return !Vocabulary.automatedFragments.contains { local.contains($0) }
    }
}
