import SkillHostCore

/// "Did you mean": the nearest of a list of names by edit distance.
enum Suggest {
    /// The candidate closest to `word` (Levenshtein distance, ties to the first), when it is close
    /// enough to be a typo: at most 2 edits and at most half the word's length; or when `word`
    /// is a prefix of exactly one candidate (`--js` → `--json`).
    static func nearest(_ word: String, in candidates: [String]) -> String? {
        let prefixed = candidates.filter { $0.hasPrefix(word) }
        if word.count >= 3, prefixed.count == 1 { return prefixed[0] }
        var best: (name: String, distance: Int)?
        for c in candidates {
            let d = editDistance(word, c)
            if d < (best?.distance ?? Int.max) { best = (c, d) }
        }
        guard let best, best.distance <= max(1, min(2, word.count / 2)) else { return nil }
        return best.name
    }
}
