/// What a clause of a request does: asks to have something done, asks a question, says not to, or
/// only carries text (quoted, pasted, to be translated). Only a command may lead to a write (see
/// `WriteGuard`). Rules over the language packs' cue words (`DialogCues`), not a model: they err
/// towards "not a command", which costs a question back, never a write the person did not ask for.
enum DialogAct: String, Sendable {
    case command, question, negated, quoted

    /// The act of `clause`, a part of `text` (the whole request, which decides about quotes, pasted
    /// content and the punctuation after the clause); `keywords` are what made the intent match.
    static func of(_ clause: String, in text: String, keywords: [String] = []) -> DialogAct {
        if carriesText(text) || isQuoted(clause, in: text) || onlyQuoted(keywords, in: clause) { return .quoted }
        let lower = clause.lowercased()
        let question = isQuestion(lower, followedBy: punctuation(after: clause, in: text))
        // A negation inside a question for items asks about them ("还有哪些待办没完成？", "which are not done yet?").
        if isNegated(lower) && !(question && cues.flatMap(\.questionStrong).contains(where: lower.contains)) { return .negated }
        return question ? .question : .command
    }

    // MARK: - Rules (cue words from the language packs)

    static let cues = LanguagePacks.cues

    static func isNegated(_ lower: String) -> Bool {
        var rest = lower
        for phrase in cues.flatMap(\.remember) { rest = rest.replacing(phrase, with: " ") }
        rest = LanguagePacks.removingNonNegations(rest)
        return cues.flatMap(\.negations).contains { rest.contains($0) }
    }

    static func isQuestion(_ lower: String, followedBy mark: Character?) -> Bool {
        let trimmed = lower.trimmingWhitespace()
        let polite = cues.contains { c in c.polite.contains { c.politeAnywhere ? trimmed.contains($0) : trimmed.hasPrefix($0) } }
        // Question words anywhere make a question even after a polite opening, unless the opening
        // asks for something: only the strongest words (`questionStrong`) then.
        let strong = cues.flatMap(\.questionStrong)
        if cues.flatMap(\.questionAnywhere).contains(where: { trimmed.contains($0) }) && !(polite && !strong.contains(where: { trimmed.contains($0) })) { return true }
        if cues.flatMap(\.questionStarts).contains(where: { trimmed.hasPrefix($0) }) { return true }
        if endsAsQuestion(trimmed, mark) { return !(polite && aboutSelf(trimmed)) }
        return false
    }

    static func endsAsQuestion(_ trimmed: String, _ mark: Character?) -> Bool {
        mark == "?" || mark == "？" || cues.flatMap(\.questionEndings).contains(where: { trimmed.hasSuffix($0) })
    }

    /// Whether the clause is about the speaker: it names them, and no one else before them ("remind me
    /// to call my friend" is; "remind a friend for me" is not).
    static func aboutSelf(_ lower: String) -> Bool {
        guard let me = mentions(cues.flatMap(\.selfWords), in: lower) else { return false }
        return mentions(cues.flatMap(\.otherPeople), in: lower).map { $0 > me } ?? true
    }

    /// Where the first of `words` is in `lower` (as a substring for unspaced words, as whole words for the others), or nil.
    static func mentions(_ words: [String], in lower: String) -> Int? {
        let tokens = lower.split { !$0.isLetter && $0 != "'" }
        return words.compactMap { w -> Int? in
            if TextMatching.hasCJK(w) { return lower.firstRange(of: w).map { lower.distance(from: lower.startIndex, to: $0.lowerBound) } }
            let parts = w.split(separator: " ")
            guard parts.count <= tokens.count else { return nil }
            for i in 0...(tokens.count - parts.count) where tokens[i..<i + parts.count].elementsEqual(parts) {
                return lower.distance(from: lower.startIndex, to: tokens[i].startIndex)
            }
            return nil
        }.min()
    }

    /// Whether a question asks how, why or whether something can be done rather than for items: "how do
    /// reminders work?", "why didn't you remind me?", "can reminders repeat?", "提醒能重复吗？", "can you
    /// remind people by email?" (a polite question not about the speaker).
    static func asksAboutAbility(_ clause: String, in text: String) -> Bool {
        let lower = clause.lowercased().trimmingWhitespace()
        let spaced = { (w: String) in TextMatching.hasCJK(w) ? lower.contains(w) : lower.hasPrefix(w) }
        if asksHowOrWhy(clause) { return true }
        guard endsAsQuestion(lower, punctuation(after: clause, in: text)), !aboutSelf(lower) else { return false }
        let polite = cues.contains { c in c.polite.contains { c.politeAnywhere ? lower.contains($0) : lower.hasPrefix($0) } }
        return polite || cues.flatMap(\.modals).contains(where: spaced) || mentions(cues.flatMap(\.otherPeople), in: lower) != nil
    }

    /// Whether the clause asks how or why something works ("how do reminders work?", "提醒功能怎么用？",
    /// "why didn't you remind me?"): the language packs' `abilityQuestions`.
    static func asksHowOrWhy(_ clause: String) -> Bool {
        let lower = clause.lowercased().trimmingWhitespace()
        return cues.flatMap(\.abilityQuestions).contains { cue in
            let parts = cue.split(separator: "…").map { String($0).trimmingWhitespace() }
            guard parts.count > 1, let head = parts.first else { return TextMatching.hasCJK(cue) ? lower.contains(cue) : lower.hasPrefix(cue) }
            return (TextMatching.hasCJK(cue) ? lower.contains(head) : lower.hasPrefix(head + " ")) && parts.dropFirst().allSatisfy { lower.contains(" " + $0) }
        }
    }

    /// A polite opening and a question mark or ending ("can you remind me?", "你能提醒我吗？").
    static func isPoliteQuestion(_ clause: String, in text: String) -> Bool {
        let lower = clause.lowercased().trimmingWhitespace()
        let polite = cues.contains { c in c.polite.contains { c.politeAnywhere ? lower.contains($0) : lower.hasPrefix($0) } }
            || cues.flatMap(\.modals).contains { TextMatching.hasCJK($0) ? lower.contains($0) : lower.hasPrefix($0) }
        return polite && endsAsQuestion(lower, punctuation(after: clause, in: text))
    }

    /// Text to translate or summarize, pasted mail, an instruction to ignore instructions, several
    /// lines: content the person handed over, not requests of theirs.
    static func carriesText(_ text: String) -> Bool {
        let lower = text.lowercased()
        if cues.flatMap(\.carriers).contains(where: { lower.contains($0) }) { return true }
        let lines = text.split(separator: "\n").filter { !String($0).trimmingWhitespace().isEmpty }
        if lines.count >= 3 { return true }
        return cues.flatMap(\.mailHeaders).filter { lower.contains($0) }.count >= 2
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
