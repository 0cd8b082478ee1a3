import Foundation

/// What an invoice says about paying it: its number, the amount and the due day.
///
/// Contract: `number` is the first `Invoice [No.|Number|#] X` / `发票号码：X` (X has a digit) in the
/// subject, then the body. `amount` is the first money amount (a currency sign or code next to a number:
/// `EUR 240.00`, `€240`, `¥1,280.00`, `1 280,00 zł`, `12.50 USD`, `500元`) on a line that says it is due
/// (amount due, total, 应付, 金额 …), else the first amount anywhere. `due` is the first day (see
/// `DatePhrases`) on a line that talks about a due date or deadline. `payable` is false for receipts of
/// payments already made (no amount-due wording).
public struct InvoiceFacts: Sendable, Equatable {
    public let number: String?
    public let amount: String?
    public let due: CivilDay?
    public let payable: Bool

    public init(_ message: MailMessage, reference: CivilDay) {
        let lines = message.text.split(whereSeparator: \.isNewline).map(String.init)
        number = Self.number(in: message.subject) ?? Self.number(in: message.text)
        let dueLines = lines.filter { l in
            let lower = l.lowercased()
            return ["amount due", "balance due", "total due", "amount", "total", "应付", "金额", "合计"].contains { lower.contains($0) }
        }
        amount = dueLines.lazy.compactMap(Self.firstAmount).first ?? Self.firstAmount(in: message.text)
        let deadlineLines = ([message.subject] + lines).filter { l in
            let lower = l.lowercased()
            return ["due", "pay by", "deadline", "截止", "请于", "前付款", "之前付款"].contains { lower.contains($0) }
        }
        due = deadlineLines.lazy.compactMap { DatePhrases.due(in: $0, reference: reference) }.first
        let all = (message.subject + "\n" + message.text).lowercased()
        payable = Vocabulary.containsAny(all, Vocabulary.payable)
    }

    nonisolated(unsafe) static let numberEN = /(?i)\binvoice\s*(?:no\.?|number|nr\.?|#)?\s*[:#]?\s*([A-Z0-9][A-Z0-9\-\/]{2,})/
    nonisolated(unsafe) static let numberZH = /发票(?:号码|号|编号)\s*[:：]?\s*([A-Za-z0-9][A-Za-z0-9\-]{2,})/
    nonisolated(unsafe) static let currencyFirst = /(€|\$|£|¥|￥|(?:EUR|USD|GBP|CNY|RMB|PLN|JPY|CHF)\b)\s?(\d[\d,.' ]*\d|\d)/
    nonisolated(unsafe) static let numberFirst = /(\d[\d,.' ]*\d|\d)\s?(€|EUR\b|USD\b|GBP\b|CNY\b|RMB\b|PLN\b|zł|元)/

    static func number(in text: String) -> String? {
        for m in text.matches(of: numberEN) where m.1.contains(where: \.isNumber) { return String(m.1) }
        for m in text.matches(of: numberZH) where m.1.contains(where: \.isNumber) { return String(m.1) }
        return nil
    }

    /// The first money amount in `text`, as written (`EUR 240.00`, `¥1,280.00`).
    static func firstAmount(in text: String) -> String? {
        let a = text.firstMatch(of: currencyFirst)
        let b = text.firstMatch(of: numberFirst)
        switch (a, b) {
        case let (a?, b?): return String(a.range.lowerBound <= b.range.lowerBound ? a.0 : b.0)
        case let (a?, nil): return String(a.0)
        case let (nil, b?): return String(b.0)
        default: return nil
        }
    }
}
