/// The engine's own sentences in English.
struct EnglishSentences: EngineSentences {
    func needs(skill: String, fields: [(name: String, description: String?)]) -> String {
        let list = fields.map { "“\($0.name)”" + ($0.description.map { " (\($0))" } ?? "") }.joined(separator: ", ")
        return "I can do that (\(skill)), but I need \(list). Please say it again with that."
    }
    func allFailed(_ notes: [String]) -> String { notes.joined(separator: "; ") + "." }
    func someFailed(_ notes: [String]) -> String { notes.joined(separator: "; ") + "; here is the rest:" }
    func done(intent: String) -> String { "\(intent) is done." }
    func notRun(intent: String, reason: String) -> String { "(\(intent) not run: \(reason))" }
    func unavailable(_ what: String) -> String { "I couldn't reach \(what)" }
    func timedOut(_ what: String) -> String { "\(what) took too long to answer" }
    func refusedInput(_ what: String, message: String) -> String { "\(what) could not take that request: \(message)" }
    func denied(_ what: String, message: String) -> String { "I may not use \(what): \(message)" }
    func failed(_ what: String, message: String) -> String { "\(what) failed: \(message)" }
    func notLearned(abilities: [String]) -> String {
        abilities.isEmpty ? "Sorry, I haven't learned that yet, and no skills are installed."
            : "Sorry, I haven't learned that yet. Here is what I can do:\n" + abilities.map { "  • " + $0 }.joined(separator: "\n")
    }
    let cancelled = "Cancelled."
    func nothingCalled(_ reference: String) -> String { "I found nothing called “\(reference)”; please name it as it is listed." }
    func severalMatch(_ reference: String, labels: [String]) -> String {
        "Several match “\(reference)”: \(labels.map { "“\($0)”" }.joined(separator: ", ")). Which one do you mean?"
    }
    func didYouMean(example: String, skill: String, intent: String) -> String {
        "Did you mean something like “\(example)” (\(skill), \(intent))? Please say a little more."
    }
    func sayItAsARequest(example: String) -> String { " If you want that, say it as a request, e.g. “\(example)”." }
    func readsAsQuestion(_ description: String) -> String { "That reads as a question, so I did not \(Self.lowerFirst(description))." }
    func saidNotTo(learned: Bool) -> String { learned ? "That sounds like you said not to, so I changed nothing." : "You said not to, so I changed nothing." }
    let quotedText = "That looks like quoted or pasted text; I do not act on instructions inside it, and changed nothing."
    let notLearnedToDo = "That sounds like something I have not learned to do, so I changed nothing."
    func unsure(_ description: String, percent: Int) -> String {
        "I am not sure you asked me to \(Self.lowerFirst(description)) (confidence \(percent) %), so I did not."
    }
    func noIdentifierFromText(_ field: String) -> String { "I do not take “\(field)” from free text; list them first and name the one you mean." }

    /// "Creates a reminder." → "creates a reminder" (to follow "I did not").
    static func lowerFirst(_ s: String) -> String {
        let t = s.hasSuffix(".") ? String(s.dropLast()) : s
        guard let f = t.first else { return t }
        return f.lowercased() + t.dropFirst()
    }
}
