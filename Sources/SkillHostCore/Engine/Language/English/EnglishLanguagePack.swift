/// English: abbreviations people type (tmrw, mtgs, wx, appt), number words before a unit or time word
/// as digits ("two liters" → "2 liters", "half a mile" → "0.5 mile"), relative times ("in 3 hours",
/// "end of the month", "next month"), places after in/at/for ("weather in Tokyo"), and the request
/// phrasing around titles ("remind me to … at 5").
struct EnglishLanguagePack: LanguagePack {
    let code = "en"
    let locale = "en-US"
    let sentences: any EngineSentences = EnglishSentences()

    func claims(_ text: String) -> Bool {
        !TextMatching.hasCJK(text) && text.unicodeScalars.contains { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
    }

    func normalize(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }) else { return text }
        var out = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            let lower = word.lowercased()
            out += Self.abbreviations[lower] ?? word
            word = ""
        }
        for ch in text {
            if ch.isLetter || (ch == "'" && !word.isEmpty) { word.append(ch) } else { flush(); out.append(ch) }
        }
        flush()
        // "me 2 call" → "me to call"; number words before a unit or a time word → digits (the
        // patterns run only when their words are there).
        let lower = out.lowercased()
        if lower.contains(" 2 ") { out = out.replacing(#/\b(me|you) 2 (?=[a-zA-Z])/#) { "\($0.output.1) to " } }
        if lower.contains("half") { out = out.replacing(#/\b[Hh]alf (?:an? )?(?=[a-zA-Z])/#) { _ in "0.5 " } }
        let words = Set(lower.split { !$0.isLetter })
        if Self.numbers.keys.contains(where: { words.contains(Substring($0)) }) || lower.contains("a couple of") {
            out = out.replacing(Self.numberWord) { m in
                (Self.numbers[m.output.1.lowercased()].map(String.init) ?? String(m.output.1)) + " "
            }
        }
        return out
    }

    static let abbreviations: [String: String] = [
        "tmrw": "tomorrow", "tmr": "tomorrow", "tmrow": "tomorrow", "tomoz": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow",
        "tonite": "tonight", "wknd": "weekend", "2nite": "tonight", "mtg": "meeting", "mtgs": "meetings", "appt": "appointment", "appts": "appointments",
        "cal": "calendar", "sched": "schedule", "wx": "weather", "temp": "temperature", "wk": "week", "rmd": "remind",
        "rmnd": "remind", "pls": "please", "plz": "please", "u": "you", "ur": "your", "remindme": "remind me", "msg": "message",
        "kilometres": "kilometers", "kilometre": "kilometer", "metres": "meters", "metre": "meter", "litres": "liters", "litre": "liter",
    ]

    static let numbers: [String: Int] = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                                         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                                         "forty": 40, "fifty": 50, "hundred": 100, "a couple of": 2]

    /// A number word followed by a unit or time word.
    nonisolated(unsafe) static let numberWord: Regex<(Substring, Substring)> =
        #/(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a couple of) (?=(?:hours?|minutes?|mins?|days?|weeks?|months?|miles?|kilometers?|km|meters?|feet|foot|inches|inch|yards?|pounds?|lbs?|ounces?|oz|kilograms?|kilos?|kg|grams?|liters?|gallons?|cups?|degrees?|celsius|fahrenheit)\b)/#

    let clauseJoiners = [" and ", " also ", " then ", " plus "]

    let cues = DialogCues(
        polite: ["can you", "could you", "would you", "will you", "please", "pls", "can u", "would u", "could u", "i need you to", "i'd like you to"],
        politeAnywhere: false,
        questionStarts: ["what", "which", "when", "where", "who", "why", "how", "did", "do i", "do you", "does", "have i", "has",
                         "is there", "are there", "is it", "are my", "any ", "was", "were", "should i", "shall i", "am i", "is my", "can i"],
        questionAnywhere: [],
        questionStrong: ["which ", "what "],
        selfWords: ["me", "us", "i"],
        otherPeople: ["people", "everyone", "everybody", "friend", "friends", "team", "colleague", "colleagues", "coworker", "boss",
                      "others", "someone", "somebody", "my wife", "my husband", "my kids", "my mom", "my dad", "him", "her", "them"],
        abilityQuestions: ["how do … work", "how does … work", "how to ", "how can i ", "how do i ", "how should i ", "why ",
                           "is it possible", "are you able", "do you know how"],
        modals: ["can ", "could ", "will it ", "would it ", "does it ", "do reminders ", "is there a way"],
        questionEndings: [],
        negations: ["don't", "dont", "do not", "doesn't", "no need", "not necessary", "never ", "no longer", "without ",
                    "stop reminding", "not remind", "not create", "not add", "not set", "no reminder", "not needed",
                    "forget it", "forget about", "never mind", "nevermind", "cancel that", "not done", "not finished", "don't have to",
                    "i'm not", "not yet"],
        remember: ["don't forget", "dont forget", "do not forget", "don't let me forget", "do not let me forget", "never forget"],
        carriers: ["translate", " mean?", "meaning of", "what do you think of", "summarize this", "summarise this", "proofread",
                   "ignore previous", "ignore all previous", "ignore the above", "forwarded message", "original message",
                   "the email says", "the mail says", "copy this", "he told me", "she told me", "wrote \"", "said \"",
                   "says:", "said:", "wrote:", "emailed:", "texted:"],
        mailHeaders: ["from:", "subject:", "to:"])

    let unitWords = [
        UnitWord("kilometers", "km"), UnitWord("kilometer", "km"), UnitWord("km", "km"), UnitWord("miles", "mi"), UnitWord("mile", "mi"),
        UnitWord("mi", "mi"), UnitWord("meters", "m"), UnitWord("meter", "m"), UnitWord("m", "m"), UnitWord("centimeters", "cm"),
        UnitWord("centimeter", "cm"), UnitWord("cm", "cm"), UnitWord("millimeters", "mm"), UnitWord("mm", "mm"), UnitWord("feet", "ft"),
        UnitWord("foot", "ft"), UnitWord("ft", "ft"), UnitWord("inches", "in"), UnitWord("inch", "in"), UnitWord("in", "in"),
        UnitWord("yards", "yd"), UnitWord("yard", "yd"), UnitWord("yd", "yd"), UnitWord("kilograms", "kg"), UnitWord("kilogram", "kg"),
        UnitWord("kilos", "kg"), UnitWord("kilo", "kg"), UnitWord("kg", "kg"), UnitWord("grams", "g"), UnitWord("gram", "g"),
        UnitWord("g", "g"), UnitWord("pounds", "lb"), UnitWord("pound", "lb"), UnitWord("lbs", "lb"), UnitWord("lb", "lb"),
        UnitWord("ounces", "oz"), UnitWord("ounce", "oz"), UnitWord("oz", "oz"), UnitWord("degrees celsius", "C"),
        UnitWord("degrees fahrenheit", "F"), UnitWord("celsius", "C"), UnitWord("fahrenheit", "F"), UnitWord("°c", "C"),
        UnitWord("°f", "F"), UnitWord("c", "C"), UnitWord("f", "F"), UnitWord("kelvin", "K"), UnitWord("k", "K"),
        UnitWord("liters", "l"), UnitWord("liter", "l"), UnitWord("l", "l"), UnitWord("milliliters", "ml"), UnitWord("ml", "ml"),
        UnitWord("gallons", "gal"), UnitWord("gallon", "gal"), UnitWord("gal", "gal"), UnitWord("cups", "cup"), UnitWord("cup", "cup"),
    ]

    func relativeTime(in text: String, now: Int, zone: ZoneRules) -> TimeSpec? {
        let lower = text.lowercased()
        let today = zone.civil(now).date
        if let m = lower.firstMatch(of: Self.inDuration), let n = Double(m.output.1) {
            let unit = m.output.2
            if unit.hasPrefix("day") || unit.hasPrefix("week") {
                let d = today.adding(days: Int(n) * (unit.hasPrefix("week") ? 7 : 1))
                return TimeSpec(start: d, end: d, hour: nil, minute: nil, phrases: [String(m.output.0)], dayGiven: true)
            }
            let c = zone.civil(now + Int(n * (unit.hasPrefix("h") ? 3600 : 60)))
            return TimeSpec(start: c.date, end: c.date, hour: c.hour, minute: c.minute, phrases: [String(m.output.0)], dayGiven: true)
        }
        if let m = lower.firstMatch(of: Self.month) {
            let first = CivilDate(year: today.year, month: today.month, day: 1)
            let next = CivilDate(year: today.month == 12 ? today.year + 1 : today.year, month: today.month % 12 + 1, day: 1)
            let afterNext = CivilDate(year: next.month == 12 ? next.year + 1 : next.year, month: next.month % 12 + 1, day: 1)
            let phrase = [String(m.output)]
            if m.output.contains("end") {
                let last = next.adding(days: -1)
                return TimeSpec(start: last, end: last, hour: nil, minute: nil, phrases: phrase, dayGiven: true)
            }
            if m.output.contains("next") { return TimeSpec(start: next, end: afterNext.adding(days: -1), hour: nil, minute: nil, phrases: phrase, dayGiven: true) }
            return TimeSpec(start: max(first, today), end: next.adding(days: -1), hour: nil, minute: nil, phrases: phrase, dayGiven: true)
        }
        return nil
    }

    nonisolated(unsafe) static let inDuration: Regex<(Substring, Substring, Substring)> = #/\bin ([0-9]+(?:\.[0-9]+)?) (hours?|hrs?|minutes?|mins?|days?|weeks?)\b/#
    nonisolated(unsafe) static let month: Regex<Substring> = #/(?:at )?(?:the )?end of (?:the|this) month|\bnext month\b|\bthis month\b/#

    func place(in text: String, removing timePhrases: [String], topics: [String]) -> String? {
        guard claims(text) else { return nil }
        let topicWords = Set(topics.filter { !TextMatching.hasCJK($0) }.map { $0.lowercased() })
        if text.lowercased().contains("at home") { return "home" }
        let words = #/((?:[A-Za-z][A-Za-z'.-]*)(?: [A-Z][A-Za-z'.-]*)*)/#
        for m in text.matches(of: #/\b(?:in|at|for) /#) {
            let rest = text[m.range.upperBound...]
            guard let w = rest.prefixMatch(of: words) else { continue }
            var name = String(w.output.1)
            // Lower-case names are one word ("weather in tokyo"); capitalized ones may be several.
            if name.first?.isLowercase == true { name = String(name.split(separator: " ").first ?? "") }
            let first = name.split(separator: " ").first.map { $0.lowercased() } ?? ""
            if Self.notPlaceWords.contains(first) || topicWords.contains(first) || first.allSatisfy(\.isNumber) { continue }
            return name
        }
        // "Tokyo weather": capitalized words before one of the intent's keywords.
        if let m = text.firstMatch(of: #/^((?:[A-Z][A-Za-z'.-]*)(?: [A-Z][A-Za-z'.-]*)*) ([a-z]+)/#), topicWords.contains(String(m.output.2)) {
            let first = m.output.1.split(separator: " ").first.map { $0.lowercased() } ?? ""
            if !Self.notPlaceWords.contains(first) && !topicWords.contains(first) { return String(m.output.1) }
        }
        return nil
    }

    static let notPlaceWords: Set<String> = [
        "the", "a", "an", "my", "this", "next", "these", "today", "tomorrow", "tonight", "noon", "midnight", "morning", "afternoon",
        "evening", "night", "weekend", "week", "month", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "celsius", "fahrenheit", "what", "how", "me", "it", "there", "here", "least", "most", "all", "case",
        "general", "detail", "full", "short", "english", "chinese", "french", "whats", "what's", "is", "will", "do", "does",
        "km", "mi", "miles", "kilometers", "meters", "feet", "inches", "yards", "kg", "lb", "pounds", "ounces", "grams", "liters",
             "ml", "gallons", "cups", "c", "f", "k", "l", "m", "g", "oz", "cm", "mm", "ft", "yd", "gal", "cup",
    ]

    let titleLeading = ["please ", "can you ", "could you ", "would you ", "i need ", "set ", "add ", "make ", "a reminder ", "reminder ",
                        "a todo ", "a note ", "note ", "me to ", "me that ", "me about ", "me ", "to ", "that ", "about ", ": ", ":",
                        "don't let me forget ", "let me forget ", "don't forget ", "ping me ", "a ", "up ", "on ", "at ", "by "]
    let titleTrailing = [" on", " at", " by", " for", " in", " around", " please", " thanks", " tomorrow", ",", "."]

    let actionVerbs = ["add", "create", "schedule", "book", "send", "email", "cancel", "delete", "remove", "move", "invite", "reply",
                       "order", "call", "text", "play", "turn", "set", "buy", "reschedule", "forward", "write", "draft", "tell"]

    let commonWords = ["could", "would", "should", "from", "form", "open", "oven", "feed", "plants", "plant", "than", "then", "when",
                       "what", "with", "have", "this", "that", "them", "they", "there", "their", "here", "were", "where", "will",
                       "want", "need", "call", "mail", "milk", "kids", "cold", "hold", "told", "told", "sold", "some", "same",
                       "done", "down", "dont", "does", "make", "take", "made", "note", "notes", "more", "most", "much", "many",
                       "into", "onto", "over", "just", "only", "also", "very", "well", "work", "home", "house", "time", "times",
                       "pick", "pack", "book", "back", "look", "like", "left", "last", "late", "later", "soon", "once", "next",
                       "mean", "means", "meat", "meet", "went", "sent", "send", "rent", "bill", "bills", "pill", "pills", "fill",
                       "water", "later", "after", "before", "about", "above", "other", "order", "older", "gift", "lift", "list",
                       "lost", "cost", "post", "most", "must", "dust", "trash", "cash", "card", "cart", "care", "cars", "bank",
                       "band", "hand", "land", "mind", "kind", "find", "fine", "line", "mine", "nine", "wine", "time", "tile",
                       "file", "files", "form", "forms", "farm", "firm", "warm", "worm", "room", "roof", "food", "good", "wood"]

    let vocabulary = ["tomorrow", "today", "tonight", "weekend", "morning", "afternoon", "evening", "friday", "monday", "tuesday",
                      "wednesday", "thursday", "saturday", "sunday", "convert", "schedule", "busy", "kilometers", "miles"]

    let stopwords = ["a", "an", "the", "i", "me", "my", "do", "does", "is", "are", "am", "to", "of", "on", "in", "at", "for", "and", "or",
                     "will", "what", "whats", "what's", "it", "be", "please", "can", "you", "have", "has", "there", "any", "with",
                     "this", "that", "how", "from", "up", "about"]

    let verbOpeners = ["i want to", "i'd like to", "i need to", "let's", "go ahead and", "help me"]

    let nounFollowers = ["for", "on", "at", "today", "tomorrow", "tonight", "this", "next", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
                         "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
}
