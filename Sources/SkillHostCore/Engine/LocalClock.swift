import Glibc

/// A day on the calendar, without a time zone: what "today", "明天" or "Friday" resolve to.
public struct CivilDate: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int

    public init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }

    /// "YYYY-MM-DD", or nil.
    public init?(_ text: String) {
        let p = text.split(separator: "-")
        guard p.count == 3, let y = Int(p[0]), let m = Int(p[1]), let d = Int(p[2]), (1...12).contains(m), (1...31).contains(d) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(dayNumber z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    /// 1 = Monday … 7 = Sunday (ISO 8601).
    public var weekday: Int { ((dayNumber % 7) + 7 + 3) % 7 + 1 }

    public var description: String { TimeText.padded(year, 4) + "-" + TimeText.padded(month, 2) + "-" + TimeText.padded(day, 2) }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }
}

/// Reading instants written by people and scripts. Civil time in a zone is `ZoneRules`' job: every
/// request and call carries its zone explicitly.
public enum LocalClock {
    /// Seconds since the epoch for an RFC 3339 date-time ("2026-11-29T09:00:00+08:00", "…Z",
    /// fractional seconds allowed), or nil.
    public static func parseInstant(_ text: String) -> Int? {
        let b = Array(text.utf8)
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= b.count else { return nil }
            var n = 0
            for c in b[from..<from + len] { guard c >= 48 && c <= 57 else { return nil }; n = n * 10 + Int(c - 48) }
            return n
        }
        guard b.count >= 20, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
              b[10] == 84 || b[10] == 116 || b[10] == 32, let h = num(11, 2), b[13] == 58, let mi = num(14, 2), b[16] == 58,
              let s = num(17, 2), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        var i = 19
        if i < b.count, b[i] == 46 { i += 1; while i < b.count, b[i] >= 48 && b[i] <= 57 { i += 1 } }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == 90 || b[i] == 122 {
            guard i + 1 == b.count else { return nil }
        } else {
            guard b[i] == 43 || b[i] == 45, i + 6 == b.count, let oh = num(i + 1, 2), b[i + 3] == 58, let om = num(i + 4, 2) else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == 45 ? -1 : 1)
        }
        return CivilDate(year: y, month: mo, day: d).dayNumber * 86400 + h * 3600 + mi * 60 + s - offset
    }
}
