/// The built-in recognizer: normalizes the request (`Normalizer`: full-width, traditional → simplified,
/// numerals, typos), splits it into clauses, and scores each clause against what every skill declares
/// for its intents, in any language: keyword hits (Chinese by substring, other languages by whole,
/// lightly stemmed words; longer keywords weigh more) combined with an `IntentModel` learned from the
/// keywords and examples (character n-grams, so Chinese needs no segmentation):
/// 1 − (1 − keywords)(1 − 0.9 · similarity).
///
/// "None" is an outcome: an intent is out of the running for a clause led by an action verb its own
/// examples never use ("add a meeting", "send an email", "帮我加个会": the calendar lists, it does not
/// add), and nothing is taken below `threshold`. The best intent of each domain is taken when its
/// confidence reaches `threshold`; for a question, the domain's best read-only intent is preferred to
/// one that changes something ("which reminders did I set?" lists them) — unless its keywords are part
/// of what a better intent of the clause is about (the title of a reminder); a clause that names no
/// intent is read as part of the one before ("remind me to send the invoice and the report"). A clause
/// without a time expression uses the previous clause's ("what meetings do I have tomorrow, and will it
/// rain?"). The same intent asked twice is asked once. With nothing above the threshold but something
/// close (≥ `questionThreshold`), the answer is a question ("Did you mean …?"), not a guess.
public struct KeywordRecognizer: IntentRecognizer {
    public var threshold = 0.5
    public var questionThreshold = 0.3

    public init(threshold: Double = 0.5) { self.threshold = threshold }

    struct Scored {
        var entry: IntentCatalog.Entry
        var confidence: Double
        var matched: [String]
        /// For a reader standing in for a write in a question: what the write would have been about
        /// ("did you create a reminder for the meeting?": "for the meeting" is not a calendar question).
        var about: String? = nil
    }

    public func recognize(_ request: AgentRequest, catalog: IntentCatalog, defaults: [String: JSONObject]) -> Recognition {
        let model = IntentModel.model(for: catalog)
        let text = model.normalizer.normalize(request.text)
        // Clauses, each with its best intent; clauses naming none join the clause before.
        var parts: [(clause: String, picks: [Scored])] = []
        var nearMiss: Scored? = nil
        // A question about what the skills can do ("how do reminders work?"): answered by what the
        // engine can do, not by a guess.
        var askedAboutAbility = false
        for c in TextMatching.clauses(text) {
            let scored = score(c.text, catalog, model: model)
            let act = DialogAct.of(c.text, in: text)
            // The best intent of each domain ("calendar", "weather") that reaches the threshold, best
            // first. For a question about the items, the domain's read-only intent instead of one that
            // changes something ("which reminders did I set?" lists them, whatever the list's own
            // score); for a question about the ability ("how do reminders work?", "can reminders
            // repeat?"), nothing. A negated or quoted clause reads nothing; the domain's write is kept so
            // the write guard says why nothing changed.
            var picks: [Scored] = []
            let howOrWhy = act == .question && DialogAct.asksHowOrWhy(c.text)
            if howOrWhy { askedAboutAbility = true }
            candidates: for s in scored where !howOrWhy && s.confidence >= threshold && !picks.contains(where: { $0.entry.domain == s.entry.domain }) {
                let reads = s.entry.flags.contains(.readOnly)
                let sameDomain = scored.filter { $0.entry.domain == s.entry.domain }
                switch act {
                case .question where !reads:
                    if DialogAct.asksAboutAbility(c.text, in: text) {
                        // The whole clause is about that ability: no other skill's words in it count
                        // ("can you remind people by email?" is not a mail question).
                        askedAboutAbility = true
                        picks = []
                        break candidates
                    }
                    if var reader = sameDomain.first(where: { $0.entry.flags.contains(.readOnly) }) ?? Self.reader(for: s.entry, in: catalog) {
                        reader.confidence = max(reader.confidence, threshold)
                        // The write's keywords are the evidence for the reader ("did I set a reminder…").
                        reader.matched = s.matched
                        reader.about = ParameterFiller.title(from: c.text, removing: s.matched)
                        picks.append(reader)
                        continue
                    }
                case .negated, .quoted:
                    if reads {
                        if var writer = sameDomain.first(where: { !$0.entry.flags.contains(.readOnly) }) {
                            writer.confidence = max(writer.confidence, threshold)
                            picks.append(writer)
                        }
                        continue
                    }
                default: break
                }
                picks.append(s)
            }
            if !picks.isEmpty, let last = parts.indices.last, parts[last].picks.isEmpty {
                // What came before named nothing: it belongs to this clause ("I bought the milk, tick it off").
                parts[last].clause += c.joiner + c.text
                parts[last].picks = picks
            } else if !picks.isEmpty {
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
        var result = Recognition(text: text)
        var previousTime: TimeSpec? = nil
        for (clause, picks) in parts {
            let own = TimeExpressions.find(in: clause, now: request.now, zone: request.zone)
            let time = own ?? previousTime
            if own != nil { previousTime = own }
            var taken: [RecognizedIntent] = []
            var subjects: [String: String] = [:]
            for pick in picks {
                // A second intent of the clause needs evidence of its own: not only keywords the first
                // one matched too ("my todos" is not also mail's to-dos).
                let earlier = taken.flatMap(\.matched).map { $0.lowercased() }
                if !taken.isEmpty, pick.matched.allSatisfy({ m in earlier.contains { $0.contains(m.lowercased()) } }) { continue }
                let filled = ParameterFiller.fill(schema: pick.entry.inputSchema, clause: clause, time: time, matched: pick.matched,
                                                  topics: pick.entry.keywords.values.flatMap { $0 },
                                                  request: request, defaults: defaults[pick.entry.intent] ?? defaults[pick.entry.name])
                // A second intent of the clause needs something of its own in it: not every required
                // field missing ("how many meetings…" is not a unit conversion).
                let required = pick.entry.inputSchema["required"]?.arrayValue?.count ?? 0
                if !taken.isEmpty, required > 0, filled.missing.count == required { continue }
                // A polite question that names nothing to do asks whether it can be done ("你能提醒我吗？").
                if !pick.entry.flags.contains(.readOnly), required > 0, filled.missing.count == required,
                   DialogAct.isPoliteQuestion(clause, in: text) {
                    askedAboutAbility = true
                    continue
                }
                if let about = pick.about { subjects[pick.entry.intent] = about }
                taken.append(RecognizedIntent(intent: pick.entry.intent, skillID: pick.entry.skillID, confidence: pick.confidence,
                                              clause: clause, matched: pick.matched, parameters: filled.parameters,
                                              missing: filled.missing, assumptions: filled.assumptions))
            }
            // An intent whose keywords are all part of what another is about is not asked for ("remind
            // me to check my meeting notes": "meeting" is the reminder's title, not a calendar question).
            let kept = taken.filter { pick in
                pick.matched.isEmpty || !taken.contains { t in
                    t.intent != pick.intent && (t.parameters.map(\.value) + [subjects[t.intent].map(JSON.string) ?? .null]).contains { value in
                        guard let v = value.stringValue?.lowercased() else { return false }
                        let words = Set(TextMatching.words(v))
                        return pick.matched.allSatisfy { k in
                            TextMatching.hasCJK(k) ? v.contains(k) : TextMatching.words(k).allSatisfy(words.contains)
                        }
                    }
                }
            }
            for found in kept { merge(found, into: &result) }
        }
        if result.intents.isEmpty, let near = nearMiss, !askedAboutAbility {
            let example = near.entry.examples.first { $0.lang.hasPrefix(request.language) }?.text ?? near.entry.description
            result.questions.append(Clarification(intent: near.entry.intent, question: request.sentences.didYouMean(
                example: example, skill: near.entry.skillName, intent: near.entry.intent)))
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

    /// The read-only intent of `entry`'s skill and domain that needs no input (reminder.list for
    /// reminder.create), to answer a question about what `entry` does.
    static func reader(for entry: IntentCatalog.Entry, in catalog: IntentCatalog) -> Scored? {
        catalog.entries.first { e in
            e.skillID == entry.skillID && e.domain == entry.domain && e.flags.contains(.readOnly)
                && (e.inputSchema["required"]?.arrayValue ?? []).isEmpty
        }.map { Scored(entry: $0, confidence: 0, matched: []) }
    }

    /// Every intent's confidence for `clause` (normalized text), best first (ties: more keywords, then name).
    func score(_ clause: String, _ catalog: IntentCatalog, model: IntentModel) -> [Scored] {
        let lower = clause.lowercased()
        let words = TextMatching.words(lower)
        let similarity = model.similarities(clause)
        var scored: [Scored] = []
        let verbs = ActionVerbs.Clause(lower, words: words)
        for (i, entry) in catalog.entries.enumerated() {
            var kw = 0.0
            var matched: [String] = []
            for k in model.keywords[i] where k.weight > 0 && !matched.contains(k.text) {
                guard k.cjk ? lower.contains(k.lower) : TextMatching.contains(clauseWords: words, keywordWords: k.words) else { continue }
                matched.append(k.text)
                // Found only through its stem ("reminders" for "reminder"): it says a little less.
                let exact = k.cjk || lower.contains(k.lower)
                kw = 1 - (1 - kw) * (1 - k.weight * (exact ? 1 : 0.8))
            }
            if verbs.asksForSomethingElse(matched: matched, verbsOfIntent: model.verbs[i]) { continue }
            // An amount with a unit the intent's schema takes ("5 km", "3磅") says as much as a keyword.
            if model.takesQuantity[i], Quantities.fill(properties: entry.inputSchema["properties"]?.objectValue ?? JSONObject(),
                                                        required: Set((entry.inputSchema["required"]?.arrayValue ?? []).compactMap(\.stringValue)),
                                                        clause: clause).count > 0 {
                kw = 1 - (1 - kw) * 0.4
            }
            let confidence = 1 - (1 - kw) * (1 - 0.9 * similarity[i])
            // Below a twentieth an intent plays no part (near misses start at `questionThreshold`).
            if confidence >= 0.05 { scored.append(Scored(entry: entry, confidence: confidence, matched: matched)) }
        }
        return scored.sorted {
            if $0.confidence != $1.confidence { return $0.confidence > $1.confidence }
            if $0.matched.count != $1.matched.count { return $0.matched.count > $1.matched.count }
            return $0.entry.intent < $1.entry.intent
        }
    }

    /// How much one keyword says: longer ones more ("会议" more than "雨", "how many meetings" more than
    /// "busy"); a keyword that is only a common word ("to", "in") says nothing.
    static func weight(_ keyword: String) -> Double {
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
