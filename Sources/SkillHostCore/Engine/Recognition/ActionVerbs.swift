/// "None" for requests to do what no intent does: a clause led by an action verb ("add a meeting",
/// "send an email", "帮我加个会", "给老板发封邮件") is not for an intent whose own examples never use that
/// verb — the calendar's examples list and look, they do not add. The verbs come from the language
/// packs; what an intent does comes from what its skill declares, so a skill whose examples say
/// "Add a todo: buy milk" is reachable by "add a todo".
enum ActionVerbs {
    static let spaced = LanguagePacks.actionVerbs.filter { !TextMatching.hasCJK($0) }.map { TextMatching.stem($0.lowercased()) }
    static let unspaced = LanguagePacks.actionVerbs.filter { TextMatching.hasCJK($0) }
    static let unspacedSet = Set(unspaced)
    static let spacedSet = Set(spaced)
    static let longestUnspaced = unspaced.map(\.count).max() ?? 0
    /// Openings before the verb that leads a clause ("please", "can you", "i want to").
    static let openers: [[String]] = (LanguagePacks.cues.flatMap(\.polite) + LanguagePacks.verbOpeners)
        .filter { !TextMatching.hasCJK($0) }.map { TextMatching.words($0) }.sorted { $0.count > $1.count }
    /// Words after a verb-looking head that show it is a noun ("schedule for friday", "schedule today").
    static let nounFollowers = LanguagePacks.nounFollowers

    /// The action verbs `examples` (normalized) use: the verb that leads one ("Set a reminder…"),
    /// any of the verbs written without spaces it contains ("把…标记为完成").
    static func used(in examples: [String]) -> Set<String> {
        var out = Set<String>()
        for e in examples {
            let lower = e.lowercased()
            if let head = head(of: TextMatching.words(lower)), spacedSet.contains(head) { out.insert(head) }
            // Unspaced verbs: every run of characters as long as one, looked up (cheaper than a search per verb).
            guard TextMatching.hasCJK(lower) else { continue }
            let chars = Array(lower)
            for i in chars.indices {
                for n in 1...max(longestUnspaced, 1) where i + n <= chars.count {
                    let run = String(chars[i..<i + n])
                    if unspacedSet.contains(run) { out.insert(run) }
                }
            }
        }
        return out
    }

    /// The first word after the openings.
    static func head(of words: [String]) -> String? { strip(words).first }

    static func strip(_ words: [String]) -> ArraySlice<String> {
        var rest = words[...]
        var stripped = true
        while stripped {
            stripped = false
            for o in openers where !o.isEmpty && rest.starts(with: o) {
                rest = rest.dropFirst(o.count)
                stripped = true
            }
        }
        return rest
    }

    /// What a clause's verbs say, worked out once per clause and asked per intent.
    struct Clause {
        /// The verb that leads the clause, when it is an action verb used as one.
        let head: String?
        /// The unspaced verbs in the clause, with where they are and whether an object marker (把) comes before.
        let unspacedVerbs: [(verb: String, at: String.Index, afterBa: Bool)]
        let clause: String

        /// `clause` lower-cased, `words` its words.
        init(_ clause: String, words: [String]) {
            self.clause = clause
            let rest = strip(words)
            if let h = rest.first, spaced.contains(h), let next = rest.dropFirst().first, !nounFollowers.contains(next) { head = h } else { head = nil }
            unspacedVerbs = unspaced.compactMap { v in
                clause.firstRange(of: v).map { at in (v, at.lowerBound, LanguagePacks.objectMarkers.contains { clause[..<at.lowerBound].contains($0) }) }
            }
        }

        /// Whether the clause asks for something an intent that uses only `verbsOfIntent` does not
        /// do. `matched`: the intent's keywords found in the clause (an unspaced verb counts when it
        /// comes before the first of them, or after an object marker).
        func asksForSomethingElse(matched: [String], verbsOfIntent: Set<String>) -> Bool {
            if let head, !verbsOfIntent.contains(head) { return true }
            guard !unspacedVerbs.isEmpty else { return false }
            let firstHit = matched.filter { TextMatching.hasCJK($0) }.compactMap { clause.firstRange(of: $0)?.lowerBound }.min()
            return unspacedVerbs.contains { v in
                !verbsOfIntent.contains(v.verb) && (firstHit.map { v.at < $0 } ?? true || v.afterBa)
            }
        }
    }
}
