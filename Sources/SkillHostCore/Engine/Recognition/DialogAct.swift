/// What a clause of a request does: asks to have something done, asks a question, says not to, or
/// only carries text (quoted, pasted, to be translated). Only a command may lead to a write (see
/// `WriteGuard`). Rules, not a model: they err towards "not a command", which costs a question back,
/// never a write the person did not ask for.
enum DialogAct: String, Sendable {
    case command, question, negated, quoted

    /// The act of `clause`, a part of `text` (the whole request, which decides about quotes, pasted
    /// content and the punctuation after the clause); `keywords` are what made the intent match.
    static func of(_ clause: String, in text: String, keywords: [String] = []) -> DialogAct {
        if carriesText(text) || isQuoted(clause, in: text) || onlyQuoted(keywords, in: clause) { return .quoted }
        let lower = clause.lowercased()
        if isNegated(lower) { return .negated }
        if isQuestion(lower, followedBy: punctuation(after: clause, in: text)) { return .question }
        return .command
    }

    // MARK: - Rules (Chinese and English)

    /// Polite openings that make a question a request ("can you remind me…", "能帮我…吗").
    static let politeEN = ["can you", "could you", "would you", "will you", "please", "pls", "can u", "would u", "could u", "i need you to", "i'd like you to"]
    static let politeZH = ["帮我", "请", "麻烦", "能不能", "可不可以", "可以帮", "能否", "给我", "替我", "提醒我", "叫我", "记得提醒"]

    static let questionWordsEN = ["what", "which", "when", "where", "who", "why", "how", "did", "do i", "do you", "does", "have i",
                                  "has", "is there", "are there", "is it", "are my", "any ", "was", "were", "should i", "shall i"]
    static let questionMarkersZH = ["哪些", "什么", "几个", "几条", "多少", "有没有", "是否", "哪个", "是不是", "设过", "设了哪些", "有哪些",
                                    "吗？", "吗?", "呢？", "呢?", "怎么", "为什么", "谁", "哪里", "何时", "什么时候"]

    static let negationsEN = ["don't", "dont", "do not", "doesn't", "no need", "not necessary", "never ", "no longer", "without ",
                              "stop reminding", "not remind", "not create", "not add", "not set", "no reminder", "not needed",
                              "forget it", "never mind", "nevermind", "cancel that"]
    static let negationsZH = ["不用", "不要", "别", "无需", "不必", "没必要", "甭", "不需要", "算了", "取消吧", "先不"]

    /// Words that make the rest of the request text to work on, not something to do.
    static let carriersEN = ["translate", "what does", "what do you think of", "summarize this", "summarise this", "proofread",
                             "ignore previous", "ignore all previous", "ignore the above", "forwarded message", "original message"]
    static let carriersZH = ["翻译", "是什么意思", "什么意思", "总结一下这", "忽略之前", "忽略以上", "转发的邮件", "原始邮件"]

    /// "Don't forget to…", "别忘了…": a negated "forget" is a request to remember, not a negation.
    static let rememberEN = ["don't forget", "dont forget", "do not forget", "don't let me forget", "do not let me forget", "never forget"]
    static let rememberZH = ["别忘", "不要忘", "不能忘", "别让我忘", "千万别忘"]

    static func isNegated(_ lower: String) -> Bool {
        var rest = lower
        for phrase in rememberEN + rememberZH { rest = rest.replacing(phrase, with: " ") }
        return negationsEN.contains { rest.contains($0) } || negationsZH.contains { rest.contains($0) }
    }

    static func isQuestion(_ lower: String, followedBy mark: Character?) -> Bool {
        let trimmed = lower.trimmingWhitespace()
        let polite = politeEN.contains { trimmed.hasPrefix($0) } || politeZH.contains { trimmed.contains($0) }
        if questionMarkersZH.contains(where: { trimmed.contains($0) }) && !(polite && !trimmed.contains("哪些") && !trimmed.contains("什么")) { return true }
        if questionWordsEN.contains(where: { trimmed.hasPrefix($0) }) { return true }
        if mark == "?" || mark == "？" || trimmed.hasSuffix("吗") || trimmed.hasSuffix("呢") { return !polite }
        return false
    }

    /// Text to translate or summarize, pasted mail, an instruction to ignore instructions, several
    /// lines: content the person handed over, not requests of theirs.
    static func carriesText(_ text: String) -> Bool {
        let lower = text.lowercased()
        if carriersEN.contains(where: { lower.contains($0) }) || carriersZH.contains(where: { lower.contains($0) }) { return true }
        let lines = text.split(separator: "\n").filter { !String($0).trimmingWhitespace().isEmpty }
        if lines.count >= 3 { return true }
        return ["from:", "subject:", "to:", "发件人", "主题：", "收件人"].filter { lower.contains($0) }.count >= 2
    }

    /// True when the clause sits inside quotation marks in the request.
    static func isQuoted(_ clause: String, in text: String) -> Bool {
        guard let at = text.firstRange(of: clause) else { return false }
        let before = text[..<at.lowerBound]
        for (open, close) in [("“", "”"), ("「", "」"), ("『", "』"), ("\"", "\""), ("‘", "’")] {
            let opens = before.filter { String($0) == open }.count
            let closes = open == close ? 0 : before.filter { String($0) == close }.count
            if open == close ? opens % 2 == 1 : opens > closes { return true }
        }
        return false
    }

    static let quotePairs: [(Character, Character)] = [("“", "”"), ("「", "」"), ("『", "』"), ("\"", "\""), ("‘", "’")]

    /// True when the clause quotes something and every keyword that matched is inside the quotes
    /// ("he said “remind me to call you”").
    static func onlyQuoted(_ keywords: [String], in clause: String) -> Bool {
        guard !keywords.isEmpty else { return false }
        var outside = "", depth: [Character] = []
        for ch in clause {
            if let close = depth.last, ch == close { depth.removeLast(); continue }
            if let pair = quotePairs.first(where: { $0.0 == ch }) { depth.append(pair.1); continue }
            if depth.isEmpty { outside.append(ch) }
        }
        guard outside.count < clause.count else { return false }
        let lower = outside.lowercased()
        return !keywords.contains { lower.contains($0.lowercased()) }
    }

    /// The first non-space character after `clause` in `text`.
    static func punctuation(after clause: String, in text: String) -> Character? {
        guard let at = text.firstRange(of: clause) else { return nil }
        return text[at.upperBound...].first { !$0.isWhitespace }
    }
}
