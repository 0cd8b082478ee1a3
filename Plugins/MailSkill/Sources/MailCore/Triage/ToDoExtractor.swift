import Foundation

/// A thing the reader of a message should do.
public struct ToDo: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case request, deadline, payment, invitation }

    public let text: String
    public let kind: Kind
    /// The day it is due, where the sender was; nil when the message names none.
    public let due: CivilDay?
}

/// The language of the to-do texts this skill writes itself (payment and invitation to-dos).
public enum TextLanguage: Sendable {
    case en, zh

    /// `zh…` locales → Chinese, everything else → English.
    public init(locale: String) { self = locale.lowercased().hasPrefix("zh") ? .zh : .en }
}

/// Extracts to-dos from a triaged message.
///
/// Contract:
/// - newsletters give none (their "please share" is not addressed to the reader);
/// - an invoice gives one payment to-do when it is payable ("Pay invoice N (amount, due day)", due = its
///   due day) and nothing else (its sentences only repeat the payment);
/// - a meeting invitation gives "Reply to invitation: …" (due = the day the event starts), plus request
///   sentences from its text, which are due by the event's day when they name no day themselves;
/// - every other message gives its request sentences: English ones containing "please", "could you",
///   "don't forget", "deadline" … or starting with an imperative verb ("Send …", "Review …"); Chinese
///   ones containing 请 (not in 邀请/申请/聘请/宴请), 麻烦, 记得, 务必, 截止 …; questions that are not
///   requests are not to-dos. `due` is resolved by `DatePhrases` against the message's own day;
/// - to-do texts are the sentences as written; the generated ones are in `language`.
public enum ToDoExtractor {
    public static func todos(_ m: TriagedMessage, language: TextLanguage) -> [ToDo] {
        if m.labels.contains(.newsletter) { return [] }
        let reference = m.date?.day ?? CivilDay(Date(), offsetSeconds: 0)
        if m.labels.contains(.invoice) {
            let facts = InvoiceFacts(m.message, reference: reference)
            guard facts.payable else { return [] }
            return [ToDo(text: paymentText(facts, from: m.message.from, language: language), kind: .payment, due: facts.due)]
        }
        var out: [ToDo] = []
        var eventDay: CivilDay?
        if m.labels.contains(.meeting) {
            eventDay = m.invitation?.start?.day
            out.append(ToDo(text: invitationText(m, language: language), kind: .invitation, due: eventDay))
        }
        for sentence in ReadableText.sentences(m.message.text) where isRequest(sentence) {
            let lower = sentence.lowercased()
            let kind: ToDo.Kind = Vocabulary.containsAny(lower, Vocabulary.deadline) ? .deadline : .request
            out.append(ToDo(text: sentence, kind: kind, due: DatePhrases.due(in: sentence, reference: reference) ?? eventDay))
        }
        return out
    }

    static func isRequest(_ sentence: String) -> Bool {
        let lower = sentence.lowercased()
        if Vocabulary.containsAny(lower, Vocabulary.requestPhrasesEN) { return true }
        let firstWord = lower.prefix { $0.isLetter }
        if Vocabulary.imperativeVerbs.contains(String(firstWord)) { return true }
        var zh = sentence
        for compound in ["邀请", "申请", "聘请", "宴请", "请假"] { zh = zh.replacingOccurrences(of: compound, with: "") }
        return Vocabulary.containsAny(zh, Vocabulary.requestPhrasesZH)
    }

    static func paymentText(_ f: InvoiceFacts, from: MailAddress?, language: TextLanguage) -> String {
        let sender = from?.name ?? from?.address ?? ""
        switch language {
        case .en:
            var details: [String] = []
            if let a = f.amount { details.append(a) }
            if let d = f.due { details.append("due \(d)") }
            let what = f.number.map { "Pay invoice \($0)" } ?? "Pay the invoice from \(sender)"
            return details.isEmpty ? what : "\(what) (\(details.joined(separator: ", ")))"
        case .zh:
            var details: [String] = []
            if let a = f.amount { details.append(a) }
            if let d = f.due { details.append("截止 \(d)") }
            let what = f.number.map { "支付发票 \($0)" } ?? "支付\(sender)的账单"
            return details.isEmpty ? what : "\(what)（\(details.joined(separator: "，"))）"
        }
    }

    static func invitationText(_ m: TriagedMessage, language: TextLanguage) -> String {
        let title = m.invitation?.summary ?? m.message.subject
        var details: [String] = []
        if let start = m.invitation?.start {
            switch start {
            case .allDay(let d): details.append(d.description)
            case .instant: details.append(String(start.text.prefix(16)).replacingOccurrences(of: "T", with: " "))
            }
        }
        if let place = m.invitation?.location { details.append(place) }
        switch language {
        case .en: return "Reply to invitation: \(title)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        case .zh: return "回复会议邀请：\(title)" + (details.isEmpty ? "" : "（\(details.joined(separator: "，"))）")
        }
    }
}
