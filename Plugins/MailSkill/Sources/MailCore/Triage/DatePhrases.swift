import Foundation

/// Finds the day a sentence names and resolves it against a reference day (the day the message was
/// sent, where its sender was).
///
/// Understood (English, any case): `2026-12-05`; `December 4`, `Dec 4, 2026`, `4 December 2026`;
/// `today`, `tonight`, `end of day`/`EOD`, `tomorrow`, `day after tomorrow`; weekdays (`Friday`,
/// `this Friday`, `next Friday`); `end of the week`, `end of the month`. Chinese: `2026年12月5日`,
/// `12月5日`/`12月5号`; `今天`/`今晚`, `明天`/`明早`/`明晚`, `后天`, `大后天`; `周五`/`星期五`/`礼拜五`
/// with `本`/`这` (this week) or `下` (next week); `月底`.
///
/// Resolution: a plain weekday is the next such day *after* the reference day (a Friday mail saying
/// "by Friday" means a week later); `this`/`本`/`这` is that day of the reference day's week
/// (Monday–Sunday) and `next`/`下` that day of the following week. A month and day without a year is in
/// the reference year, or the next year when that would be more than 60 days in the past. When a
/// sentence names several days, the first one marked as a deadline (`by`, `before`, `until`, `due`,
/// `no later than`; `之前`, `前`, `以前` after it, `截止` before it) wins, else the first one.
public enum DatePhrases {
    public static func due(in sentence: String, reference: CivilDay) -> CivilDay? {
        let found = mentions(in: sentence, reference: reference).sorted { $0.range.lowerBound < $1.range.lowerBound }
        return (found.first { isDeadline($0.range, in: sentence) } ?? found.first)?.day
    }

    struct Mention {
        let range: Range<String.Index>
        let day: CivilDay
    }

    // Regexes are immutable once built; sharing them across threads is safe (their lazily compiled
    // program is published atomically), but `Regex` is not marked Sendable.
    nonisolated(unsafe) static let iso = /(\d{4})-(\d{2})-(\d{2})/
    nonisolated(unsafe) static let monthDay = /(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?/
    nonisolated(unsafe) static let dayMonth = /(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:,?\s+(\d{4}))?/
    nonisolated(unsafe) static let relativeEN = /(?i)\b(day after tomorrow|tomorrow|today|tonight|this evening|end of (?:the )?day|eod|end of (?:the |this )?week|end of (?:the |this )?month)\b/
    nonisolated(unsafe) static let weekdayEN = /(?i)\b(?:(this|next|coming)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/
    nonisolated(unsafe) static let fullZH = /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/
    nonisolated(unsafe) static let monthDayZH = /(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/
    nonisolated(unsafe) static let relativeZH = /大后天|后天|明天|明日|明早|明晚|今天|今日|今晚|月底/
    nonisolated(unsafe) static let weekdayZH = /(下个|下|本|这)?(?:周|星期|礼拜)([一二三四五六日天])/

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let weekdaysEN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    static let weekdaysZH: [Character] = ["一", "二", "三", "四", "五", "六", "日"]

    static func mentions(in s: String, reference r: CivilDay) -> [Mention] {
        var out: [Mention] = []
        var taken: [Range<String.Index>] = []
        func add(_ range: Range<String.Index>, _ day: CivilDay?) {
            guard let day, !taken.contains(where: { $0.overlaps(range) }) else { return }
            taken.append(range)
            out.append(Mention(range: range, day: day))
        }
        for m in s.matches(of: fullZH) { add(m.range, day(Int(m.1), Int(m.2), Int(m.3), r)) }
        for m in s.matches(of: iso) { add(m.range, day(Int(m.1), Int(m.2), Int(m.3), r)) }
        for m in s.matches(of: monthDayZH) { add(m.range, day(nil, Int(m.1), Int(m.2), r)) }
        for m in s.matches(of: monthDay) { add(m.range, day(m.3.flatMap { Int($0) }, month(m.1), Int(m.2), r)) }
        for m in s.matches(of: dayMonth) { add(m.range, day(m.3.flatMap { Int($0) }, month(m.2), Int(m.1), r)) }
        for m in s.matches(of: relativeZH) {
            let w = String(m.0)
            let offset = ["大后天": 3, "后天": 2, "明天": 1, "明日": 1, "明早": 1, "明晚": 1][w]
            add(m.range, w == "月底" ? endOfMonth(r) : r.adding(days: offset ?? 0))
        }
        for m in s.matches(of: relativeEN) {
            let w = m.1.lowercased()
            let d: CivilDay
            if w == "day after tomorrow" { d = r.adding(days: 2) } else if w == "tomorrow" { d = r.adding(days: 1) } else if w.hasSuffix("week") { d = weekday(5, "this", r) } else if w.hasSuffix("month") { d = endOfMonth(r) } else { d = r }
            add(m.range, d)
        }
        for m in s.matches(of: weekdayEN) {
            guard let w = weekdaysEN.firstIndex(of: m.2.lowercased()) else { continue }
            add(m.range, weekday(w + 1, m.1.map { $0.lowercased() }, r))
        }
        for m in s.matches(of: weekdayZH) {
            guard let c = m.2.first, let w = weekdaysZH.firstIndex(of: c == "天" ? "日" : c) else { continue }
            let modifier: String? = switch m.1.map(String.init) { case "下", "下个": "next"; case "本", "这": "this"; default: nil }
            add(m.range, weekday(w + 1, modifier, r))
        }
        return out
    }

    static func month(_ name: Substring) -> Int? {
        monthNames.firstIndex(of: String(name.prefix(3)).lowercased()).map { $0 + 1 }
    }

    /// A day from parts; a missing year is inferred as described on the type.
    static func day(_ year: Int?, _ month: Int?, _ day: Int?, _ r: CivilDay) -> CivilDay? {
        guard let month, let day else { return nil }
        if let year { return CivilDay(year: year, month: month, day: day) }
        guard let same = CivilDay(year: r.year, month: month, day: day) else { return nil }
        return same.dayNumber < r.dayNumber - 60 ? CivilDay(year: r.year + 1, month: month, day: day) : same
    }

    /// `target` 1 = Monday … 7 = Sunday.
    static func weekday(_ target: Int, _ modifier: String?, _ r: CivilDay) -> CivilDay {
        let monday = r.adding(days: 1 - r.weekday)
        switch modifier {
        case "this": return monday.adding(days: target - 1)
        case "next": return monday.adding(days: 7 + target - 1)
        default:
            let delta = (target - r.weekday + 7) % 7
            return r.adding(days: delta == 0 ? 7 : delta)
        }
    }

    static func endOfMonth(_ r: CivilDay) -> CivilDay {
        CivilDay(year: r.year, month: r.month, day: CivilDay.daysIn(year: r.year, month: r.month)) ?? r
    }

    static func isDeadline(_ range: Range<String.Index>, in s: String) -> Bool {
        let before = s[..<range.lowerBound].suffix(16).lowercased()
        let after = s[range.upperBound...].prefix(3)
        if ["by ", "before ", "until ", "till ", "due ", "due on ", "due by ", "no later than ", "deadline is ", "deadline: "]
            .contains(where: { before.hasSuffix($0) }) { return true }
        if after.hasPrefix("之前") || after.hasPrefix("前") || after.hasPrefix("以前") || after.hasPrefix("为止") { return true }
        return before.contains("截止")
    }
}
