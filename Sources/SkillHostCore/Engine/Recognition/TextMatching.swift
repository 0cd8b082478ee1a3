/// Small text tools for recognition: clause splitting, English word stems, Chinese bigrams, overlap.
enum TextMatching {
    /// True when `s` contains a CJK ideograph.
    static func hasCJK(_ s: some StringProtocol) -> Bool {
        s.unicodeScalars.contains(where: isCJK)
    }

    /// True for a CJK ideograph.
    static func isCJK(_ u: Unicode.Scalar) -> Bool { (0x4E00...0x9FFF).contains(u.value) || (0x3400...0x4DBF).contains(u.value) }

    /// A part of a request, and the text that joined it to the one before ("，", "顺便", " and ").
    struct Clause {
        var text: String
        var joiner: String
    }

    /// Splits a request into clauses at sentence punctuation and at words that join two requests
    /// (the language packs' `clauseJoiners`: "顺便", " and "). Clauses keep their text.
    static func clauses(_ text: String) -> [Clause] {
        var parts: [Clause] = []
        var current = "", joiner = ""
        let chars = Array(text)
        for (i, ch) in chars.enumerated() {
            // A point between digits is a decimal point ("1.5 pounds"), not the end of a sentence.
            let decimal = ch == "." && i > 0 && i + 1 < chars.count && chars[i - 1].isNumber && chars[i + 1].isNumber
            if "，,。.？?！!；;\n".contains(ch) && !decimal {
                parts.append(Clause(text: current, joiner: joiner))
                (current, joiner) = ("", String(ch))
            } else {
                current.append(ch)
            }
        }
        parts.append(Clause(text: current, joiner: joiner))
        for word in LanguagePacks.clauseJoiners {
            parts = parts.flatMap { c -> [Clause] in
                let pieces = split(c.text, at: word)
                return pieces.enumerated().map { Clause(text: $0.element, joiner: $0.offset == 0 ? c.joiner : word) }
            }
        }
        return parts.compactMap { c in
            let t = c.text.trimmingWhitespace()
            return t.isEmpty ? nil : Clause(text: t, joiner: c.joiner)
        }
    }

    /// `s` split at each case-insensitive occurrence of `joiner` (the joiner dropped).
    static func split(_ s: String, at joiner: String) -> [String] {
        let chars = Array(s), lower = Array(s.lowercased()), j = Array(joiner)
        guard lower.count == chars.count, j.count <= chars.count else { return [s] }
        var out: [String] = [], start = 0, i = 0
        while i + j.count <= lower.count {
            if Array(lower[i..<i + j.count]) == j {
                out.append(String(chars[start..<i]))
                i += j.count
                start = i
            } else {
                i += 1
            }
        }
        out.append(String(chars[start...]))
        return out
    }

    /// `s` with every case-insensitive occurrence of `phrase` replaced by a space.
    static func removing(_ phrase: String, from s: String) -> String {
        let parts = split(s, at: phrase.lowercased())
        return parts.joined(separator: " ")
    }

    /// Every pack's words too common to say what a request is about.
    static let stopwords = LanguagePacks.stopwords

    /// Lower-cased words with a plain stem (meetings → meeting, reminders → reminder).
    static func words(_ s: String) -> [String] {
        s.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map { stem(String($0)) }
    }

    static func stem(_ w: String) -> String {
        var w = w
        if w.hasSuffix("'s") { w.removeLast(2) }
        if w.count > 4, w.hasSuffix("ies") { return String(w.dropLast(3)) + "y" }
        if w.count > 3, w.hasSuffix("s"), !w.hasSuffix("ss") { w.removeLast() }
        return w
    }

    /// Whether `keyword` occurs in the clause: as a substring for Chinese, as a run of whole words
    /// (stemmed) for other languages.
    static func contains(clause: String, clauseWords: [String], keyword: String) -> Bool {
        hasCJK(keyword) ? clause.contains(keyword) : contains(clauseWords: clauseWords, keywordWords: words(keyword))
    }

    /// Whether the words `k` occur in a row in `clauseWords`.
    static func contains(clauseWords: [String], keywordWords k: [String]) -> Bool {
        guard !k.isEmpty, k.count <= clauseWords.count else { return false }
        for i in 0...(clauseWords.count - k.count) where clauseWords[i] == k[0] && clauseWords[i..<i + k.count].elementsEqual(k) { return true }
        return false
    }

    /// Dice similarity of two texts: over character bigrams when either is Chinese, else over content words.
    static func similarity(_ a: String, _ b: String) -> Double {
        let x: [String], y: [String]
        if hasCJK(a) || hasCJK(b) {
            x = bigrams(a); y = bigrams(b)
        } else {
            x = words(a).filter { !stopwords.contains($0) }; y = words(b).filter { !stopwords.contains($0) }
        }
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        var pool = Dictionary(y.map { ($0, 1) }, uniquingKeysWith: +)
        var common = 0
        for t in x where (pool[t] ?? 0) > 0 { common += 1; pool[t]! -= 1 }
        return 2 * Double(common) / Double(x.count + y.count)
    }

    static func bigrams(_ s: String) -> [String] {
        let chars = Array(s.lowercased().filter { !$0.isWhitespace && !$0.isPunctuation && !"？！，。".contains($0) })
        guard chars.count > 1 else { return chars.map(String.init) }
        return (0..<(chars.count - 1)).map { String(chars[$0...$0 + 1]) }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace || f == "，" || f == "、" { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
