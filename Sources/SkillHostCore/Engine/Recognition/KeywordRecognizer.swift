/// The built-in recognizer: matches each clause of a request against the keywords and examples every
/// skill declares for its intents, in any language — Chinese by substring (no word boundaries needed),
/// other languages by whole, lightly stemmed words.
///
/// Per clause, an intent's confidence combines its keyword hits (longer keywords weigh more) with the
/// best similarity to one of its examples: 1 − (1 − keywords)(1 − 0.6 · examples). The best intent of
/// each domain is taken when its confidence reaches `threshold` — unless its keywords are part of what
/// a better intent of the clause is about (the title of a reminder); a clause that names no intent is read as
/// part of the one before ("remind me to send the invoice and the report"). A clause without a time
/// expression uses the previous clause's ("what meetings do I have tomorrow, and will it rain?"). The
/// same intent asked twice is asked once. With nothing above the threshold but something close
/// (≥ `questionThreshold`), the answer is a question ("Did you mean …?"), not a guess.
public struct KeywordRecognizer: IntentRecognizer {
    public var threshold = 0.5
    public var questionThreshold = 0.3

    public init(threshold: Double = 0.5) { self.threshold = threshold }

    struct Scored {
        var entry: IntentCatalog.Entry
        var confidence: Double
        var matched: [String]
    }

    public func recognize(_ request: AgentRequest, catalog: IntentCatalog, defaults: [String: JSONObject]) -> Recognition {
        let text = TextMatching.normalize(request.text)
        // Clauses, each with its best intent; clauses naming none join the clause before.
        var parts: [(clause: String, picks: [Scored])] = []
        var nearMiss: Scored? = nil
        for c in TextMatching.clauses(text) {
            let scored = score(c.text, catalog)
            // The best intent of each domain ("calendar", "weather") that reaches the threshold, best first.
            var picks: [Scored] = []
            for s in scored where s.confidence >= threshold && !picks.contains(where: { $0.entry.domain == s.entry.domain }) {
                picks.append(s)
            }
            if !picks.isEmpty {
                parts.append((c.text, picks))
            } else {
                if let b = scored.first, b.confidence >= questionThreshold, b.confidence > nearMiss?.confidence ?? 0 { nearMiss = b }
                if let last = parts.indices.last {
                    parts[last].clause += c.joiner + c.text
                } else {
                    parts.append((c.text, []))
                }
            }
        }
        var result = Recognition()
        var previousTime: TimeSpec? = nil
        for (clause, picks) in parts {
            let own = TimeExpressions.find(in: clause, today: request.today)
            let time = own ?? previousTime
            if own != nil { previousTime = own }
            var taken: [RecognizedIntent] = []
            for pick in picks {
                // A second intent in the same clause only when its keywords are not part of what the
                // first one is about ("remind me to send the invoice": "invoice" is the reminder's title).
                let inside = taken.contains { t in
                    t.parameters.contains { m in
                        guard let v = m.value.stringValue?.lowercased() else { return false }
                        return pick.matched.allSatisfy { v.contains($0.lowercased()) }
                    }
                }
                if inside { continue }
                let filled = ParameterFiller.fill(schema: pick.entry.inputSchema, clause: clause, time: time, matched: pick.matched,
                                                  request: request, defaults: defaults[pick.entry.intent] ?? defaults[pick.entry.name])
                taken.append(RecognizedIntent(intent: pick.entry.intent, skillID: pick.entry.skillID, confidence: pick.confidence,
                                              clause: clause, matched: pick.matched, parameters: filled.parameters,
                                              missing: filled.missing, assumptions: filled.assumptions))
            }
            for found in taken { merge(found, into: &result) }
        }
        if result.intents.isEmpty, let near = nearMiss {
            let example = near.entry.examples.first { $0.lang.hasPrefix(request.language) }?.text ?? near.entry.description
            result.questions.append(Clarification(intent: near.entry.intent, question: request.language == "zh"
                ? "你是想让我做这个吗：“\(example)”？（\(near.entry.skillName)，\(near.entry.intent)）请说得更具体一些。"
                : "Did you mean something like “\(example)” (\(near.entry.skillName), \(near.entry.intent))? Please say a little more."))
        }
        return result
    }

    /// Adds `found`, or completes the same intent found in an earlier clause ("这两天的天气…要不要带伞"):
    /// one call, with the first clause's parameters completed by the later one's.
    func merge(_ found: RecognizedIntent, into result: inout Recognition) {
        guard let i = result.intents.firstIndex(where: { $0.intent == found.intent }) else {
            result.intents.append(found)
            return
        }
        for (k, v) in found.parameters where result.intents[i].parameters[k] == nil { result.intents[i].parameters[k] = v }
        result.intents[i].missing = result.intents[i].missing.filter { result.intents[i].parameters[$0] == nil }
        result.intents[i].confidence = max(result.intents[i].confidence, found.confidence)
        result.intents[i].matched += found.matched.filter { !result.intents[i].matched.contains($0) }
        result.intents[i].clause += " / " + found.clause
    }

    /// Every intent's confidence for `clause`, best first (ties: more keywords, then name).
    func score(_ clause: String, _ catalog: IntentCatalog) -> [Scored] {
        let lower = clause.lowercased()
        let words = TextMatching.words(lower)
        var scored: [Scored] = []
        for entry in catalog.entries {
            var kw = 0.0
            var matched: [String] = []
            for keyword in entry.keywords.values.joined() where !matched.contains(keyword) {
                guard weight(keyword) > 0, TextMatching.contains(clause: lower, clauseWords: words, keyword: keyword.lowercased()) else { continue }
                matched.append(keyword)
                kw = 1 - (1 - kw) * (1 - weight(keyword))
            }
            let ex = entry.examples.map { TextMatching.similarity(lower, $0.text) }.max() ?? 0
            let confidence = 1 - (1 - kw) * (1 - 0.6 * ex)
            if confidence > 0 { scored.append(Scored(entry: entry, confidence: confidence, matched: matched)) }
        }
        return scored.sorted {
            if $0.confidence != $1.confidence { return $0.confidence > $1.confidence }
            if $0.matched.count != $1.matched.count { return $0.matched.count > $1.matched.count }
            return $0.entry.intent < $1.entry.intent
        }
    }

    /// How much one keyword says: longer ones more ("会议" more than "雨", "how many meetings" more than
    /// "busy"); a keyword that is only a common word ("to", "in") says nothing.
    func weight(_ keyword: String) -> Double {
        if TextMatching.hasCJK(keyword) {
            switch keyword.count {
            case 1: return 0.45
            case 2: return 0.65
            default: return 0.8
            }
        }
        let words = TextMatching.words(keyword)
        if words.allSatisfy({ TextMatching.stopwords.contains($0) }) { return 0 }
        return words.count >= 2 ? 0.8 : 0.6
    }
}
