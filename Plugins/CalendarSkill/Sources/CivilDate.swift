import Foundation

/// A calendar day with no time zone attached (proleptic Gregorian), e.g. the value of `DTSTART;VALUE=DATE`.
///
/// Arithmetic is done on a day number (days since 1970-01-01), so it is exact and cheap; converting to an
/// instant needs a time zone (`startInstant(in:)`).
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Validating initializer: nil unless the date exists (month 1–12, day within the month).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// From a day number (days since 1970-01-01). Howard Hinnant's `civil_from_days`.
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// Days since 1970-01-01 (negative before). Howard Hinnant's `days_from_civil`.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let n = ((dayNumber % 7) + 7 + 3) % 7   // 0 = Monday
        return Weekday.allCases[n]
    }

    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    public static func - (lhs: CivilDate, rhs: CivilDate) -> Int { lhs.dayNumber - rhs.dayNumber }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2)
    }

    /// `value` in decimal, zero-padded to `width` (cheaper than `String(format:)`, which is slow on Linux).
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(abs(value))
        let padded = text.count < width ? String(repeating: "0", count: width - text.count) + text : text
        return value < 0 ? "-" + padded : padded
    }

    /// Parses exactly `YYYY-MM-DD` (the form used by the intents' `from`/`to`).
    public static func parseISO(_ text: String) -> CivilDate? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let y = digits(bytes[0..<4]), let m = digits(bytes[5..<7]), let d = digits(bytes[8..<10]) else {
            return nil
        }
        return CivilDate(year: y, month: m, day: d)
    }

    /// Parses exactly `YYYYMMDD` (the iCalendar DATE form).
    public static func parseBasic(_ text: Substring) -> CivilDate? {
        let bytes = Array(text.utf8)
        guard bytes.count == 8, let y = digits(bytes[0..<4]), let m = digits(bytes[4..<6]),
              let d = digits(bytes[6..<8]) else {
            return nil
        }
        return CivilDate(year: y, month: m, day: d)
    }

    static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for b in bytes {
            guard b >= 48, b <= 57 else { return nil }
            value = value * 10 + Int(b - 48)
        }
        return value
    }

    /// The instant this day starts at in `zone` (local midnight; if midnight does not exist because of a
    /// DST jump, the first instant of the day).
    public func startInstant(in zone: TimeZone) -> Date {
        startInstant(in: CalendarZone(zone))
    }

    public func startInstant(in zone: CalendarZone) -> Date {
        LocalDateTime(date: self, hour: 0, minute: 0, second: 0).instant(in: zone)
    }

    /// The civil day `instant` falls on in `zone`.
    public static func containing(_ instant: Date, in zone: TimeZone) -> CivilDate {
        LocalDateTime.containing(instant, in: CalendarZone(zone)).date
    }

    public static func containing(_ instant: Date, in zone: CalendarZone) -> CivilDate {
        LocalDateTime.containing(instant, in: zone).date
    }
}

/// Days of the week in iCalendar order (`MO`…`SU`).
public enum Weekday: String, CaseIterable, Sendable, Hashable {
    case monday = "MO", tuesday = "TU", wednesday = "WE", thursday = "TH", friday = "FR", saturday = "SA",
         sunday = "SU"

    /// 0 for Monday … 6 for Sunday.
    public var index: Int { Weekday.allCases.firstIndex(of: self)! }
}

/// A wall-clock date and time with no zone attached.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(date: CivilDate, hour: Int, minute: Int, second: Int) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public var secondOfDay: Int { hour * 3600 + minute * 60 + second }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.secondOfDay) < (rhs.date, rhs.secondOfDay)
    }

    public var description: String {
        date.description + "T" + CivilDate.digits(hour, 2) + ":" + CivilDate.digits(minute, 2) + ":" + CivilDate.digits(second, 2)
    }

    /// Seconds since 1970-01-01T00:00:00 of the wall clock, as if it were UTC.
    var wallSeconds: Int { date.dayNumber * 86_400 + secondOfDay }

    init(wallSeconds: Int) {
        let days = wallSeconds >= 0 ? wallSeconds / 86_400 : -((-wallSeconds + 86_399) / 86_400)
        let rest = wallSeconds - days * 86_400
        self.init(date: CivilDate(dayNumber: days), hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }

    /// The instant this wall-clock time denotes in `zone`.
    ///
    /// Ambiguous times (the repeated hour when clocks go back) resolve to the earlier instant; times that
    /// do not exist (skipped when clocks go forward) are shifted forward by the size of the gap, which is
    /// what RFC 5545 §3.3.5 asks for ("interpreted using the UTC offset before the gap").
    public func instant(in zone: TimeZone) -> Date {
        instant(in: CalendarZone(zone))
    }

    public func instant(in zone: CalendarZone) -> Date {
        let wall = Double(wallSeconds)
        // Two refinements of "wall - offset(at guess)" find a consistent offset where one exists.
        let guess = Date(timeIntervalSince1970: wall - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))))
        let offset1 = zone.secondsFromGMT(for: guess)
        let candidate = Date(timeIntervalSince1970: wall - Double(offset1))
        let offset2 = zone.secondsFromGMT(for: candidate)
        if offset1 == offset2 {
            // Prefer the earlier of two valid readings (fall-back overlap).
            let earlierOffset = zone.secondsFromGMT(for: candidate.addingTimeInterval(-3 * 3600))
            if earlierOffset != offset1 {
                let earlier = Date(timeIntervalSince1970: wall - Double(earlierOffset))
                if zone.secondsFromGMT(for: earlier) == earlierOffset && earlier < candidate { return earlier }
            }
            return candidate
        }
        // In a gap: use the offset in force before the gap.
        let before = min(offset1, offset2)
        return Date(timeIntervalSince1970: wall - Double(before))
    }

    /// The wall-clock reading of `instant` in `zone`.
    public static func containing(_ instant: Date, in zone: TimeZone) -> LocalDateTime {
        containing(instant, in: CalendarZone(zone))
    }

    public static func containing(_ instant: Date, in zone: CalendarZone) -> LocalDateTime {
        let seconds = Int(floor(instant.timeIntervalSince1970)) + zone.secondsFromGMT(for: instant)
        return LocalDateTime(wallSeconds: seconds)
    }
}
