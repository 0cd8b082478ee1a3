/// A parsed RRULE (RFC 5545 §3.3.10).
///
/// Expanded (see `RecurrenceExpander`): FREQ=DAILY, WEEKLY, MONTHLY and YEARLY with INTERVAL, COUNT, UNTIL,
/// WKST, BYMONTH, BYMONTHDAY (negative = from the month's end) and BYDAY (weekly: days of the week;
/// monthly, and yearly with BYMONTH: optionally with an ordinal, `1MO`, `-1FR`).
/// Anything else (sub-daily frequencies, BYSETPOS, BYHOUR, BYWEEKNO, RFC 7529's RSCALE/SKIP, …) is reported in
/// `unsupportedReason`; such an event is then shown at its DTSTART only.
public struct RecurrenceRule: Sendable, Equatable {
    public enum Frequency: String, Sendable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY"
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// `MO`, `1MO`, `-1FR`.
    public struct WeekdayNum: Sendable, Hashable {
        public var ordinal: Int?
        public var weekday: Weekday

        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    public var frequency: Frequency
    public var interval: Int = 1
    public var count: Int?
    public var until: ICSDateValue?
    public var byDay: [WeekdayNum] = []
    public var byMonthDay: [Int] = []
    public var byMonth: [Int] = []
    public var weekStart: Weekday = .monday
    /// BY* parts that were present but are not implemented.
    public var unsupportedParts: [String] = []

    public init(frequency: Frequency) {
        self.frequency = frequency
    }

    /// Why this rule cannot be expanded faithfully, or nil if it can.
    public var unsupportedReason: String? {
        switch frequency {
        case .secondly, .minutely, .hourly:
            return "FREQ=\(frequency.rawValue) is not supported"
        default: break
        }
        if !unsupportedParts.isEmpty {
            return "\(unsupportedParts.joined(separator: ", ")) \(unsupportedParts.count == 1 ? "is" : "are") not supported"
        }
        if frequency == .yearly, !byDay.isEmpty, byMonth.isEmpty {
            return "FREQ=YEARLY with BYDAY but without BYMONTH is not supported"
        }
        if frequency == .daily || frequency == .weekly, byDay.contains(where: { $0.ordinal != nil }) {
            return "BYDAY with an ordinal is only meaningful for MONTHLY and YEARLY"
        }
        if frequency == .weekly, !byMonthDay.isEmpty {
            return "BYMONTHDAY with FREQ=WEEKLY is not allowed"
        }
        return nil
    }

    /// Parses the RRULE value. `startZone` is the zone of DTSTART: a floating UNTIL is read in it.
    public static func parse(_ value: String, startZone: ICSZone) throws(ICSSyntaxError) -> RecurrenceRule {
        var parts: [String: String] = [:]
        for part in value.split(separator: ";", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { throw ICSSyntaxError("RRULE part \"\(part)\" has no '='") }
            let key = pieces[0].trimmedSpaces.uppercased()
            guard parts[key] == nil else { throw ICSSyntaxError("RRULE repeats \(key)") }
            parts[key] = pieces[1].trimmedSpaces
        }
        guard let freqText = parts["FREQ"] else { throw ICSSyntaxError("RRULE has no FREQ") }
        guard let frequency = Frequency(rawValue: freqText.uppercased()) else {
            throw ICSSyntaxError("RRULE has an unknown FREQ=\(freqText)")
        }
        var rule = RecurrenceRule(frequency: frequency)

        func integer(_ key: String, _ text: String) throws(ICSSyntaxError) -> Int {
            let trimmed = text.hasPrefix("+") ? String(text.dropFirst()) : text
            guard let n = Int(trimmed) else { throw ICSSyntaxError("RRULE \(key)=\(text) is not a number") }
            return n
        }
        func list(_ key: String, _ text: String, _ range: ClosedRange<Int>) throws(ICSSyntaxError) -> [Int] {
            var out: [Int] = []
            for item in text.split(separator: ",") {
                let n = try integer(key, String(item))
                guard range.contains(n), n != 0 else { throw ICSSyntaxError("RRULE \(key) value \(n) is out of range") }
                out.append(n)
            }
            return out
        }

        for (key, text) in parts.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "FREQ":
                break
            case "INTERVAL":
                rule.interval = try integer(key, text)
                guard rule.interval >= 1 else { throw ICSSyntaxError("RRULE INTERVAL must be at least 1") }
            case "COUNT":
                let n = try integer(key, text)
                guard n >= 1 else { throw ICSSyntaxError("RRULE COUNT must be at least 1") }
                rule.count = n
            case "UNTIL":
                rule.until = try ICSDateValue.parse(text, valueType: nil, zone: startZone)
            case "WKST":
                guard let day = Weekday(rawValue: text.uppercased()) else {
                    throw ICSSyntaxError("RRULE WKST=\(text) is not a weekday")
                }
                rule.weekStart = day
            case "BYDAY":
                for item in text.split(separator: ",") {
                    let token = item.trimmedSpaces.uppercased()
                    guard token.count >= 2, let day = Weekday(rawValue: String(token.suffix(2))) else {
                        throw ICSSyntaxError("RRULE BYDAY value \"\(item)\" is not a weekday")
                    }
                    let prefix = token.dropLast(2)
                    var ordinal: Int? = nil
                    if !prefix.isEmpty {
                        let n = try integer(key, String(prefix))
                        guard n != 0, abs(n) <= 53 else { throw ICSSyntaxError("RRULE BYDAY ordinal \(n) is out of range") }
                        ordinal = n
                    }
                    rule.byDay.append(WeekdayNum(day, ordinal: ordinal))
                }
            case "BYMONTHDAY":
                rule.byMonthDay = try list(key, text, -31...31)
            case "BYMONTH":
                rule.byMonth = try list(key, text, 1...12)
            case "BYSETPOS", "BYHOUR", "BYMINUTE", "BYSECOND", "BYWEEKNO", "BYYEARDAY", "RSCALE", "SKIP":
                rule.unsupportedParts.append(key)
            default:
                if !key.hasPrefix("X-") { throw ICSSyntaxError("RRULE has an unknown part \(key)") }
            }
        }
        return rule
    }
}
