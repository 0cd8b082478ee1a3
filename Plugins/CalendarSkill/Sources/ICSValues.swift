import Foundation

/// Which clock a DATE-TIME is read on (RFC 5545 §3.3.5 forms 1–3).
public enum ICSZone: Sendable, Hashable {
    /// `…Z`
    case utc
    /// No `Z`, no `TZID`: the same wall-clock time wherever the reader is (here: the context's zone).
    case floating
    /// `TZID=…` resolved to a zone (IANA, or the file's VTIMEZONE).
    case named(CalendarZone)

    /// `TZID=…` resolved to an IANA zone.
    public static func named(_ zone: TimeZone) -> ICSZone { .named(CalendarZone(zone)) }

    /// The zone wall-clock arithmetic (recurrence, nominal durations) is done in.
    public func timeZone(floating: TimeZone) -> CalendarZone {
        switch self {
        case .utc: return .utc
        case .floating: return CalendarZone(floating)
        case .named(let zone): return zone
        }
    }
}

/// A DATE or DATE-TIME value.
public enum ICSDateValue: Sendable, Hashable, CustomStringConvertible {
    case date(CivilDate)
    case dateTime(LocalDateTime, ICSZone)

    public var isDate: Bool {
        if case .date = self { return true }
        return false
    }

    /// The civil day part (for a DATE-TIME, the day of its wall-clock reading).
    public var civilDate: CivilDate {
        switch self {
        case .date(let d): return d
        case .dateTime(let t, _): return t.date
        }
    }

    public func timeZone(floating: TimeZone) -> CalendarZone {
        switch self {
        case .date: return CalendarZone(floating)
        case .dateTime(_, let zone): return zone.timeZone(floating: floating)
        }
    }

    /// The instant this value denotes; a DATE denotes its local midnight in `floating`.
    public func instant(floating: TimeZone) -> Date {
        switch self {
        case .date(let d): return d.startInstant(in: floating)
        case .dateTime(let t, let zone): return t.instant(in: zone.timeZone(floating: floating))
        }
    }

    public var description: String {
        switch self {
        case .date(let d): return d.description
        case .dateTime(let t, .utc): return t.description + "Z"
        case .dateTime(let t, .floating): return t.description
        case .dateTime(let t, .named(let z)): return t.description + "[\(z.identifier)]"
        }
    }

    /// Parses a DATE (`20261130`) or DATE-TIME (`20261130T100000`, `20261130T100000Z`).
    ///
    /// - Parameters:
    ///   - valueType: the `VALUE` parameter, if any (`DATE` forces a date; `DATE-TIME` forbids one).
    ///   - zone: the zone a DATE-TIME without `Z` is read in (`.floating` or the resolved `TZID`).
    public static func parse(_ raw: String, valueType: String?, zone: ICSZone) throws(ICSSyntaxError) -> ICSDateValue {
        let text = raw.trimmedSpaces
        let type = valueType?.uppercased()
        if type == "DATE" || (type == nil && text.utf8.count == 8) {
            guard let d = CivilDate.parseBasic(Substring(text)) else {
                throw ICSSyntaxError("invalid DATE \"\(text)\" (expected YYYYMMDD)")
            }
            return .date(d)
        }
        if let type, type != "DATE-TIME" {
            throw ICSSyntaxError("unsupported VALUE=\(type) (expected DATE or DATE-TIME)")
        }
        let bytes = Array(text.utf8)
        let isUTC = bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z")
        let core = isUTC ? bytes.dropLast() : bytes[...]
        guard core.count == 15, core[core.startIndex + 8] == UInt8(ascii: "T") || core[core.startIndex + 8] == UInt8(ascii: "t"),
              let date = CivilDate.parseBasic(Substring(decoding: core.prefix(8), as: UTF8.self)),
              let hour = CivilDate.digits(core.dropFirst(9).prefix(2)),
              let minute = CivilDate.digits(core.dropFirst(11).prefix(2)),
              let second = CivilDate.digits(core.dropFirst(13).prefix(2)),
              hour <= 23, minute <= 59, second <= 60 else {
            throw ICSSyntaxError("invalid DATE-TIME \"\(text)\" (expected YYYYMMDDTHHMMSS, optionally with Z)")
        }
        // A leap second (60) is read as the last second of the minute.
        let time = LocalDateTime(date: date, hour: hour, minute: minute, second: min(second, 59))
        return .dateTime(time, isUTC ? .utc : zone)
    }
}

/// A DURATION value (RFC 5545 §3.3.6): weeks and days are nominal (calendar days, so a day across a DST
/// change may be 23 or 25 hours); hours, minutes and seconds are exact.
public struct ICSDuration: Sendable, Hashable, CustomStringConvertible {
    public var negative: Bool
    public var days: Int       // weeks folded in (1W = 7 days)
    public var seconds: Int    // hours, minutes, seconds

    public init(negative: Bool = false, days: Int = 0, seconds: Int = 0) {
        self.negative = negative
        self.days = days
        self.seconds = seconds
    }

    public var description: String {
        "\(negative ? "-" : "")P\(days)DT\(seconds)S"
    }

    /// `P1D`, `PT1H30M`, `P1W`, `-PT15M`, `P1DT2H`, `+PT0S`.
    public static func parse(_ raw: String) throws(ICSSyntaxError) -> ICSDuration {
        var text = Substring(raw.trimmedSpaces.uppercased())
        var result = ICSDuration()
        if text.first == "-" {
            result.negative = true
            text = text.dropFirst()
        } else if text.first == "+" {
            text = text.dropFirst()
        }
        guard text.first == "P", text.count > 1 else {
            throw ICSSyntaxError("invalid DURATION \"\(raw)\" (expected e.g. PT1H30M or P1D)")
        }
        text = text.dropFirst()
        var inTime = false
        var number: Int? = nil
        var sawComponent = false
        for c in text {
            if let digit = c.wholeNumberValue, c.isASCII {
                number = (number ?? 0) * 10 + digit
                if number! > 10_000_000 { throw ICSSyntaxError("DURATION \"\(raw)\" is too large") }
                continue
            }
            if c == "T" {
                guard !inTime, number == nil else { throw ICSSyntaxError("invalid DURATION \"\(raw)\"") }
                inTime = true
                continue
            }
            guard let n = number else { throw ICSSyntaxError("invalid DURATION \"\(raw)\"") }
            switch (c, inTime) {
            case ("W", false): result.days += 7 * n
            case ("D", false): result.days += n
            case ("H", true): result.seconds += 3600 * n
            case ("M", true): result.seconds += 60 * n
            case ("S", true): result.seconds += n
            default: throw ICSSyntaxError("invalid DURATION \"\(raw)\" (unexpected '\(c)')")
            }
            number = nil
            sawComponent = true
        }
        guard number == nil, sawComponent else {
            throw ICSSyntaxError("invalid DURATION \"\(raw)\" (expected e.g. PT1H30M or P1D)")
        }
        return result
    }

    /// `start` plus this duration, the days counted on the wall clock of `zone`.
    public func added(to start: Date, in zone: CalendarZone) -> Date {
        let sign = negative ? -1 : 1
        var instant = start
        if days != 0 {
            var local = LocalDateTime.containing(start, in: zone)
            local.date = local.date.adding(days: sign * days)
            instant = local.instant(in: zone)
        }
        return instant.addingTimeInterval(Double(sign * seconds))
    }
}
