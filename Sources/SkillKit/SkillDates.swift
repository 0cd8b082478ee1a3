import Foundation

/// Strict parsing and formatting of the two date shapes that cross the ABI as JSON strings:
/// a calendar day `YYYY-MM-DD` (JSON Schema format "date") and an RFC 3339 instant
/// `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` (format "date-time").
///
/// Pure arithmetic on the proleptic Gregorian calendar: no formatter objects, safe from any thread.
/// The throwing variants throw `SkillError.invalidInput` with a message naming the field, e.g.
/// `field "from": expected a date YYYY-MM-DD, found "2025-02-30"`.
public enum SkillDates {
    /// UTC, the zone results are encoded in by default.
    public static let utc = TimeZone(secondsFromGMT: 0)!

    // MARK: Parsing

    /// Parses `YYYY-MM-DD` (a real day: month 1–12, day within the month, leap years honoured).
    /// - Throws: `SkillError.invalidInput` naming `field`.
    public static func day(_ text: String, field: String) throws -> (year: Int, month: Int, day: Int) {
        guard let d = parseDay(text) else {
            throw SkillError.invalidInput("field \(quoted(field)): expected a date YYYY-MM-DD, found \(quoted(text))")
        }
        return d
    }

    /// Parses an RFC 3339 date-time with a mandatory offset (`Z`, `+08:00`, `-05:30`); the fraction of a
    /// second is optional. `T`/`t` and `Z`/`z` are both accepted, as RFC 3339 allows.
    /// - Throws: `SkillError.invalidInput` naming `field`.
    public static func instant(_ text: String, field: String) throws -> Date {
        guard let date = parseInstant(text) else {
            throw SkillError.invalidInput(
                "field \(quoted(field)): expected an RFC 3339 date-time such as 2025-03-01T09:30:00+08:00, found \(quoted(text))")
        }
        return date
    }

    /// Non-throwing `day(_:field:)`: `nil` if `text` is not a valid `YYYY-MM-DD`.
    public static func parseDay(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = digits(b, 0, 4), let m = digits(b, 5, 2), let d = digits(b, 8, 2),
              (1...12).contains(m), d >= 1, d <= daysInMonth(y, m) else { return nil }
        return (y, m, d)
    }

    /// Non-throwing `instant(_:field:)`: `nil` if `text` is not a valid RFC 3339 date-time.
    public static func parseInstant(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, let (y, mo, d) = parseDay(String(decoding: b[0..<10], as: UTF8.self)),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let h = digits(b, 11, 2), let mi = digits(b, 14, 2), let s = digits(b, 17, 2),
              h <= 23, mi <= 59, s <= 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, let v = digit(b[i]) { fraction += Double(v) * scale; scale /= 10; i += 1 }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == b.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == b.count, b[i + 3] == UInt8(ascii: ":"),
                  let oh = digits(b, i + 1, 2), let om = digits(b, i + 4, 2), oh <= 23, om <= 59 else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let seconds = daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    // MARK: Formatting

    /// Formats `date` as RFC 3339 in `timeZone` with its offset: `2025-03-01T09:30:00+08:00`, or `…Z` when
    /// the offset is zero. Milliseconds are written (`.250`) only when they are not zero.
    public static func format(_ date: Date, timeZone: TimeZone = SkillDates.utc) -> String {
        let offset = timeZone.secondsFromGMT(for: date)
        let totalMs = Int((date.timeIntervalSince1970 * 1000).rounded(.toNearestOrEven)) + offset * 1000
        let days = floorDiv(totalMs, 86_400_000)
        let msOfDay = totalMs - days * 86_400_000
        let (y, m, d) = civilFromDays(days)
        let secOfDay = msOfDay / 1000, ms = msOfDay % 1000
        var out = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secOfDay / 3600, 2)):\(pad(secOfDay / 60 % 60, 2)):\(pad(secOfDay % 60, 2))"
        if ms != 0 { out += ".\(pad(ms, 3))" }
        if offset == 0 {
            out += "Z"
        } else {
            let a = abs(offset)
            out += "\(offset < 0 ? "-" : "+")\(pad(a / 3600, 2)):\(pad(a / 60 % 60, 2))"
        }
        return out
    }

    /// The calendar day of `date` in `timeZone`, as `YYYY-MM-DD`.
    public static func formatDay(_ date: Date, timeZone: TimeZone = SkillDates.utc) -> String {
        String(format(date, timeZone: timeZone).prefix(10))
    }

    /// The first instant of the given day in `timeZone` (local midnight; on a day whose midnight is
    /// skipped by a DST change, the first instant that exists).
    public static func startOfDay(year: Int, month: Int, day: Int, timeZone: TimeZone) -> Date {
        let utcMidnight = Double(daysFromCivil(year, month, day) * 86_400)
        var guess = utcMidnight - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: utcMidnight)))
        guess = utcMidnight - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: guess)))
        return Date(timeIntervalSince1970: guess)
    }

    // MARK: Helpers

    static func quoted(_ s: String) -> String { SkillJSON.quote(s) }

    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func digit(_ c: UInt8) -> Int? {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") ? Int(c - UInt8(ascii: "0")) : nil
    }

    private static func digits(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var v = 0
        for i in start..<start + count {
            guard let d = digit(b[i]) else { return nil }
            v = v * 10 + d
        }
        return v
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(abs(v))
        return (v < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
