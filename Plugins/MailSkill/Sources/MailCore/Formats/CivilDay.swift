import Foundation

/// A calendar day without a time zone (proleptic Gregorian), with exact day arithmetic, and RFC 3339
/// formatting of instants at a fixed UTC offset.
///
/// Contract: `init?(year:month:day:)` accepts only existing days; `dayNumber` counts days since
/// 1970-01-01; `weekday` is 1 = Monday … 7 = Sunday (ISO 8601); `description` is `YYYY-MM-DD`.
public struct CivilDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int, month: Int, day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(year: year, month: month) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Howard Hinnant's civil_from_days.
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let m = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        month = m
        day = doy - (153 * mp + 2) / 5 + 1
    }

    /// The day of `date` at `offsetSeconds` from UTC.
    public init(_ date: Date, offsetSeconds: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + offsetSeconds
        self.init(dayNumber: seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400))
    }

    /// Howard Hinnant's days_from_civil.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        return era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
    }

    /// 1 = Monday … 7 = Sunday.
    public var weekday: Int { ((dayNumber % 7) + 7 + 3) % 7 + 1 }

    public func adding(days: Int) -> CivilDay { CivilDay(dayNumber: dayNumber + days) }

    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    public static func < (a: CivilDay, b: CivilDay) -> Bool { a.dayNumber < b.dayNumber }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

public enum RFC3339 {
    /// `2026-11-26T09:00:00+01:00`, or `…Z` at offset zero (whole seconds).
    public static func format(_ date: Date, offsetSeconds: Int) -> String {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offsetSeconds
        let day = CivilDay(dayNumber: local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400))
        let s = local - day.dayNumber * 86_400
        var out = "\(day)T" + String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        if offsetSeconds == 0 { return out + "Z" }
        let a = abs(offsetSeconds)
        out += (offsetSeconds < 0 ? "-" : "+") + String(format: "%02d:%02d", a / 3600, a / 60 % 60)
        return out
    }
}
