/// Everything the engine knows about one human language, behind one protocol: how to normalize text
/// written in it, which words join two requests, the cue words of dialog acts, number and unit words,
/// relative time expressions, how places are named, and the request phrasing around a title. The rest
/// of the engine names no language: it asks every pack (`LanguagePacks.all`), so a third language is
/// one new file that conforms and one line in `LanguagePacks.all`.
protocol LanguagePack: Sendable {
    /// The BCP 47 primary language subtag ("zh", "en").
    var code: String { get }

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

    /// A time the text names relative to now ("in 3 hours", "3小时后", "月底", "next month", "12/5"),
    /// beyond the day words `TimeExpressions` knows.
    func relativeTime(in text: String, now: Int, zone: ZoneRules) -> TimeSpec?

    /// A place the text names ("weather in Tokyo", "东京天气"), as written, or nil.
    func place(in text: String, removing timePhrases: [String]) -> String?

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
    static let all: [any LanguagePack] = [ChineseLanguagePack(), EnglishLanguagePack()]

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
}
