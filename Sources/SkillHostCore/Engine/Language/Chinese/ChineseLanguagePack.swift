/// Chinese: traditional characters folded to simplified (OpenCC's table, `TraditionalChinese`),
/// numerals before a unit or time word written as digits (三公里 → 3公里, 十五 → 15, 两 → 2, 半斤 → 0.5斤),
/// relative times (3小时后, 两天后, 月底, 下个月), places before an intent's keywords (东京天气), and the
/// request phrasing around titles.
struct ChineseLanguagePack: LanguagePack {
    let code = "zh"
    let locale = "zh-CN"
    let sentences: any EngineSentences = ChineseSentences()

    func claims(_ text: String) -> Bool { TextMatching.hasCJK(text) }

    func normalize(_ text: String) -> String {
        guard TextMatching.hasCJK(text) else { return text }
        let table = TraditionalChinese.table
        let s = String(String.UnicodeScalarView(text.unicodeScalars.map { table[$0.value] ?? $0 }))
        return Self.digits(Self.rephrase(s))
    }

    /// Fixed phrasings → the words the rest of the engine reads.
    static let phrases: [(String, String)] = [
        ("今晚", "今天晚上"), ("今早", "今天早上"), ("明早", "明天早上"), ("明晚", "明天晚上"), ("明儿", "明天"),
        ("这个周末", "周末"), ("这周末", "周末"), ("本周末", "周末"), ("这个星期", "这周"), ("下个星期", "下周"),
        ("下礼拜", "下周"), ("这礼拜", "这周"), ("下个礼拜", "下周"), ("这个月底", "月底"), ("本月底", "月底"),
        ("半个小时", "半小时"), ("半个钟头", "半小时"), ("钟头", "小时"), ("个小时", "小时"), ("公斤", "千克"),
    ]

    /// What may follow a number written in Chinese for it to be read as a number.
    static let counters = ["小时", "分钟", "分", "天", "点", "月", "日", "号", "周", "度", "岁", "次", "年", "秒", "倍", "万", "：", ":"]

    /// Unit words and counters, as characters (a numeral before one is a number).
    static let unitsAndCounters: [[Character]] = (LanguagePacks.unitWords.map(\.word).filter { TextMatching.hasCJK($0) } + counters).map(Array.init)

    static let numerals: [Character: Int] = ["零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9]

    /// Chinese numerals (up to 9999) followed by a unit or counter → Arabic digits; 半 before a unit → 0.5.
    static func digits(_ s: String) -> String {
        guard s.contains(where: { numerals[$0] != nil || $0 == "十" || $0 == "半" }) else { return s }
        let chars = Array(s)
        let units = Self.unitsAndCounters
        func followedByUnit(_ i: Int) -> Bool {
            units.contains { u in i + u.count <= chars.count && chars[i..<i + u.count].elementsEqual(u) }
        }
        var out = ""
        var i = 0
        while i < chars.count {
            let c = chars[i]
            // A numeral starts with a digit word or 十 (百 and 千 alone are words: 千克, 百货).
            if numerals[c] != nil || c == "十" {
                var j = i
                while j < chars.count, numerals[chars[j]] != nil || "十百千".contains(chars[j]) { j += 1 }
                let run = String(chars[i..<j])
                // Weekdays (周一, 星期三) stay words; so does 一 in 一下/一起 (no unit after it).
                let weekday = i > 0 && "周期拜".contains(chars[i - 1])
                if !weekday, followedByUnit(j), let n = value(run) {
                    out += String(n)
                    i = j
                    continue
                }
                out += run
                i = j
                continue
            }
            if c == "半", !(i > 0 && (chars[i - 1] == "点" || chars[i - 1] == ":")), followedByUnit(i + 1) || (i + 1 < chars.count && chars[i + 1] == "个") {
                out += "0.5"
                i += 1
                if i < chars.count, chars[i] == "个" { i += 1 }
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }

    /// "十五" → 15, "一百" → 100, "两千零五" → 2005, "三" → 3; nil when not a numeral.
    static func value(_ s: String) -> Int? {
        var total = 0, digit = -1
        var sawAny = false
        for c in s {
            if let d = numerals[c] {
                digit = d
                sawAny = true
            } else if let scale = ["十": 10, "百": 100, "千": 1000][c] {
                total += (digit < 0 ? 1 : digit) * scale
                digit = -1
                sawAny = true
            } else {
                return nil
            }
        }
        guard sawAny else { return nil }
        if digit >= 0 {
            // "两千五" is 2500, "一百二" 120: a last digit after a scale counts one scale down.
            if let last = s.last, numerals[last] != nil, s.count >= 3, let scaleChar = s.dropLast().last,
               let scale = ["百": 10, "千": 100][scaleChar] {
                total += digit * scale
            } else {
                total += digit
            }
        }
        return total
    }

    let clauseJoiners = ["顺便", "还有", "另外", "然后", "同时", "以及"]

    let cues = DialogCues(
        polite: ["帮我", "请", "麻烦", "能不能", "可不可以", "可以帮", "能否", "给我", "替我", "提醒我", "叫我", "记得提醒"],
        politeAnywhere: true,
        questionStarts: [],
        questionAnywhere: ["哪些", "什么", "几个", "几条", "多少", "有没有", "是否", "哪个", "是不是", "设过", "设了哪些", "有哪些",
                           "吗？", "吗?", "呢？", "呢?", "怎么", "为什么", "谁", "哪里", "何时", "什么时候", "了吗", "没有？", "好了没"],
        questionStrong: ["哪些", "什么", "了吗", "了没", "没有？", "没有?", "有没有", "几个", "几条"],
        selfWords: ["我"],
        otherPeople: ["别人", "朋友", "同事", "大家", "老板", "他们", "她们", "其他人", "家人"],
        abilityQuestions: ["怎么用", "怎么设置", "怎么设", "如何设置", "如何使用", "为什么", "是怎么"],
        modals: ["能", "可以"],
        questionEndings: ["吗", "呢", "没有", "了没"],
        negations: ["不用", "不要", "别", "无需", "不必", "没必要", "甭", "不需要", "算了", "取消吧", "先不", "还没", "没让你", "没完成"],
        remember: ["别忘", "不要忘", "不能忘", "别让我忘", "千万别忘"],
        carriers: ["翻译", "是什么意思", "什么意思", "总结一下这", "忽略之前", "忽略以上", "转发的邮件", "原始邮件", "润色", "怎么说",
                   "邮件里写着", "这段话", "这句话", "里说:", "里说：", "上说:", "上说：", "写着:", "写着："],
        mailHeaders: ["发件人", "主题：", "主题:", "收件人"])

    let unitWords = [
        UnitWord("公里", "km"), UnitWord("千米", "km"), UnitWord("厘米", "cm"), UnitWord("毫米", "mm"), UnitWord("英里", "mi"),
        UnitWord("英尺", "ft"), UnitWord("英寸", "in"), UnitWord("码", "yd"), UnitWord("米", "m"),
        UnitWord("千克", "kg"), UnitWord("克", "g"), UnitWord("斤", "g", 500), UnitWord("磅", "lb"), UnitWord("盎司", "oz"),
        UnitWord("摄氏度", "C"), UnitWord("摄氏", "C"), UnitWord("华氏度", "F"), UnitWord("华氏", "F"), UnitWord("开尔文", "K"),
        UnitWord("毫升", "ml"), UnitWord("升", "l"), UnitWord("加仑", "gal"), UnitWord("杯", "cup"),
    ]

    func relativeTime(in text: String, now: Int, zone: ZoneRules) -> TimeSpec? {
        let today = zone.civil(now).date
        if let m = text.firstMatch(of: Self.afterDuration), let n = Double(m.output.1) {
            let seconds = Int(n * (m.output.2 == "小时" ? 3600 : m.output.2 == "分钟" ? 60 : 86400))
            if m.output.2 == "天" {
                let d = today.adding(days: Int(n))
                return TimeSpec(start: d, end: d, hour: nil, minute: nil, phrases: [String(m.output.0)], dayGiven: true)
            }
            let c = zone.civil(now + seconds)
            return TimeSpec(start: c.date, end: c.date, hour: c.hour, minute: c.minute, phrases: [String(m.output.0)], dayGiven: true)
        }
        if let m = text.firstMatch(of: Self.weeks), let n = Int(m.output.1) {
            return TimeSpec(start: today, end: today.adding(days: 7 * n - 1), hour: nil, minute: nil, phrases: [String(m.output.0)], dayGiven: true)
        }
        if let m = text.firstMatch(of: Self.month) {
            let first = CivilDate(year: today.year, month: today.month, day: 1)
            let next = CivilDate(year: today.month == 12 ? today.year + 1 : today.year, month: today.month % 12 + 1, day: 1)
            let afterNext = CivilDate(year: next.month == 12 ? next.year + 1 : next.year, month: next.month % 12 + 1, day: 1)
            switch String(m.output) {
            case "月底", "月末": let last = next.adding(days: -1); return TimeSpec(start: last, end: last, hour: nil, minute: nil, phrases: [String(m.output)], dayGiven: true)
            case "下个月", "下月": return TimeSpec(start: next, end: afterNext.adding(days: -1), hour: nil, minute: nil, phrases: [String(m.output)], dayGiven: true)
            default: return TimeSpec(start: max(first, today), end: next.adding(days: -1), hour: nil, minute: nil, phrases: [String(m.output)], dayGiven: true)
            }
        }
        return nil
    }

    nonisolated(unsafe) static let afterDuration: Regex<(Substring, Substring, Substring)> = #/([0-9]+(?:\.[0-9]+)?)(小时|分钟|天)(?:以后|之后|后)/#
    nonisolated(unsafe) static let weeks: Regex<(Substring, Substring)> = #/(?:未来|接下来|最近|这)([0-9]+)(?:周|个星期|星期)/#
    nonisolated(unsafe) static let month: Regex<Substring> = #/月底|月末|下个月|下月|这个月|本月/#

    func place(in text: String, removing timePhrases: [String], topics: [String]) -> String? {
        let topics = topics.filter { TextMatching.hasCJK($0) }.sorted { $0.count > $1.count }
        guard TextMatching.hasCJK(text), !topics.isEmpty else { return nil }
        // "热不热" asks about 热: the topic word follows.
        var s = text.contains("不") ? text.replacing(Self.alternative) { String($0.output.1) } : text
        for p in timePhrases.sorted(by: { $0.count > $1.count }) where !p.isEmpty { s = s.replacing(p, with: "") }
        for p in ["帮我查一下", "帮我查查", "帮我看看", "帮我查", "查一下", "查查", "看看", "请问", "告诉我", "我想知道", "想知道"] where s.hasPrefix(p) {
            s = String(s.dropFirst(p.count))
        }
        // A run of 2–5 characters before a modal verb or 的 and one of the topics ("东京会下雨吗", "上海的天气").
        let alternatives = topics.map { $0.map { "\\^$.|?*+()[]{}/".contains($0) ? "\\" + String($0) : String($0) }.joined() }.joined(separator: "|")
        guard let before = try? Regex(#"^(?:去|在|到)?(\p{Han}{2,5}?)(?:的)?(?:会不会|会|要不要|要|有)?(?:"# + alternatives + ")", as: (Substring, Substring).self),
              let m = s.firstMatch(of: before) else { return nil }
        let name = String(m.output.1)
        return Self.notPlaces.contains(name) || Self.notPlaces.contains(where: { name.hasPrefix($0) }) ? nil : name
    }

    static let notPlaces: Set<String> = ["今天", "明天", "后天", "我", "我们", "家", "家里", "外面", "出门", "最近", "未来", "这里", "这边",
                                         "那边", "现在", "周末", "本周", "这周", "下周", "晚上", "早上", "下午", "上午", "中午", "一周", "这几天"]

    let titleLeading = ["请", "帮我", "麻烦", "我要", "我", "一下", "要", "记得", "：", ":", "给我设个", "设个", "设一个", "一个", "个",
                        "加个待办", "待办", "记一下", "记着", "在", "，", ",", "你能", "能", "给我", "之前", "以前"]
    let titleTrailing = ["吧", "哦", "啊", "的", "前", "之前", "一下", "吗", "呢"]

    let actionVerbs = ["添加", "加个", "加一个", "新建", "创建", "发送", "发封", "发一封", "发个", "预订", "订一张", "订个", "订", "预约",
                       "取消", "删除", "删掉", "修改", "改到", "挪到", "移到", "邀请", "回复", "打电话", "播放"]

    /// 把 puts the object before the verb ("把牛奶那条标记为完成"): a verb after it acts on what comes between.
    let objectMarkers = ["把"]

    /// "X不X" asks whether ("要不要带伞", "忙不忙"): a question, not a negation; nor is 别 in a word
    /// (别人 "other people", 特别, 区别, 分别, 别的).
    func removingNonNegations(_ lower: String) -> String {
        var s = lower.contains("不") ? lower.replacing(Self.alternative, with: " ") : lower
        if s.contains("别") {
            for word in ["别人", "特别", "区别", "分别", "别的", "类别", "告别"] where s.contains(word) { s = s.replacing(word, with: " ") }
        }
        return s
    }

    /// "X不X" ("要不要", "热不热").
    nonisolated(unsafe) static let alternative: Regex<(Substring, Substring)> = #/(\p{Han})不\1/#

    /// Fixed phrasings (`phrases`) whose first character is in `s` are replaced; the others are not searched for.
    static func rephrase(_ s: String) -> String {
        let present = Set(s)
        var s = s
        for (from, to) in phrases where present.contains(from.first!) && s.contains(from) { s = s.replacing(from, with: to) }
        return s
    }
}
