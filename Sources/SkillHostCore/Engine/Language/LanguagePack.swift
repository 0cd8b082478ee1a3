/// Everything the engine knows about one human language, behind one protocol: how to normalize text
/// written in it, which words join two requests, the cue words of dialog acts, number and unit words,
/// day and time expressions, how places are named, the request phrasing around a title, and every
/// sentence the engine itself answers with (`sentences`). The rest of the engine names no language:
/// it asks every pack (`LanguagePacks.all`) or the request's own (`AgentRequest.pack`), so a third
/// language is one new file (or folder) that conforms and one line in `LanguagePacks.all`
/// (`Language/German/GermanLanguagePack.swift` is such a pack, in one file).
protocol LanguagePack: Sendable {
    /// The BCP 47 primary language subtag ("zh", "en").
    var code: String { get }
    /// The locale skills get for a request in this language when the caller names none ("zh-CN").
    var locale: String { get }

    /// Whether `text` is written in this language (decides the answer's language when the caller gives no locale).
    func claims(_ text: String) -> Bool

    /// Rewrites that make text in this language easier to match, applied to every request before
    /// anything else: script variants (traditional → simplified), numerals and number words before a
    /// unit or time word → digits ("三公里" → "3公里", "two liters" → "2 liters"), abbreviations and
    /// fixed phrasings → plain words ("tmrw" → "tomorrow", "明早" → "明天早上"). Must keep the text's meaning.
    func normalize(_ text: String) -> String

    /// Words that join two requests in one sentence ("顺便", " and ").
    var clauseJoiners: [String] { get }

    /// Cue words of dialog acts (see `DialogAct`).
    var cues: DialogCues { get }

    /// Unit words: the word, the unit symbol skills use (as in their schemas' enums), and the factor
    /// from the word's unit to that symbol ("斤" → "g" × 500).
    var unitWords: [UnitWord] { get }

    /// A time the text names relative to now ("in 3 hours", "3小时后", "月底", "next month"), beyond
    /// the days and times of day below.
    func relativeTime(in text: String, now: Int, zone: ZoneRules) -> TimeSpec?

    /// The days and ranges of days `lower` (lower-cased text) names in this language, resolved against
    /// `today`, in the order the pack looks for them: day words ("明天", "tomorrow"), ranges ("这两天",
    /// "the next 3 days"), weeks, weekdays, dates ("12月1日", "december 1"). `TimeExpressions` takes
    /// the first as the request's days and every phrase as said.
    func days(in lower: String, today: CivilDate) -> [DayMention]

    /// A time of day with a number ("下午3点", "3pm", "at 5"), or nil.
    func clockTime(in lower: String) -> TimeOfDay?

    /// A part of the day without a number ("中午", "in the evening", "tonight" → 20:00), or nil.
    func partOfDay(in lower: String) -> TimeOfDay?

    /// A place the text names ("weather in Tokyo", "东京天气"), as written, or nil. `topics`: the
    /// intent's keywords (a place may stand before one: "Tokyo weather"; none is a place itself).
    func place(in text: String, removing timePhrases: [String], topics: [String]) -> String?

    /// Request phrasing stripped from the start and end of a title ("me to ", "帮我"; " at", "吧").
    var titleLeading: [String] { get }
    var titleTrailing: [String] { get }

    /// Verbs that ask to have something done ("add", "send", "加", "发"): a clause led by one that an
    /// intent's own examples never use is asking for something that intent does not do.
    var actionVerbs: [String] { get }

    /// Words typo correction may correct to, besides what the skills declare (time words, …).
    var vocabulary: [String] { get }

    /// Words spelled right that typo correction leaves alone though they are close to a declared word
    /// ("could" is not "cold", "form" is not "from").
    var commonWords: [String] { get }

    /// Words too common to say what a request is about ("the", "please"), for matching by content words.
    var stopwords: [String] { get }

    /// Openings before the verb that leads a clause ("i want to", "let's"), besides the polite cues.
    var verbOpeners: [String] { get }

    /// Words after a verb-looking head that show it is a noun ("schedule for friday", "schedule today").
    var nounFollowers: [String] { get }

    /// Words that put the object before the verb (Chinese 把): a verb after one acts on what it names.
    var objectMarkers: [String] { get }

    /// `lower` without what looks like a negation but is not one (Chinese "要不要" asks whether).
    func removingNonNegations(_ lower: String) -> String

    /// Every sentence the engine says itself, in this language.
    var sentences: any EngineSentences { get }
}

/// What a pack may leave out: no extra vocabulary, stopwords, openers, markers.
extension LanguagePack {
    var vocabulary: [String] { [] }
    var commonWords: [String] { [] }
    var stopwords: [String] { [] }
    var verbOpeners: [String] { [] }
    var nounFollowers: [String] { [] }
    var objectMarkers: [String] { [] }
    var unitWords: [UnitWord] { [] }
    var actionVerbs: [String] { [] }
    func relativeTime(in text: String, now: Int, zone: ZoneRules) -> TimeSpec? { nil }
    func place(in text: String, removing timePhrases: [String], topics: [String]) -> String? { nil }
    func removingNonNegations(_ lower: String) -> String { lower }
}

/// A day or range of days a text names, and the words that said it.
struct DayMention: Sendable {
    var start: CivilDate
    var end: CivilDate
    var phrase: String
    init(_ range: (CivilDate, CivilDate), _ phrase: some StringProtocol) { (start, end, self.phrase) = (range.0, range.1, String(phrase)) }
}

/// A local time of day a text names, and the words that said it (nil: a default, e.g. "tonight" → 20:00).
struct TimeOfDay: Sendable {
    var hour: Int
    var minute: Int
    var phrase: String?
}

/// The sentences of the engine's own answers (`Synthesizer`, `WriteGuard`, the recognizer's and the
/// executor's questions back). Names of skills, intents and fields come in as arguments, already quoted
/// where the language quotes them.
protocol EngineSentences: Sendable {
    /// "I can do that (Reminders, reminder.create), but I need “title” (What to remember)…": `fields`
    /// are the missing inputs with their schema descriptions.
    func needs(skill: String, fields: [(name: String, description: String?)]) -> String
    /// Steps that failed (`notes`, from the methods below), when nothing else answered.
    func allFailed(_ notes: [String]) -> String
    /// Steps that failed, before the answers of the ones that did not.
    func someFailed(_ notes: [String]) -> String
    /// A step whose skill gave no message of its own.
    func done(intent: String) -> String
    /// A step that did not run, and why (the engine's reason, in English for traces).
    func notRun(intent: String, reason: String) -> String
    /// Why a step failed, per error kind; `what` is "Skill (intent)".
    func unavailable(_ what: String) -> String
    func timedOut(_ what: String) -> String
    func refusedInput(_ what: String, message: String) -> String
    func denied(_ what: String, message: String) -> String
    func failed(_ what: String, message: String) -> String
    /// "I haven't learned that yet", with one line per skill (`abilities`; empty: no skills at all).
    func notLearned(abilities: [String]) -> String
    /// Put before the answer of a cancelled request.
    var cancelled: String { get }
    /// A lookup found nothing like `reference`.
    func nothingCalled(_ reference: String) -> String
    /// A lookup found several items like `reference`.
    func severalMatch(_ reference: String, labels: [String]) -> String
    /// Nothing reached the threshold but this intent came close.
    func didYouMean(example: String, skill: String, intent: String) -> String
    /// How to ask for a write that was held back, with one of the intent's examples.
    func sayItAsARequest(example: String) -> String
    /// Why a write was held back: a question, a negation (`learned`: the dialog model heard one), quoted
    /// text, a request no skill serves, too little confidence, an identifier taken from free text.
    func readsAsQuestion(_ description: String) -> String
    func saidNotTo(learned: Bool) -> String
    var quotedText: String { get }
    var notLearnedToDo: String { get }
    func unsure(_ description: String, percent: Int) -> String
    func noIdentifierFromText(_ field: String) -> String
}

/// The cue words `DialogAct` reads, per language.
struct DialogCues: Sendable {
    /// Polite openings that make a question a request ("can you…", "能帮我…吗"). Matched at the start
    /// when `politeAnywhere` is false, anywhere when true.
    var polite: [String]
    var politeAnywhere: Bool
    /// Question words at the start of a clause ("what", "did") — `questionAnywhere`: anywhere ("哪些").
    var questionStarts: [String]
    var questionAnywhere: [String]
    /// Question words that make a question even after a polite opening ("帮我看看有哪些…" asks which).
    var questionStrong: [String]
    /// Words for the speaker ("me", "我"): a polite question is a request only when it is about them
    /// ("can you remind me…?" asks for a reminder, "can you remind people by email?" asks what you can do).
    var selfWords: [String]
    /// Words for other people ("a friend", "别人"): named before the speaker, the request is for them
    /// ("can you remind a friend for me?"), which no skill does for the speaker.
    var otherPeople: [String] = []
    /// Question words that ask how or why something works rather than for items ("how do … work",
    /// "为什么"), at the start of a clause for spaced languages, anywhere for the others; "…" stands for
    /// any words between.
    var abilityQuestions: [String] = []
    /// Modal verbs that, in a question not about the speaker, ask whether something can be done
    /// ("can reminders repeat?", "提醒能重复吗？"): at the start for spaced languages, anywhere else.
    var modals: [String] = []
    /// Endings that make a clause a question ("吗", "呢").
    var questionEndings: [String]
    /// Negations ("don't", "不用").
    var negations: [String]
    /// Negated "forget" that asks to remember ("don't forget", "别忘").
    var remember: [String]
    /// Words that make the rest of the request content to work on ("translate", "翻译").
    var carriers: [String]
    /// Header words of pasted mail ("from:", "发件人").
    var mailHeaders: [String]
}

/// A unit word of a language: `word` means `factor` × `unit`.
struct UnitWord: Sendable {
    var word: String
    var unit: String
    var factor: Double = 1
    init(_ word: String, _ unit: String, _ factor: Double = 1) { (self.word, self.unit, self.factor) = (word, unit, factor) }
}

/// The language packs the engine has.
enum LanguagePacks {
    /// Every pack, in the order they claim text; the last is the fallback. A new language: one line here.
    static let all: [any LanguagePack] = [
        ChineseLanguagePack(),
        GermanLanguagePack(),
        EnglishLanguagePack(),
    ]

    /// The pack for a BCP 47 tag's primary subtag, or nil.
    static func pack(for locale: String) -> (any LanguagePack)? {
        let primary = locale.lowercased().split(separator: "-").first.map(String.init) ?? ""
        return all.first { $0.code == primary }
    }

    /// The pack that claims `text` (the first that does), else the last one (the fallback).
    static func detect(_ text: String) -> any LanguagePack {
        all.first { $0.claims(text) } ?? all[all.count - 1]
    }

    /// Every pack's normalization, in order (each leaves text in other languages alone).
    static func normalize(_ text: String) -> String {
        all.reduce(text) { $1.normalize($0) }
    }

    static let cues: [DialogCues] = all.map(\.cues)
    static let unitWords: [UnitWord] = all.flatMap(\.unitWords)
    static let clauseJoiners: [String] = all.flatMap(\.clauseJoiners)
    static let titleLeading: [String] = all.flatMap(\.titleLeading)
    static let titleTrailing: [String] = all.flatMap(\.titleTrailing)
    static let actionVerbs: [String] = all.flatMap(\.actionVerbs)
    static let vocabulary: [String] = all.flatMap(\.vocabulary)
    static let commonWords: Set<String> = Set(all.flatMap(\.commonWords))
    static let stopwords: Set<String> = Set(all.flatMap(\.stopwords))
    static let verbOpeners: [String] = all.flatMap(\.verbOpeners)
    static let nounFollowers: Set<String> = Set(all.flatMap(\.nounFollowers))
    static let objectMarkers: [String] = all.flatMap(\.objectMarkers)

    /// `lower` without what any pack says only looks like a negation.
    static func removingNonNegations(_ lower: String) -> String { all.reduce(lower) { $1.removingNonNegations($0) } }
}
