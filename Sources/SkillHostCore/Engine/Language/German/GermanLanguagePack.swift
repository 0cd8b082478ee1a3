/// German, a small pack in one file: it shows what a language needs and that adding one is this file
/// plus its line in `LanguagePacks.all`. It claims text with German function words or letters (ä ö ü
/// ß), reads day words (heute, morgen, übermorgen, diese Woche, am Freitag), times ("um 15 Uhr",
/// "morgens"), polite openings, questions, negations and quotes, and answers in German. Skills teach
/// it their intents with "de" keywords and examples, as for any language.
struct GermanLanguagePack: LanguagePack {
    let code = "de"
    let locale = "de-DE"

    /// Words English does not use; two of them, or one with ä/ö/ü/ß, make a text German.
    static let markers: Set<String> = ["ich", "mich", "mir", "bitte", "heute", "morgen", "übermorgen", "nicht", "kein", "keine", "wie",
                                       "wann", "welche", "welcher", "und", "ist", "wird", "das", "der", "den", "dem", "ein", "eine",
                                       "einen", "uhr", "habe", "hab", "hast", "gibt", "woche", "montag", "dienstag", "mittwoch",
                                       "donnerstag", "freitag", "samstag", "sonntag", "erinnere", "gieß", "gieße", "zeig", "zeige", "mein", "meine"]

    func claims(_ text: String) -> Bool {
        let words = text.lowercased().split { !$0.isLetter }.map(String.init)
        let hits = words.filter(Self.markers.contains).count
        return hits >= 2 || (hits >= 1 && text.lowercased().contains { "äöüß".contains($0) })
    }

    func normalize(_ text: String) -> String { text }

    let clauseJoiners = [" und außerdem ", " außerdem ", " und dann "]

    let cues = DialogCues(
        polite: ["bitte", "kannst du", "könntest du", "würdest du"],
        politeAnywhere: false,
        questionStarts: ["was ", "welche", "wann ", "wo ", "wie ", "wer ", "warum ", "habe ich ", "hab ich ", "gibt es ", "ist ",
                         "sind ", "wird "],
        questionAnywhere: [],
        questionStrong: [],
        selfWords: ["mich", "mir", "uns"],
        questionEndings: [],
        negations: ["nicht", "kein ", "keine ", "keinen ", "niemals"],
        remember: ["vergiss nicht", "nicht vergessen"],
        carriers: ["übersetze", "übersetz", "was bedeutet"],
        mailHeaders: ["betreff:"])

    func days(in lower: String, today: CivilDate) -> [DayMention] {
        guard claims(lower) else { return [] }
        var out: [DayMention] = []
        for m in lower.matches(of: Self.dayWords) {
            let offset = ["heute": 0, "morgen": 1, "übermorgen": 2][String(m.output.1)] ?? -1
            out.append(DayMention(TimeExpressions.day(offset, from: today), m.output.0))
        }
        for m in lower.matches(of: Self.weekWords) {
            let range = m.output.hasPrefix("diese") ? TimeExpressions.thisWeek(today)
                : m.output.hasPrefix("nächste") ? TimeExpressions.nextWeek(today) : TimeExpressions.weekend(today)
            out.append(DayMention(range, m.output))
        }
        for m in lower.matches(of: Self.weekday) {
            let names = ["montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"]
            guard let wd = names.firstIndex(of: String(m.output.2)) else { continue }
            out.append(DayMention(TimeExpressions.weekday(wd + 1, from: today, nextWeek: m.output.1 != nil), m.output.0))
        }
        return out
    }

    func clockTime(in lower: String) -> TimeOfDay? {
        guard lower.contains("uhr"), let m = lower.firstMatch(of: Self.clock), let h = Int(m.output.1), h < 24 else { return nil }
        return TimeOfDay(hour: h, minute: m.output.2.flatMap { Int($0) } ?? 0, phrase: String(m.output.0))
    }

    func partOfDay(in lower: String) -> TimeOfDay? {
        guard claims(lower), let m = lower.firstMatch(of: Self.partOfDay) else { return nil }
        let (h, mi) = ["morgens": (9, 0), "vormittags": (9, 0), "mittags": (12, 0), "nachmittags": (15, 0)][String(m.output.1)] ?? (19, 0)
        return TimeOfDay(hour: h, minute: mi, phrase: String(m.output.0))
    }

    nonisolated(unsafe) static let dayWords: Regex<(Substring, Substring)> = #/\b(übermorgen|heute|morgen|gestern)\b/#
    nonisolated(unsafe) static let weekWords: Regex<Substring> = #/diese woche|nächste woche|am wochenende|\bwochenende\b/#
    nonisolated(unsafe) static let weekday: Regex<(Substring, Substring?, Substring)> = #/(nächsten? )?\b(montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)\b/#
    nonisolated(unsafe) static let clock: Regex<(Substring, Substring, Substring?)> = #/\bum ([0-9]{1,2})(?:[:.]([0-9]{2}))? ?uhr\b/#
    nonisolated(unsafe) static let partOfDay: Regex<(Substring, Substring)> = #/\b(morgens|vormittags|mittags|nachmittags|abends|heute abend)\b/#

    let titleLeading = ["bitte ", "mich ", "daran, ", "daran ", "zu "]
    let titleTrailing = [" zu", " bitte"]

    let sentences: any EngineSentences = Sentences()

    /// The engine's own sentences in German.
    struct Sentences: EngineSentences {
        func needs(skill: String, fields: [(name: String, description: String?)]) -> String {
            let list = fields.map { "„\($0.name)“" + ($0.description.map { " (\($0))" } ?? "") }.joined(separator: ", ")
            return "Das kann ich (\(skill)), aber ich brauche noch \(list). Bitte sag es noch einmal mit dieser Angabe."
        }
        func allFailed(_ notes: [String]) -> String { notes.joined(separator: "; ") + "." }
        func someFailed(_ notes: [String]) -> String { notes.joined(separator: "; ") + "; hier ist der Rest:" }
        func done(intent: String) -> String { "\(intent) ist erledigt." }
        func notRun(intent: String, reason: String) -> String { "(\(intent) nicht ausgeführt: \(reason))" }
        func unavailable(_ what: String) -> String { "Ich konnte \(what) nicht erreichen" }
        func timedOut(_ what: String) -> String { "\(what) hat zu lange gebraucht" }
        func refusedInput(_ what: String, message: String) -> String { "\(what) konnte die Anfrage nicht annehmen: \(message)" }
        func denied(_ what: String, message: String) -> String { "Ich darf \(what) nicht benutzen: \(message)" }
        func failed(_ what: String, message: String) -> String { "\(what) ist fehlgeschlagen: \(message)" }
        func notLearned(abilities: [String]) -> String {
            abilities.isEmpty ? "Das habe ich leider noch nicht gelernt, und es sind keine Skills installiert."
                : "Das habe ich leider noch nicht gelernt. Das kann ich:\n" + abilities.map { "  • " + $0 }.joined(separator: "\n")
        }
        let cancelled = "Abgebrochen."
        func nothingCalled(_ reference: String) -> String { "Ich habe nichts namens „\(reference)“ gefunden; bitte nenne es so, wie es aufgeführt ist." }
        func severalMatch(_ reference: String, labels: [String]) -> String {
            "Mehrere passen zu „\(reference)“: \(labels.map { "„\($0)“" }.joined(separator: ", ")). Welches meinst du?"
        }
        func didYouMean(example: String, skill: String, intent: String) -> String {
            "Meinst du etwas wie „\(example)“ (\(skill), \(intent))? Bitte sag etwas mehr."
        }
        func sayItAsARequest(example: String) -> String { " Wenn du das willst, sag es als Bitte, z. B. „\(example)“." }
        func readsAsQuestion(_ description: String) -> String { "Das klingt nach einer Frage, also habe ich nichts ausgeführt („\(description)“)." }
        func saidNotTo(learned: Bool) -> String { "Du hast gesagt, ich soll es nicht tun, also habe ich nichts geändert." }
        let quotedText = "Das sieht nach zitiertem oder eingefügtem Text aus; Anweisungen darin führe ich nicht aus, nichts wurde geändert."
        let notLearnedToDo = "Das habe ich noch nicht gelernt, also habe ich nichts geändert."
        func unsure(_ description: String, percent: Int) -> String {
            "Ich bin nicht sicher, ob du „\(description)“ wolltest (Sicherheit \(percent) %), also habe ich es nicht getan."
        }
        func noIdentifierFromText(_ field: String) -> String { "„\(field)“ nehme ich nicht aus freiem Text; lass sie dir zuerst auflisten und nenne dann eines." }
    }
}
