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

/// Finds time expressions in English and Chinese text and resolves them against "today" (a local
/// date). Pure: no clock, no time zone — the caller passes today, so results are deterministic.
///
/// Recognized (case-insensitive; Chinese numerals 一…十, 两 too):
///   days    今天 今日 明天 明日 后天 大后天 昨天 · today tonight tomorrow "day after tomorrow" yesterday
///   ranges  这两天 这几天 这N天 最近N天 未来N天 接下来N天 N天内 本周 这周 下周 周末 ·
///           "(the) next/coming N days" "next few days" "these two days" "this week" "next week" "(this) weekend"
///   weekday 周五 星期五 礼拜五 下周五 · (on) friday, next friday, fri
///   dates   12月1日 12月1号 · 2026-12-01 · "december 1", "dec 1", "1 december"
///   times   下午3点 晚上8点半 上午10:30 15:00 中午 · 3pm, 3:30 pm, at 15:00, noon, "in the morning/afternoon/evening"
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
        var phrases: [String] = []
        var range: (CivilDate, CivilDate)? = nil
        func take(_ r: (CivilDate, CivilDate)?, _ phrase: Substring) {
            guard let r else { return }
            if range == nil { range = r }
            phrases.append(String(phrase))
        }

        for m in lower.matches(of: dayWords) {
            let word = String(m.output)
            let offset: Int
            switch word {
            case "今天", "今日", "today", "tonight": offset = 0
            case "明天", "明日", "tomorrow": offset = 1
            case "后天", "day after tomorrow", "the day after tomorrow": offset = 2
            case "大后天": offset = 3
            default: offset = -1  // 昨天, yesterday
            }
            let d = today.adding(days: offset)
            take((d, d), m.output)
        }
        for m in lower.matches(of: zhRange) {
            let n = m.output.1 == "几" ? 3 : number(String(m.output.1)) ?? 2
            take((today, today.adding(days: max(1, n) - 1)), m.output.0)
        }
        for m in lower.matches(of: zhWithin) {
            let n = number(String(m.output.1)) ?? 2
            take((today, today.adding(days: max(1, n) - 1)), m.output.0)
        }
        for m in lower.matches(of: enRange) {
            let word = String(m.output.1)
            let n = word == "few" ? 3 : word == "couple of" ? 2 : number(word) ?? 2
            take((today, today.adding(days: max(1, n) - 1)), m.output.0)
        }
        for m in lower.matches(of: weekWords) {
            let monday = today.adding(days: 1 - today.weekday)
            switch String(m.output) {
            case "本周", "这周", "this week", "my week", "the week": take((today, monday.adding(days: 6)), m.output)
            case "下周", "next week": take((monday.adding(days: 7), monday.adding(days: 13)), m.output)
            default:  // the weekend: the coming Saturday and Sunday (or what is left of them)
                take((max(monday.adding(days: 5), today), monday.adding(days: 6)), m.output)
            }
        }
        for m in lower.matches(of: zhWeekday) {
            guard let wd = zhWeekdayNumber(m.output.2) else { continue }
            take(weekday(wd, from: today, nextWeek: m.output.1 != nil), m.output.0)
        }
        for m in lower.matches(of: enWeekday) {
            guard let wd = enWeekdayNumber(String(m.output.2)) else { continue }
            take(weekday(wd, from: today, nextWeek: m.output.1 != nil), m.output.0)
        }
        for m in lower.matches(of: zhDate) {
            guard let mo = number(String(m.output.1)), let d = number(String(m.output.2)) else { continue }
            take(explicit(month: mo, day: d, today: today), m.output.0)
        }
        for m in lower.matches(of: isoDate) {
            if let d = CivilDate(String(m.output)) { take((d, d), m.output) }
        }
        for m in lower.matches(of: enMonthDay) {
            guard let mo = month(String(m.output.1)), let d = Int(m.output.2) else { continue }
            take(explicit(month: mo, day: d, today: today), m.output.0)
        }
        for m in lower.matches(of: numericDate) {
            guard let mo = Int(m.output.1), let d = Int(m.output.2) else { continue }
            take(explicit(month: mo, day: d, today: today), m.output.1 + "/" + m.output.2)
        }
        for m in lower.matches(of: enDayMonth) {
            guard let mo = month(String(m.output.2)), let d = Int(m.output.1) else { continue }
            take(explicit(month: mo, day: d, today: today), m.output.0)
        }

        var hour: Int? = nil, minute: Int? = nil
        if let m = lower.firstMatch(of: zhTime), let h = number(String(m.output.2)) {
            hour = adjust(h, part: m.output.1.map(String.init) ?? "")
            let rest = m.output.4.map(String.init) ?? ""
            minute = rest == "半" ? 30 : number(rest.replacing("分", with: "")) ?? 0
            phrases.append(String(m.output.0))
        } else if let m = lower.firstMatch(of: enTime), let h = Int(m.output.1), h <= 12 {
            let pm = m.output.3.hasPrefix("p")
            hour = pm && h < 12 ? h + 12 : (!pm && h == 12 ? 0 : h)
            minute = m.output.2.flatMap { Int($0) } ?? 0
            phrases.append(String(m.output.0))
        } else if let m = lower.firstMatch(of: clockTime), let h = Int(m.output.1), let mi = Int(m.output.2), h < 24, mi < 60 {
            (hour, minute) = (h, mi)
            phrases.append(String(m.output.0))
        } else if let m = lower.firstMatch(of: bareHour), let h = Int(m.output.1), (1...12).contains(h) {
            // "at 5": people mean the afternoon for 1–6, the morning for 7–11, noon for 12.
            (hour, minute) = (h <= 6 ? h + 12 : h, 0)
            phrases.append(String(m.output.0))
        } else if let m = lower.firstMatch(of: partOfDay) {
            switch String(m.output) {
            case "中午", "noon", "at noon": (hour, minute) = (12, 0)
            case "midnight": (hour, minute) = (0, 0)
            case "早上", "上午", "in the morning", "this morning", "morning": (hour, minute) = (9, 0)
            case "下午", "in the afternoon", "this afternoon", "afternoon": (hour, minute) = (15, 0)
            default: (hour, minute) = (19, 0)  // 晚上, 傍晚, in the evening
            }
            phrases.append(String(m.output))
        }
        if hour == nil, phrases.contains("tonight") { (hour, minute) = (20, 0) }
        if range == nil && hour == nil { return nil }
        let days = range ?? (today, today)
        return TimeSpec(start: days.0, end: days.1, hour: hour, minute: minute, phrases: phrases, dayGiven: range != nil)
    }

    // MARK: - Patterns (lower-cased text), compiled once (a Regex is safe to share across threads once built)

    nonisolated(unsafe) static let dayWords: Regex<Substring> = #/大后天|今天|今日|明天|明日|后天|昨天|the day after tomorrow|day after tomorrow|\btoday\b|\btonight\b|\btomorrow\b|\byesterday\b/#
    nonisolated(unsafe) static let zhRange: Regex<(Substring, Substring)> = #/(?:这|最近|未来|接下来|近)([0-9两一二三四五六七八九十几]{1,3})天/#
    nonisolated(unsafe) static let zhWithin: Regex<(Substring, Substring)> = #/([0-9两一二三四五六七八九十]{1,3})天内/#
    nonisolated(unsafe) static let enRange: Regex<(Substring, Substring)> = #/(?:the )?(?:next|coming|following|these) ([0-9]+|two|three|four|five|six|seven|ten|few|couple of) days/#
    nonisolated(unsafe) static let weekWords: Regex<Substring> = #/本周|这周|下周(?![一二三四五六日天])|周末|this week(?!end)|next week|this weekend|\bweekend\b|\bmy week\b|\bthe week\b/#
    nonisolated(unsafe) static let zhWeekday: Regex<(Substring, Substring?, Substring)> = #/(下)?(?:周|星期|礼拜)([一二三四五六日天1-7])/#
    nonisolated(unsafe) static let enWeekday: Regex<(Substring, Substring?, Substring)> = #/(next )?\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b/#
    nonisolated(unsafe) static let zhDate: Regex<(Substring, Substring, Substring)> = #/([0-9一二三四五六七八九十]{1,3})月([0-9一二三四五六七八九十]{1,3})(?:日|号)/#
    nonisolated(unsafe) static let isoDate: Regex<Substring> = #/\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b/#
    nonisolated(unsafe) static let enMonthDay: Regex<(Substring, Substring, Substring)> = #/\b(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.? ([0-9]{1,2})(?:st|nd|rd|th)?\b/#
    nonisolated(unsafe) static let enDayMonth: Regex<(Substring, Substring, Substring)> = #/\b([0-9]{1,2})(?:st|nd|rd|th)? (?:of )?(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b/#
    nonisolated(unsafe) static let zhTime: Regex<(Substring, Substring?, Substring, Substring, Substring?)> = #/(上午|早上|中午|下午|晚上|傍晚|凌晨)?([0-9一二两三四五六七八九十]{1,3})(点|:|：)(半|[0-9一二三四五六七八九十]{1,3}分?)?/#
    nonisolated(unsafe) static let enTime: Regex<(Substring, Substring, Substring?, Substring)> = #/\b(?:at )?([0-9]{1,2})(?::([0-9]{2}))? ?(am|pm|a\.m\.|p\.m\.)/#
    nonisolated(unsafe) static let clockTime: Regex<(Substring, Substring, Substring)> = #/\b(?:at )?([0-9]{1,2}):([0-9]{2})\b/#
    nonisolated(unsafe) static let partOfDay: Regex<Substring> = #/中午|早上|上午|下午|晚上|傍晚|at noon|\bnoon\b|\bmidnight\b|in the morning|in the afternoon|in the evening|this morning|this afternoon|this evening|\bmorning\b|\bafternoon\b|\bevening\b/#
    nonisolated(unsafe) static let bareHour: Regex<(Substring, Substring)> = #/\bat ([0-9]{1,2})\b(?![:.])/#
    /// "12/5": month/day.
    nonisolated(unsafe) static let numericDate: Regex<(Substring, Substring, Substring)> = #/(?:^|[^0-9/.])(1[0-2]|0?[1-9])/(3[01]|[12][0-9]|0?[1-9])(?![0-9/])/#

    // MARK: - Helpers

    /// "3", "三", "十二", "两" → 3, 3, 12, 2.
    static func number(_ s: String) -> Int? {
        if let n = Int(s) { return n }
        let digits: [Character: Int] = ["零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9]
        let words = ["two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10]
        if let n = words[s] { return n }
        let chars = Array(s)
        guard !chars.isEmpty, chars.allSatisfy({ digits[$0] != nil || $0 == "十" }) else { return nil }
        if let ten = chars.firstIndex(of: "十") {
            let tens = ten == 0 ? 1 : digits[chars[0]] ?? 1
            let ones = ten + 1 < chars.count ? digits[chars[ten + 1]] ?? 0 : 0
            return tens * 10 + ones
        }
        return chars.count == 1 ? digits[chars[0]] : nil
    }

    static func adjust(_ hour: Int, part: String) -> Int {
        switch part {
        case "下午", "晚上", "傍晚": return hour < 12 ? hour + 12 : hour
        case "中午": return hour < 6 ? hour + 12 : hour
        default: return hour
        }
    }

    static func zhWeekdayNumber(_ s: Substring) -> Int? {
        ["一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7][String(s)]
    }

    static func enWeekdayNumber(_ s: String) -> Int? {
        for (i, name) in ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].enumerated() where s.hasPrefix(name) { return i + 1 }
        return nil
    }

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

    static func month(_ s: String) -> Int? {
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return names.firstIndex { s.hasPrefix($0) }.map { $0 + 1 }
    }

    /// Month and day in this year, or next year when that day has passed by more than a week.
    static func explicit(month: Int, day: Int, today: CivilDate) -> (CivilDate, CivilDate)? {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        var d = CivilDate(year: today.year, month: month, day: day)
        if d.adding(days: 7) < today { d = CivilDate(year: today.year + 1, month: month, day: day) }
        return (d, d)
    }
}
