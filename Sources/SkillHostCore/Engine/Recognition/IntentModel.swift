import Glibc
import Synchronization

/// Intent scoring learned from what skills declare: every keyword and example of every intent in the
/// catalog is a small document of features — character 1–3-grams of Chinese (no word segmentation
/// needed) and stemmed content words of other languages — weighted by TF-IDF over the catalog's
/// intents. A clause's similarity to an intent is the cosine to its nearest document, blended with the
/// cosine to the intent's centroid. Trained once per catalog (what is registered) and cached; a new
/// skill's examples teach it with no change to the host.
final class IntentModel: Sendable {
    typealias Vector = [Int: Double]

    struct Document: Sendable {
        var intent: Int
        var vector: Vector
    }

    /// Feature id by feature text.
    let vocabulary: [String: Int]
    let idf: [Double]
    let documents: [Document]
    /// Per feature: the documents that have it, with its weight there.
    let postings: [[(doc: Int, weight: Double)]]
    let centroids: [Vector]
    let intentCount: Int
    /// The request normalizer, with typos corrected to this catalog's words.
    let normalizer: Normalizer
    /// Per intent: the action verbs its examples use (see `ActionVerbs`).
    let verbs: [Set<String>]
    /// Per intent: its keywords, prepared for matching.
    let keywords: [[Keyword]]
    /// Per intent: whether its input takes an amount with a unit (see `Quantities`).
    let takesQuantity: [Bool]

    struct Keyword: Sendable {
        let text: String
        let lower: String
        let words: [String]
        let cjk: Bool
        let weight: Double
    }

    /// `texts`: per intent, its keywords and examples (normalized).
    init(texts: [[String]], normalizer: Normalizer, verbs: [Set<String>], keywords: [[Keyword]] = [], takesQuantity: [Bool] = []) {
        self.normalizer = normalizer
        self.verbs = verbs
        self.keywords = keywords
        self.takesQuantity = takesQuantity
        intentCount = texts.count
        var vocab: [String: Int] = [:]
        var raw: [(Int, [Int: Double])] = []
        var df: [Int: Int] = [:]
        for (i, docs) in texts.enumerated() {
            var seen = Set<Int>()
            for t in docs {
                var v: [Int: Double] = [:]
                for f in Self.features(t) {
                    let id = vocab[f] ?? { let n = vocab.count; vocab[f] = n; return n }()
                    v[id, default: 0] += 1
                    seen.insert(id)
                }
                if !v.isEmpty { raw.append((i, v)) }
            }
            for id in seen { df[id, default: 0] += 1 }
        }
        vocabulary = vocab
        let n = Double(max(texts.count, 1))
        var idf = [Double](repeating: 0, count: vocab.count)
        for (id, d) in df { idf[id] = log1p(n / Double(d)) }
        self.idf = idf
        var docs: [Document] = []
        var postings = [[(doc: Int, weight: Double)]](repeating: [], count: vocab.count)
        var sums = [Vector](repeating: [:], count: texts.count)
        for (intent, v) in raw {
            let w = Self.unit(v.reduce(into: Vector()) { $0[$1.key] = (1 + log($1.value)) * idf[$1.key] })
            for (id, x) in w {
                postings[id].append((docs.count, x))
                sums[intent][id, default: 0] += x
            }
            docs.append(Document(intent: intent, vector: w))
        }
        documents = docs
        self.postings = postings
        centroids = sums.map(Self.unit)
    }

    /// Per intent (by index in `texts`), the clause's similarity, 0–1.
    func similarities(_ text: String) -> [Double] {
        var q: Vector = [:]
        for f in Self.features(text) { if let id = vocabulary[f] { q[id, default: 0] += 1 } }
        let query = Self.unit(q.reduce(into: Vector()) { $0[$1.key] = (1 + log($1.value)) * idf[$1.key] })
        var best = [Double](repeating: 0, count: intentCount)
        var dots = [Double](repeating: 0, count: documents.count)
        var central = [Double](repeating: 0, count: intentCount)
        for (id, x) in query {
            for p in postings[id] { dots[p.doc] += x * p.weight }
        }
        for (i, d) in dots.enumerated() where d > best[documents[i].intent] { best[documents[i].intent] = d }
        for i in 0..<intentCount where best[i] > 0 {
            var s = 0.0
            for (id, x) in query { s += x * (centroids[i][id] ?? 0) }
            central[i] = s
        }
        return (0..<intentCount).map { min(1, 0.75 * best[$0] + 0.25 * central[$0]) }
    }

    static func unit(_ v: Vector) -> Vector {
        let norm = v.values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? v.mapValues { $0 / norm } : v
    }

    /// Character 1–3-grams of each run of CJK text (1-grams weigh less: they repeat across topics), and
    /// stemmed words of 2+ letters that are not stopwords elsewhere; digits become "#".
    static func features(_ text: String) -> [String] {
        var out: [String] = []
        var run: [Character] = []
        func flushRun() {
            guard !run.isEmpty else { return }
            for (i, c) in run.enumerated() {
                out.append("1" + String(c))
                if i + 1 < run.count { out.append("2" + String(run[i...i + 1])) }
                if i + 2 < run.count { out.append("3" + String(run[i...i + 2])) }
            }
            run = []
        }
        var word = ""
        func flushWord() {
            guard !word.isEmpty else { return }
            let w = TextMatching.stem(word)
            if w.count >= 2, !TextMatching.stopwords.contains(w) { out.append("w" + w) }
            word = ""
        }
        for ch in text.lowercased() {
            if ch.unicodeScalars.contains(where: TextMatching.isCJK) {
                flushWord()
                run.append(ch)
            } else if ch.isLetter || ch == "'" {
                flushRun()
                word.append(ch)
            } else if ch.isNumber {
                flushWord()
                run.append("#")
            } else {
                flushRun(); flushWord()
            }
        }
        flushRun(); flushWord()
        return out
    }

    // MARK: - One model per catalog

    private static let cache = Mutex<(key: Int, model: IntentModel)?>(nil)

    /// The model for `catalog`, trained on first use and kept while the same intents are registered.
    static func model(for catalog: IntentCatalog) -> IntentModel {
        var hasher = Hasher()
        for e in catalog.entries {
            hasher.combine(e.skillID); hasher.combine(e.intent); hasher.combine(e.examples.count); hasher.combine(e.keywords.count)
        }
        let key = hasher.finalize()
        if let hit = cache.withLock({ $0?.key == key ? $0?.model : nil }) { return hit }
        let examples = catalog.entries.map { e in e.examples.map { LanguagePacks.normalize($0.text) } }
        let keywords = catalog.entries.map { e in
            e.keywords.values.joined().map { k in
                Keyword(text: k, lower: k.lowercased(), words: TextMatching.words(k), cjk: TextMatching.hasCJK(k), weight: KeywordRecognizer.weight(k))
            }
        }
        let units = Set(LanguagePacks.unitWords.map(\.unit))
        let takesQuantity = catalog.entries.map { e in
            (e.inputSchema["properties"]?.objectValue ?? JSONObject()).contains { m in
                (m.value["enum"]?.arrayValue ?? []).contains { $0.stringValue.map(units.contains) ?? false }
            }
        }
        let model = IntentModel(texts: examples.indices.map { i in examples[i] + catalog.entries[i].keywords.values.joined().map(LanguagePacks.normalize) },
                                normalizer: Normalizer(catalog: catalog), verbs: examples.map(ActionVerbs.used(in:)),
                                keywords: keywords, takesQuantity: takesQuantity)
        cache.withLock { $0 = (key, model) }
        return model
    }
}
