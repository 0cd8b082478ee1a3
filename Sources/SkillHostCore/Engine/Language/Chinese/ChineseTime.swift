/// Chinese day and time words (numerals 一…十 and 两 too):
///   days    今天 今日 明天 明日 后天 大后天 昨天
///   ranges  这两天 这几天 这N天 最近N天 未来N天 接下来N天 N天内 本周 这周 下周 周末
///   weekday 周五 星期五 礼拜五 下周五
///   dates   12月1日 12月1号
///   times   下午3点 晚上8点半 上午10:30 · 中午 早上 下午 晚上
extension ChineseLanguagePack {
    func days(in lower: String, today: CivilDate) -> [DayMention] {
        guard TextMatching.hasCJK(lower) else { return [] }
        var out: [DayMention] = []
        for m in lower.matches(of: Self.dayWords) {
            let offset = ["今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3][String(m.output)] ?? -1  // 昨天
            out.append(DayMention(TimeExpressions.day(offset, from: today), m.output))
        }
        for m in lower.matches(of: Self.range) {
            let n = m.output.1 == "几" ? 3 : Self.number(String(m.output.1)) ?? 2
            out.append(DayMention(TimeExpressions.days(n, from: today), m.output.0))
        }
        for m in lower.matches(of: Self.within) {
            out.append(DayMention(TimeExpressions.days(Self.number(String(m.output.1)) ?? 2, from: today), m.output.0))
        }
        for m in lower.matches(of: Self.weekWords) {
            switch String(m.output) {
            case "本周", "这周": out.append(DayMention(TimeExpressions.thisWeek(today), m.output))
            case "下周": out.append(DayMention(TimeExpressions.nextWeek(today), m.output))
            default: out.append(DayMention(TimeExpressions.weekend(today), m.output))
            }
        }
        for m in lower.matches(of: Self.weekday) {
            guard let wd = ["一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7, "1": 1, "2": 2, "3": 3, "4": 4,
                            "5": 5, "6": 6, "7": 7][String(m.output.2)] else { continue }
            out.append(DayMention(TimeExpressions.weekday(wd, from: today, nextWeek: m.output.1 != nil), m.output.0))
        }
        for m in lower.matches(of: Self.date) {
            guard let mo = Self.number(String(m.output.1)), let d = Self.number(String(m.output.2)),
                  let r = TimeExpressions.explicit(month: mo, day: d, today: today) else { continue }
            out.append(DayMention(r, m.output.0))
        }
        return out
    }

    func clockTime(in lower: String) -> TimeOfDay? {
        guard TextMatching.hasCJK(lower), let m = lower.firstMatch(of: Self.time), let h = Self.number(String(m.output.2)) else { return nil }
        var hour = h
        switch m.output.1.map(String.init) ?? "" {
        case "下午", "晚上", "傍晚": if hour < 12 { hour += 12 }
        case "中午": if hour < 6 { hour += 12 }
        default: break
        }
        let rest = m.output.4.map(String.init) ?? ""
        let minute = rest == "半" ? 30 : Self.number(rest.replacing("分", with: "")) ?? 0
        return TimeOfDay(hour: hour, minute: minute, phrase: String(m.output.0))
    }

    func partOfDay(in lower: String) -> TimeOfDay? {
        guard let m = lower.firstMatch(of: Self.partOfDay) else { return nil }
        let (h, mi) = ["中午": (12, 0), "早上": (9, 0), "上午": (9, 0), "下午": (15, 0)][String(m.output)] ?? (19, 0)  // 晚上, 傍晚
        return TimeOfDay(hour: h, minute: mi, phrase: String(m.output))
    }

    /// "3", "三", "十二", "两" → 3, 3, 12, 2.
    static func number(_ s: String) -> Int? { Int(s) ?? value(s) }

    nonisolated(unsafe) static let dayWords: Regex<Substring> = #/大后天|今天|今日|明天|明日|后天|昨天/#
    nonisolated(unsafe) static let range: Regex<(Substring, Substring)> = #/(?:这|最近|未来|接下来|近)([0-9两一二三四五六七八九十几]{1,3})天/#
    nonisolated(unsafe) static let within: Regex<(Substring, Substring)> = #/([0-9两一二三四五六七八九十]{1,3})天内/#
    nonisolated(unsafe) static let weekWords: Regex<Substring> = #/本周|这周|下周(?![一二三四五六日天])|周末/#
    nonisolated(unsafe) static let weekday: Regex<(Substring, Substring?, Substring)> = #/(下)?(?:周|星期|礼拜)([一二三四五六日天1-7])/#
    nonisolated(unsafe) static let date: Regex<(Substring, Substring, Substring)> = #/([0-9一二三四五六七八九十]{1,3})月([0-9一二三四五六七八九十]{1,3})(?:日|号)/#
    nonisolated(unsafe) static let time: Regex<(Substring, Substring?, Substring, Substring, Substring?)> = #/(上午|早上|中午|下午|晚上|傍晚|凌晨)?([0-9一二两三四五六七八九十]{1,3})(点|:|：)(半|[0-9一二三四五六七八九十]{1,3}分?)?/#
    nonisolated(unsafe) static let partOfDay: Regex<Substring> = #/中午|早上|上午|下午|晚上|傍晚/#
}
