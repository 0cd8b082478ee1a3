/// English day and time words (case-insensitive):
///   days    today tonight tomorrow "(the) day after tomorrow" yesterday
///   ranges  "(the) next/coming N days" "next few days" "these two days" "this week" "next week" "(this) weekend"
///   weekday (on) friday, next friday, fri
///   dates   "december 1", "dec 1", "1 december"
///   times   3pm, 3:30 pm, "at 5", noon, midnight, "in the morning/afternoon/evening", tonight (20:00)
extension EnglishLanguagePack {
    func days(in lower: String, today: CivilDate) -> [DayMention] {
        var out: [DayMention] = []
        for m in lower.matches(of: Self.dayWords) {
            let offset = ["today": 0, "tonight": 0, "tomorrow": 1, "day after tomorrow": 2, "the day after tomorrow": 2][String(m.output)] ?? -1
            out.append(DayMention(TimeExpressions.day(offset, from: today), m.output))
        }
        for m in lower.matches(of: Self.range) {
            let word = String(m.output.1)
            let n = word == "few" ? 3 : word == "couple of" ? 2 : Int(word) ?? Self.numbers[word] ?? 2
            out.append(DayMention(TimeExpressions.days(n, from: today), m.output.0))
        }
        for m in lower.matches(of: Self.weekWords) {
            switch String(m.output) {
            case "this week", "my week", "the week": out.append(DayMention(TimeExpressions.thisWeek(today), m.output))
            case "next week": out.append(DayMention(TimeExpressions.nextWeek(today), m.output))
            default: out.append(DayMention(TimeExpressions.weekend(today), m.output))
            }
        }
        for m in lower.matches(of: Self.weekday) {
            guard let wd = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].firstIndex(where: { m.output.2.hasPrefix($0) }) else { continue }
            out.append(DayMention(TimeExpressions.weekday(wd + 1, from: today, nextWeek: m.output.1 != nil), m.output.0))
        }
        for m in lower.matches(of: Self.monthDay) {
            guard let mo = Self.month(m.output.1), let d = Int(m.output.2), let r = TimeExpressions.explicit(month: mo, day: d, today: today) else { continue }
            out.append(DayMention(r, m.output.0))
        }
        for m in lower.matches(of: Self.dayMonth) {
            guard let mo = Self.month(m.output.2), let d = Int(m.output.1), let r = TimeExpressions.explicit(month: mo, day: d, today: today) else { continue }
            out.append(DayMention(r, m.output.0))
        }
        return out
    }

    func clockTime(in lower: String) -> TimeOfDay? {
        if let m = lower.firstMatch(of: Self.time), let h = Int(m.output.1), h <= 12 {
            let pm = m.output.3.hasPrefix("p")
            return TimeOfDay(hour: pm && h < 12 ? h + 12 : (!pm && h == 12 ? 0 : h), minute: m.output.2.flatMap { Int($0) } ?? 0,
                             phrase: String(m.output.0))
        }
        // "at 5": people mean the afternoon for 1–6, the morning for 7–11, noon for 12.
        if let m = lower.firstMatch(of: Self.bareHour), let h = Int(m.output.1), (1...12).contains(h) {
            return TimeOfDay(hour: h <= 6 ? h + 12 : h, minute: 0, phrase: String(m.output.0))
        }
        return nil
    }

    func partOfDay(in lower: String) -> TimeOfDay? {
        if let m = lower.firstMatch(of: Self.partOfDay) {
            let word = String(m.output)
            let (h, mi) = word.hasSuffix("noon") && !word.hasSuffix("afternoon") ? (12, 0) : word == "midnight" ? (0, 0)
                : word.hasSuffix("morning") ? (9, 0) : word.hasSuffix("afternoon") ? (15, 0) : (19, 0)
            return TimeOfDay(hour: h, minute: mi, phrase: word)
        }
        return lower.contains("tonight") && lower.firstMatch(of: Self.tonight) != nil ? TimeOfDay(hour: 20, minute: 0, phrase: nil) : nil
    }

    static func month(_ s: Substring) -> Int? {
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].firstIndex { s.hasPrefix($0) }.map { $0 + 1 }
    }

    nonisolated(unsafe) static let dayWords: Regex<Substring> = #/the day after tomorrow|day after tomorrow|\btoday\b|\btonight\b|\btomorrow\b|\byesterday\b/#
    nonisolated(unsafe) static let range: Regex<(Substring, Substring)> = #/(?:the )?(?:next|coming|following|these) ([0-9]+|two|three|four|five|six|seven|ten|few|couple of) days/#
    nonisolated(unsafe) static let weekWords: Regex<Substring> = #/this week(?!end)|next week|this weekend|\bweekend\b|\bmy week\b|\bthe week\b/#
    nonisolated(unsafe) static let weekday: Regex<(Substring, Substring?, Substring)> = #/(next )?\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b/#
    nonisolated(unsafe) static let monthDay: Regex<(Substring, Substring, Substring)> = #/\b(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.? ([0-9]{1,2})(?:st|nd|rd|th)?\b/#
    nonisolated(unsafe) static let dayMonth: Regex<(Substring, Substring, Substring)> = #/\b([0-9]{1,2})(?:st|nd|rd|th)? (?:of )?(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b/#
    nonisolated(unsafe) static let time: Regex<(Substring, Substring, Substring?, Substring)> = #/\b(?:at )?([0-9]{1,2})(?::([0-9]{2}))? ?(am|pm|a\.m\.|p\.m\.)/#
    nonisolated(unsafe) static let tonight: Regex<Substring> = #/\btonight\b/#
    nonisolated(unsafe) static let bareHour: Regex<(Substring, Substring)> = #/\bat ([0-9]{1,2})\b(?![:.])/#
    nonisolated(unsafe) static let partOfDay: Regex<Substring> = #/at noon|\bnoon\b|\bmidnight\b|in the morning|in the afternoon|in the evening|this morning|this afternoon|this evening|\bmorning\b|\bafternoon\b|\bevening\b/#
}
