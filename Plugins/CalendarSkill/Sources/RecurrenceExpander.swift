import Foundation

/// One concrete occurrence of an event, ready to show.
public struct EventOccurrence: Sendable, Equatable {
    /// The event whose details apply (the series, or the override of this instance).
    public var event: ICSEvent
    public var start: Date
    /// Exclusive. Equal to `start` for an event without duration.
    public var end: Date
    /// For all-day occurrences: the first day and the day after the last (exclusive), as in DTEND.
    public var allDayRange: (start: CivilDate, end: CivilDate)?

    public var isAllDay: Bool { allDayRange != nil }

    public init(event: ICSEvent, start: Date, end: Date, allDayRange: (start: CivilDate, end: CivilDate)? = nil) {
        self.event = event
        self.start = start
        self.end = end
        self.allDayRange = allDayRange
    }

    public static func == (lhs: EventOccurrence, rhs: EventOccurrence) -> Bool {
        lhs.event == rhs.event && lhs.start == rhs.start && lhs.end == rhs.end
            && lhs.allDayRange?.start == rhs.allDayRange?.start && lhs.allDayRange?.end == rhs.allDayRange?.end
    }

    /// Whether the occurrence overlaps `[from, to)`. An event without duration counts when it starts in it.
    public func overlaps(from: Date, to: Date) -> Bool {
        if end <= start { return start >= from && start < to }
        return start < to && end > from
    }
}

/// Turns events (series with RRULE/RDATE/EXDATE and their RECURRENCE-ID overrides) into the occurrences
/// that overlap a window. Floating times and all-day dates are read in `floatingZone` (the caller's zone).
public struct RecurrenceExpander: Sendable {
    public let floatingZone: TimeZone
    /// Upper bound on recurrence periods walked per series, against pathological rules.
    public var maxPeriods = 200_000

    public init(floatingZone: TimeZone) {
        self.floatingZone = floatingZone
    }

    /// Occurrences overlapping `[from, to)`, sorted by start (then end, summary, uid). Cancelled events and
    /// cancelled instances are left out.
    public func occurrences(of events: [ICSEvent], from: Date, to: Date) -> [EventOccurrence] {
        // A series and its overrides share calendar file + UID.
        struct Key: Hashable { var file: String; var uid: String }
        var overrides: [Key: [ICSEvent]] = [:]
        var masters: [ICSEvent] = []
        for event in events {
            let key = Key(file: event.file, uid: event.uid)
            if event.recurrenceID != nil {
                overrides[key, default: []].append(event)
            } else {
                masters.append(event)
            }
        }

        var result: [EventOccurrence] = []
        for master in masters {
            let key = Key(file: master.file, uid: master.uid)
            let replaced = overrides[key]?.compactMap(\.recurrenceID) ?? []
            if master.isCancelled { continue }
            expand(master, replacedInstances: replaced, from: from, to: to) { result.append($0) }
        }
        for list in overrides.values {
            // Among several overrides of the same instance, the highest SEQUENCE wins.
            var latest: [String: ICSEvent] = [:]
            for event in list {
                let id = event.recurrenceID!.description
                if let existing = latest[id], existing.sequence > event.sequence { continue }
                latest[id] = event
            }
            for event in latest.values where !event.isCancelled {
                let occurrence = single(event, at: event.start)
                if occurrence.overlaps(from: from, to: to) { result.append(occurrence) }
            }
        }
        // Sorted through indices: an occurrence carries its whole event, too big to move around in a sort.
        let order = result.indices.sorted { i, j in
            if result[i].start != result[j].start { return result[i].start < result[j].start }
            if result[i].end != result[j].end { return result[i].end < result[j].end }
            let sa = result[i].event.summary ?? "", sb = result[j].event.summary ?? ""
            if sa != sb { return sa < sb }
            return result[i].event.uid < result[j].event.uid
        }
        return order.map { result[$0] }
    }

    // MARK: - One series

    /// The occurrence of `event` starting at `start` (a value of the event's own kind), with its duration.
    func single(_ event: ICSEvent, at start: ICSDateValue) -> EventOccurrence {
        if event.isAllDay {
            let day = start.civilDate
            let endDay = day.adding(days: allDayLength(event))
            return EventOccurrence(event: event, start: day.startInstant(in: floatingZone),
                                   end: endDay.startInstant(in: floatingZone), allDayRange: (day, endDay))
        }
        let instant = start.instant(floating: floatingZone)
        return EventOccurrence(event: event, start: instant, end: end(of: event, startingAt: instant))
    }

    /// Days an all-day event lasts (at least 1).
    func allDayLength(_ event: ICSEvent) -> Int {
        switch event.end {
        case .dtend(let end): return max(1, end.civilDate - event.start.civilDate)
        case .duration(let d): return max(1, d.days + (d.seconds + 86_399) / 86_400)
        case .none: return 1
        }
    }

    /// End of a timed occurrence: DTEND gives the same exact length to every instance; DURATION is added on
    /// the wall clock of the event's zone (so `P1D` stays "same time next day" across DST).
    func end(of event: ICSEvent, startingAt start: Date) -> Date {
        switch event.end {
        case .dtend(let end):
            let length = end.instant(floating: floatingZone).timeIntervalSince(event.start.instant(floating: floatingZone))
            return start.addingTimeInterval(max(0, length))
        case .duration(let d):
            return d.added(to: start, in: event.start.timeZone(floating: floatingZone))
        case .none:
            return start
        }
    }

    /// Longest an instance can last, to know how far before the window a series must be walked.
    func maxLength(_ event: ICSEvent) -> TimeInterval {
        if event.isAllDay { return Double(allDayLength(event) + 1) * 86_400 }
        switch event.end {
        case .dtend: return end(of: event, startingAt: event.start.instant(floating: floatingZone))
            .timeIntervalSince(event.start.instant(floating: floatingZone))
        case .duration(let d): return Double(d.days) * 86_400 + Double(d.seconds) + 7_200
        case .none: return 0
        }
    }

    func expand(_ master: ICSEvent, replacedInstances: [ICSDateValue], from: Date, to: Date,
                emit: (EventOccurrence) -> Void) {
        let zone = master.start.timeZone(floating: floatingZone)
        let allDay = master.isAllDay
        let startLocal: LocalDateTime
        switch master.start {
        case .date(let d): startLocal = LocalDateTime(date: d, hour: 0, minute: 0, second: 0)
        case .dateTime(let t, _): startLocal = t
        }
        func instant(of local: LocalDateTime) -> Date {
            allDay ? local.date.startInstant(in: floatingZone) : local.instant(in: zone)
        }

        // A floating or all-day series is a wall-clock series: an EXDATE, RDATE or UNTIL given in UTC or
        // with a TZID is matched by the wall-clock time it is written with (as dateutil and Python's
        // recurring-ical-events do), not by its instant, so it means the same in every caller's zone.
        let wallClockSeries: Bool
        if case .dateTime(_, .floating) = master.start { wallClockSeries = true } else { wallClockSeries = allDay }

        // Instances left out: EXDATEs, and those replaced by an override (shown separately).
        var excludedDays: Set<CivilDate> = []
        var excludedInstants: Set<Int> = []
        var excludedWallTimes: Set<LocalDateTime> = []
        for value in master.exdates + replacedInstances {
            switch value {
            case .date(let d):
                excludedDays.insert(d)
            case .dateTime(let t, _) where allDay:
                excludedDays.insert(t.date)
            case .dateTime(let t, _) where wallClockSeries:
                excludedWallTimes.insert(t)
            case .dateTime:
                excludedInstants.insert(Int(value.instant(floating: floatingZone).timeIntervalSince1970.rounded()))
            }
        }
        func isExcluded(_ local: LocalDateTime, _ at: Date) -> Bool {
            excludedDays.contains(local.date) || excludedWallTimes.contains(local)
                || excludedInstants.contains(Int(at.timeIntervalSince1970.rounded()))
        }

        var seen: Set<Int> = []
        func consider(_ local: LocalDateTime, length: TimeInterval? = nil) {
            let at = instant(of: local)
            guard seen.insert(Int(at.timeIntervalSince1970.rounded())).inserted, !isExcluded(local, at) else { return }
            var occurrence = allDay ? single(master, at: .date(local.date))
                                    : EventOccurrence(event: master, start: at, end: end(of: master, startingAt: at))
            if let length, !allDay { occurrence.end = at.addingTimeInterval(max(0, length)) }
            if occurrence.overlaps(from: from, to: to) { emit(occurrence) }
        }

        // DTSTART is always the first instance (RFC 5545 §3.8.5.3).
        consider(startLocal)
        for rdate in master.rdates {
            let length = rdate.end.map { $0.instant(floating: floatingZone).timeIntervalSince(rdate.start.instant(floating: floatingZone)) }
            switch rdate.start {
            case .date(let d) where rdate.end != nil:
                // A PERIOD of plain dates: the day itself, from its midnight.
                consider(LocalDateTime(date: d, hour: 0, minute: 0, second: 0), length: length)
            case .date(let d):
                consider(LocalDateTime(date: d, hour: startLocal.hour, minute: startLocal.minute, second: startLocal.second))
            case .dateTime(let t, _) where wallClockSeries:
                consider(allDay ? LocalDateTime(date: t.date, hour: 0, minute: 0, second: 0) : t, length: length)
            case .dateTime:
                consider(LocalDateTime.containing(rdate.start.instant(floating: floatingZone), in: zone), length: length)
            }
        }
        guard let rule = master.rule, rule.unsupportedReason == nil else { return }

        // UNTIL: a DATE bounds the day; a DATE-TIME bounds the instant, or, for a wall-clock series, the
        // wall-clock time as written (so an all-day series with a UTC UNTIL gains no day east of UTC).
        var untilInstant: Date?
        var untilWall: LocalDateTime?
        var untilDay: CivilDate?
        switch rule.until {
        case .date(let d)?: untilDay = d
        case .dateTime(let t, _)? where wallClockSeries: untilWall = t
        case let until?: untilInstant = until.instant(floating: floatingZone)
        case nil: break
        }
        let windowEndDay = CivilDate.containing(to, in: zone).adding(days: 1)

        // Without COUNT, periods entirely before the window can be skipped.
        var firstPeriod = 0
        if rule.count == nil {
            let earliest = from.addingTimeInterval(-maxLength(master))
            let target = CivilDate.containing(earliest, in: zone).adding(days: -2)
            if target > startLocal.date {
                let units = RecurrencePeriods.unitsBetween(startLocal.date, target, rule: rule)
                firstPeriod = max(0, units / rule.interval - 1)
            }
        }

        var produced = 1   // DTSTART
        var period = firstPeriod
        var walked = 0
        periods: while walked < maxPeriods {
            guard let (periodStart, days) = RecurrencePeriods.candidates(period: period, start: startLocal.date, rule: rule),
                  periodStart <= windowEndDay else { break }
            for day in days {
                let local = LocalDateTime(date: day, hour: startLocal.hour, minute: startLocal.minute, second: startLocal.second)
                guard local > startLocal else { continue }
                if let untilDay, day > untilDay { break periods }
                if let untilWall, local > untilWall { break periods }
                let at = instant(of: local)
                if let untilInstant, at > untilInstant { break periods }
                if at >= to { break periods }
                if let count = rule.count {
                    if produced >= count { break periods }
                    produced += 1
                }
                consider(local)
            }
            period += 1
            walked += 1
        }
    }
}

/// The calendar arithmetic behind RRULE periods (all on civil dates, no time zones).
enum RecurrencePeriods {
    /// How many whole FREQ units lie between two days (used to skip ahead).
    static func unitsBetween(_ start: CivilDate, _ target: CivilDate, rule: RecurrenceRule) -> Int {
        switch rule.frequency {
        case .weekly: return (target - weekStart(of: start, rule.weekStart)) / 7
        case .monthly: return (target.year * 12 + target.month) - (start.year * 12 + start.month)
        case .yearly: return target.year - start.year
        default: return target - start
        }
    }

    static func weekStart(of day: CivilDate, _ wkst: Weekday) -> CivilDate {
        day.adding(days: -((day.weekday.index - wkst.index + 7) % 7))
    }

    /// The first day of period `period` and the candidate days in it, ascending, before comparing with
    /// DTSTART; nil when that period starts outside years 1…9999 (or would overflow getting there, as
    /// with `INTERVAL=9223372036854775807`): there is nothing at or after it to show.
    static func candidates(period: Int, start: CivilDate, rule: RecurrenceRule) -> (CivilDate, [CivilDate])? {
        let byMonth = Set(rule.byMonth)
        func monthOK(_ d: CivilDate) -> Bool { byMonth.isEmpty || byMonth.contains(d.month) }
        // period × interval × unit, checked; nil past the supported range.
        func step(_ unit: Int) -> Int? {
            let (a, o1) = period.multipliedReportingOverflow(by: rule.interval)
            let (b, o2) = a.multipliedReportingOverflow(by: unit)
            return o1 || o2 ? nil : b
        }
        let maxDays = 3_700_000   // ~10,000 years of days: beyond any date a calendar can hold
        func day(_ base: CivilDate, plus days: Int?) -> CivilDate? {
            guard let days, days < maxDays else { return nil }
            let day = base.adding(days: days)
            return (1...9999).contains(day.year) ? day : nil
        }

        switch rule.frequency {
        case .weekly:
            guard let first = day(weekStart(of: start, rule.weekStart), plus: step(7)) else { return nil }
            let weekdays = rule.byDay.isEmpty ? [start.weekday] : rule.byDay.map(\.weekday)
            let days = (0..<7).map { first.adding(days: $0) }
                .filter { weekdays.contains($0.weekday) && monthOK($0) }
            return (first, days)

        case .monthly:
            guard let months = step(1), months < 120_000 else { return nil }
            let index = start.year * 12 + (start.month - 1) + months
            let (year, month) = (floorDiv(index, 12), index - floorDiv(index, 12) * 12 + 1)
            guard (1...9999).contains(year) else { return nil }
            let first = CivilDate(year: year, month: month, day: 1)!
            guard monthOK(first) else { return (first, []) }
            return (first, days(inYear: year, month: month, rule: rule, defaultDay: start.day))

        case .yearly:
            guard let years = step(1), years < 10_000, (1...9999).contains(start.year + years) else { return nil }
            let year = start.year + years
            let first = CivilDate(year: year, month: 1, day: 1)!
            let months: [Int]
            if !rule.byMonth.isEmpty {
                months = rule.byMonth.sorted()
            } else if !rule.byMonthDay.isEmpty {
                months = Array(1...12)
            } else {
                months = [start.month]
            }
            return (first, months.flatMap { days(inYear: year, month: $0, rule: rule, defaultDay: start.day) })

        default:   // daily (sub-daily frequencies never get here)
            guard let day = day(start, plus: step(1)) else { return nil }
            var ok = monthOK(day)
            if ok, !rule.byDay.isEmpty { ok = rule.byDay.contains { $0.weekday == day.weekday } }
            if ok, !rule.byMonthDay.isEmpty {
                let length = CivilDate.daysInMonth(year: day.year, month: day.month)
                ok = rule.byMonthDay.contains { ($0 > 0 ? $0 : length + 1 + $0) == day.day }
            }
            return (day, ok ? [day] : [])
        }
    }

    /// Days of one month selected by BYMONTHDAY and/or BYDAY (intersection when both), else `defaultDay`
    /// (skipped in months that lack it, e.g. the 31st).
    static func days(inYear year: Int, month: Int, rule: RecurrenceRule, defaultDay: Int) -> [CivilDate] {
        let length = CivilDate.daysInMonth(year: year, month: month)
        var selected: Set<Int>?
        if !rule.byMonthDay.isEmpty {
            selected = Set(rule.byMonthDay.map { $0 > 0 ? $0 : length + 1 + $0 }.filter { (1...length).contains($0) })
        }
        if !rule.byDay.isEmpty {
            let first = CivilDate(year: year, month: month, day: 1)!
            var matches: Set<Int> = []
            for spec in rule.byDay {
                let offset = (spec.weekday.index - first.weekday.index + 7) % 7
                let all = Array(stride(from: 1 + offset, through: length, by: 7))
                if let n = spec.ordinal {
                    let index = n > 0 ? n - 1 : all.count + n
                    if all.indices.contains(index) { matches.insert(all[index]) }
                } else {
                    matches.formUnion(all)
                }
            }
            selected = selected.map { $0.intersection(matches) } ?? matches
        }
        let chosen = selected ?? (defaultDay <= length ? [defaultDay] : [])
        return chosen.sorted().map { CivilDate(year: year, month: month, day: $0)! }
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
