/// Normalization, the first step of recognition, in one place: full-width forms → ASCII (ＡＢＣ１２３ →
/// ABC123, the ideographic space → a space), then every language pack's rewrites (traditional →
/// simplified, numerals → digits, abbreviations), then English typos corrected by edit distance to the
/// words the registered skills declare (their keywords and examples) and the packs' own vocabulary
/// ("wether" → "weather", "calender" → "calendar", "remid" → "remind") — but not words the packs list
/// as common and spelled right ("could" is not "cold"). Case is kept (titles keep it); matching folds
/// case itself.
struct Normalizer: Sendable {
    /// Lower-cased words typos are corrected to, by length.
    let vocabulary: Set<String>
    private let byFirstLetter: [Character: [String]]

    init(vocabulary words: some Sequence<String>) {
        var set = Set<String>()
        for w in words where w.count >= 4 && w.allSatisfy({ $0.isLetter && $0.isASCII }) { set.insert(w.lowercased()) }
        vocabulary = set
        byFirstLetter = Dictionary(grouping: set, by: { $0.first! })
    }

    /// The words of what `catalog` declares (keywords, examples) and of the language packs.
    init(catalog: IntentCatalog) {
        var words: [String] = LanguagePacks.vocabulary
        for e in catalog.entries {
            for k in e.keywords.values.joined() { words += Self.latinWords(k) }
            for x in e.examples { words += Self.latinWords(x.text) }
        }
        self.init(vocabulary: words)
    }

    static func latinWords(_ s: String) -> [String] {
        s.lowercased().split { !($0.isLetter && $0.isASCII) }.map(String.init)
    }

    func normalize(_ text: String) -> String {
        let half = String(String.UnicodeScalarView(text.unicodeScalars.map { u in
            if (0xFF01...0xFF5E).contains(u.value) { return Unicode.Scalar(u.value - 0xFEE0)! }
            return u.value == 0x3000 ? " " : u
        }))
        return correctTypos(LanguagePacks.normalize(half))
    }

    /// Each ASCII word of 4+ letters that is not in the vocabulary, replaced by the vocabulary word of
    /// the same first letter at the smallest edit distance (transpositions count one), when that
    /// distance is 1 (2 for words of 7+ letters) and no other word is as close.
    func correctTypos(_ text: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            defer { word = "" }
            guard word.count >= 4, word.allSatisfy({ $0.isASCII && $0.isLetter }) else { out += word; return }
            let lower = word.lowercased()
            if vocabulary.contains(lower) || vocabulary.contains(TextMatching.stem(lower)) || LanguagePacks.commonWords.contains(lower) { out += word; return }
            let limit = lower.count >= 7 ? 2 : 1
            var best: (String, Int)? = nil, tie = false
            for candidate in byFirstLetter[lower.first!] ?? [] where abs(candidate.count - lower.count) <= limit {
                let d = Self.distance(lower, candidate, limit: limit)
                guard d <= limit else { continue }
                if best == nil || d < best!.1 { best = (candidate, d); tie = false } else if d == best!.1 { tie = true }
            }
            // A tie between forms of one word ("remind", "reminder" for "reminde") takes the shortest.
            if tie, let b = best {
                let tied = (byFirstLetter[lower.first!] ?? []).filter { abs($0.count - lower.count) <= limit && Self.distance(lower, $0, limit: limit) == b.1 }
                let stem = tied.min { $0.count < $1.count }!
                if stem.count >= 5, tied.allSatisfy({ $0.hasPrefix(stem) }) { best = (stem, b.1); tie = false }
            }
            if let best, !tie { out += best.0 } else { out += word }
        }
        for ch in text {
            if ch.isLetter || ch.isNumber { word.append(ch) } else { flush(); out.append(ch) }
        }
        flush()
        return out
    }

    /// Optimal string alignment distance (Damerau–Levenshtein without repeated edits), stopping early past `limit`.
    static func distance(_ a: String, _ b: String, limit: Int) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var prev2 = [Int](repeating: 0, count: y.count + 1)
        var prev = Array(0...y.count)
        var cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            cur[0] = i
            var rowMin = cur[0]
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { cur[j] = min(cur[j], prev2[j - 2] + 1) }
                rowMin = min(rowMin, cur[j])
            }
            if rowMin > limit { return limit + 1 }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[y.count]
    }
}
