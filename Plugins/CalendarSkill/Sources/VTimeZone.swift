/// A VTIMEZONE as written in a file (RFC 5545 §3.6.5): its TZID, `X-LIC-LOCATION` and observances.
///
/// `rules()` evaluates the observances into UTC transitions: each STANDARD or DAYLIGHT sub-component
/// starts at its DTSTART (a local time read with its TZOFFSETFROM), recurs by its RRULE and RDATEs, and
/// from each onset on the offset is its TZOFFSETTO. Before the earliest onset the earliest observance's
/// TZOFFSETFROM applies; after the last computed onset (year `horizonYear`) the last offset stays.
public struct VTimeZone: Sendable, Equatable {
    public struct Observance: Sendable, Equatable {
        public enum Kind: String, Sendable { case standard = "STANDARD", daylight = "DAYLIGHT" }

        public var kind: Kind
        /// DTSTART: wall-clock time in `offsetFrom`.
        public var start: LocalDateTime?
        public var offsetFrom: Int?
        public var offsetTo: Int?
        /// The RRULE text as written (parsed when the rules are built).
        public var rule: String?
        public var rdates: [ICSDateValue] = []

        public init(kind: Kind) {
            self.kind = kind
        }
    }

    public var tzid: String
    public var location: String?
    public var observances: [Observance] = []

    public init(tzid: String, location: String? = nil, observances: [Observance] = []) {
        self.tzid = tzid
        self.location = location
        self.observances = observances
    }

    /// Years past which no onset is computed (a rule is assumed to go on as before).
    public static let horizonYear = 2200
    /// Upper bound on the recurrence periods walked per observance, against pathological rules.
    static let maxPeriods = 5_000

    /// The transitions of this VTIMEZONE, or nil when no observance has a DTSTART and a TZOFFSETTO.
    public func rules() -> VTimeZoneRules? {
        var transitions: [(onset: Int, offset: Int, from: Int)] = []
        for observance in observances {
            guard let start = observance.start, let to = observance.offsetTo else { continue }
            let from = observance.offsetFrom ?? to
            func add(_ local: LocalDateTime) { transitions.append((local.wallSeconds - from, to, from)) }

            add(start)
            for rdate in observance.rdates {
                switch rdate {
                case .dateTime(let t, .utc): transitions.append((t.wallSeconds, to, from))
                case .dateTime(let t, _): add(t)
                case .date(let d): add(LocalDateTime(date: d, hour: 0, minute: 0, second: 0))
                }
            }
            guard let text = observance.rule,
                  let rule = try? RecurrenceRule.parse(text, startZone: .floating), rule.unsupportedReason == nil else { continue }
            var produced = 1
            periods: for period in 0..<Self.maxPeriods {
                guard let (periodStart, days) = RecurrencePeriods.candidates(period: period, start: start.date, rule: rule),
                      periodStart.year <= Self.horizonYear else { break }
                for day in days {
                    let local = LocalDateTime(date: day, hour: start.hour, minute: start.minute, second: start.second)
                    guard local > start else { continue }
                    switch rule.until {
                    case .date(let d)?:
                        if day > d { break periods }
                    case .dateTime(let t, .utc)?:
                        if local.wallSeconds - from > t.wallSeconds { break periods }
                    case .dateTime(let t, _)?:
                        if local > t { break periods }
                    case nil:
                        break
                    }
                    if let count = rule.count {
                        if produced >= count { break periods }
                        produced += 1
                    }
                    add(local)
                }
            }
        }
        guard !transitions.isEmpty else { return nil }
        transitions.sort { $0.onset < $1.onset }
        return VTimeZoneRules(tzid: tzid, onsets: transitions.map(\.onset), offsets: transitions.map(\.offset),
                              initialOffset: transitions[0].from)
    }
}
