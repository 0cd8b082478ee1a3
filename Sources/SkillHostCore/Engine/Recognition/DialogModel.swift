import Glibc

/// The learned half of dialog acts: logistic regression over character 1–3-grams of a clause, trained
/// by `scripts/train_dialog.py` (`make train-dialog`) on the corpus this project ships
/// (`Data/dialog/corpus.jsonl`, Chinese and English) and read from the generated `DialogModelWeights`.
/// Scoring is plain Swift; nothing is downloaded and no Python runs.
///
/// Safety contract: the model may only make writes SAFER. `WriteGuard` asks it only about a clause the
/// rules (`DialogAct`) call a command, and only an answer that is not `command`, given with at least
/// `threshold` probability, is used — to hold the write back. It never turns a question, negation or
/// quoted text into a command, so it cannot unlock a write the rules block.
struct DialogModel: Sendable {
    /// The classes the model tells apart; `outOfScope` asks for something no skill does.
    enum Label: String, CaseIterable, Sendable {
        case command, question, negated, quoted
        case outOfScope = "out_of_scope"
    }

    /// Probability an answer other than `command` needs before it holds a write back.
    static let threshold = 0.9

    /// The model shipped in the repository.
    static let shipped = DialogModel(table: DialogModelWeights.table, labels: DialogModelWeights.labels, bias: DialogModelWeights.bias)

    let labels: [Label]
    let bias: [Double]
    let weights: [String: [Double]]

    /// Parses the generated table (one feature a line: n-gram, tab, one weight per label). The table is
    /// generated and checked in, so a malformed one is a build mistake: it stops the program naming it.
    init(table: String, labels: [String], bias: [Double]) {
        self.labels = labels.map { name in
            guard let label = Label(rawValue: name) else { fatalError("DialogModelWeights.labels: unknown label “\(name)”; run `make train-dialog`") }
            return label
        }
        self.bias = bias
        var weights: [String: [Double]] = [:]
        for line in table.split(separator: "\n", omittingEmptySubsequences: true) {
            let parts = line.split(separator: "\t", maxSplits: 1)
            let values = parts.count == 2 ? parts[1].split(separator: " ").compactMap { Double($0) } : []
            guard values.count == labels.count else { fatalError("DialogModelWeights.table: expected “n-gram<TAB>\(labels.count) weights”, found “\(line)”; run `make train-dialog`") }
            weights[String(parts[0])] = values
        }
        self.weights = weights
    }

    /// The set of character 1–3-grams of the lowercased clause, whitespace collapsed, with ^ and $ at
    /// its ends — the same as `features` in scripts/train_dialog.py (Unicode scalars, as Python counts).
    static func features(_ clause: String) -> Set<String> {
        let collapsed = clause.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let scalars = Array(("^" + collapsed + "$").unicodeScalars)
        var out = Set<String>()
        for n in 1...3 where scalars.count >= n {
            for i in 0...(scalars.count - n) {
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars[i..<(i + n)])
                out.insert(String(s))
            }
        }
        return out
    }

    /// The probability of each label for `clause` (softmax of bias plus feature weights).
    func probabilities(_ clause: String) -> [Label: Double] {
        var score = bias
        for f in Self.features(clause) {
            guard let w = weights[f] else { continue }
            for k in score.indices { score[k] += w[k] }
        }
        let top = score.max() ?? 0
        let e = score.map { exp($0 - top) }
        let sum = e.reduce(0, +)
        return Dictionary(uniqueKeysWithValues: zip(labels, e.map { $0 / sum }))
    }

    /// The most probable label of `clause` and its probability.
    func classify(_ clause: String) -> (label: Label, probability: Double) {
        let p = probabilities(clause)
        let best = labels.max { p[$0, default: 0] < p[$1, default: 0] } ?? .command
        return (best, p[best, default: 0])
    }

    /// A label that holds back a write the rules would allow: not `command`, and at least `threshold`
    /// sure. Nil means the model does not object (the rules' answer stands).
    func objection(to clause: String) -> (label: Label, probability: Double)? {
        let (label, p) = classify(clause)
        return label != .command && p >= Self.threshold ? (label, p) : nil
    }
}
