/// What a request says about time: a range of days, and maybe a time of day. "今天" is one day;
/// "这两天" / "the next two days" two days from today; "周五下午3点" / "Friday at 3pm" a day and a time.
public struct TimeSpec: Sendable, Equatable {
    public var start: CivilDate
    public var end: CivilDate
    /// Local time of day, when the text names one.
    public var hour: Int?
    public var minute: Int?
    /// The words that said it, as written (for traces, and to cut them out of titles).
    public var phrases: [String]
    /// Whether the text named a day (not only a time of day, which counts from today).
    public var dayGiven: Bool
}

/// Finds time expressions and resolves them against "today" (a local date). Pure: no clock, no time
/// zone — the caller passes today, so results are deterministic. The words are the language packs'
/// (`LanguagePack.days`, `clockTime`, `partOfDay`, `relativeTime`); this file knows only numeric forms
/// that need no words: ISO dates (2026-12-01), month/day (12/5) and clock times (15:00).
public enum TimeExpressions {
    /// `find(in:today:)` plus the relative times the language packs read ("in 3 hours", "3小时后", "月底",
    /// "next month"), which need the instant and zone: a pack's day or instant wins, a time of day said
    /// elsewhere in the text completes it ("月底下午3点").
    public static func find(in text: String, now: Int, zone: ZoneRules) -> TimeSpec? {
        let base = find(in: text, today: zone.civil(now).date)
        guard var relative = LanguagePacks.all.lazy.compactMap({ $0.relativeTime(in: text, now: now, zone: zone) }).first else { return base }
        if relative.hour == nil, let base, base.hour != nil { (relative.hour, relative.minute) = (base.hour, base.minute) }
        relative.phrases += base?.phrases ?? []
        return relative
    }

    public static func find(in text: String, today: CivilDate) -> TimeSpec? {
        let lower = text.lowercased()
        var mentions = LanguagePacks.all.flatMap { $0.days(in: lower, today: today) }
        for m in lower.matches(of: isoDate) {
            if let d = CivilDate(String(m.output)) { mentions.append(DayMention((d, d), m.output)) }
        }
        for m in lower.matches(of: numericDate) {
            guard let mo = Int(m.output.1), let d = Int(m.output.2), let r = explicit(month: mo, day: d, today: today) else { continue }
            mentions.append(DayMention(r, m.output.1 + "/" + m.output.2))
        }
        var phrases = mentions.map(\.phrase)
        var time = LanguagePacks.all.lazy.compactMap { $0.clockTime(in: lower) }.first
        if time == nil, let m = lower.firstMatch(of: clockTime), let h = Int(m.output.1), let mi = Int(m.output.2), h < 24, mi < 60 {
            time = TimeOfDay(hour: h, minute: mi, phrase: String(m.output.0))
        }
        if time == nil { time = LanguagePacks.all.lazy.compactMap { $0.partOfDay(in: lower) }.first }
        if let p = time?.phrase { phrases.append(p) }
        guard let first = mentions.first else {
            guard let time else { return nil }
            return TimeSpec(start: today, end: today, hour: time.hour, minute: time.minute, phrases: phrases, dayGiven: false)
        }
        return TimeSpec(start: first.start, end: first.end, hour: time?.hour, minute: time?.minute, phrases: phrases, dayGiven: true)
    }

    // MARK: - Numeric forms (lower-cased text), compiled once (a Regex is safe to share across threads once built)

    nonisolated(unsafe) static let isoDate: Regex<Substring> = #/\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b/#
    nonisolated(unsafe) static let clockTime: Regex<(Substring, Substring, Substring)> = #/\b(?:at )?([0-9]{1,2}):([0-9]{2})\b/#
    /// "12/5": month/day.
    nonisolated(unsafe) static let numericDate: Regex<(Substring, Substring, Substring)> = #/(?:^|[^0-9/.])(1[0-2]|0?[1-9])/(3[01]|[12][0-9]|0?[1-9])(?![0-9/])/#

    // MARK: - Calendar helpers for the packs

    /// The next `weekday` (1 = Monday) on or after today; with `nextWeek`, that weekday in next week.
    static func weekday(_ wd: Int, from today: CivilDate, nextWeek: Bool) -> (CivilDate, CivilDate) {
        let d: CivilDate
        if nextWeek {
            d = today.adding(days: 1 - today.weekday + 7 + wd - 1)
        } else {
            d = today.adding(days: (wd - today.weekday + 7) % 7)
        }
        return (d, d)
    }

    /// This week (today through Sunday), next week (Monday through Sunday), the weekend (the coming
    /// Saturday and Sunday, or what is left of them).
    static func thisWeek(_ today: CivilDate) -> (CivilDate, CivilDate) { (today, today.adding(days: 7 - today.weekday)) }
    static func nextWeek(_ today: CivilDate) -> (CivilDate, CivilDate) {
        let monday = today.adding(days: 1 - today.weekday)
        return (monday.adding(days: 7), monday.adding(days: 13))
    }
    static func weekend(_ today: CivilDate) -> (CivilDate, CivilDate) {
        let monday = today.adding(days: 1 - today.weekday)
        return (max(monday.adding(days: 5), today), monday.adding(days: 6))
    }

    /// `n` days from today on (at least one).
    static func days(_ n: Int, from today: CivilDate) -> (CivilDate, CivilDate) { (today, today.adding(days: max(1, n) - 1)) }

    /// The day `offset` days from today.
    static func day(_ offset: Int, from today: CivilDate) -> (CivilDate, CivilDate) {
        let d = today.adding(days: offset)
        return (d, d)
    }

    /// Month and day in this year, or next year when that day has passed by more than a week.
    static func explicit(month: Int, day: Int, today: CivilDate) -> (CivilDate, CivilDate)? {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        var d = CivilDate(year: today.year, month: month, day: day)
        if d.adding(days: 7) < today { d = CivilDate(year: today.year + 1, month: month, day: day) }
        return (d, d)
    }
}
