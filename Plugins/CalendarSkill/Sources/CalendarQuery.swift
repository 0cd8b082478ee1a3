import Foundation

/// A rule violation in the request (maps to SkillError.invalidInput).
public struct CalendarInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An inclusive range of days, `from`…`to`, read in the caller's time zone.
public struct DayRange: Sendable, Equatable {
    public static let maxDays = 366

    public let from: CivilDate
    public let to: CivilDate

    public init(from: CivilDate, to: CivilDate) throws(CalendarInputError) {
        guard from <= to else {
            throw CalendarInputError("from (\(from)) is after to (\(to)); from must be on or before to")
        }
        let days = to - from + 1
        guard days <= DayRange.maxDays else {
            throw CalendarInputError("the range \(from) to \(to) spans \(days) days; at most \(DayRange.maxDays) days are allowed")
        }
        self.from = from
        self.to = to
    }

    /// Parses the intents' `from`/`to` (`YYYY-MM-DD`).
    public static func parse(from: String, to: String) throws(CalendarInputError) -> DayRange {
        guard let f = CivilDate.parseISO(from) else {
            throw CalendarInputError("from must be a date in the form YYYY-MM-DD, got \"\(from)\"")
        }
        guard let t = CivilDate.parseISO(to) else {
            throw CalendarInputError("to must be a date in the form YYYY-MM-DD, got \"\(to)\"")
        }
        return try DayRange(from: f, to: t)
    }

    public var days: [CivilDate] { (0...(to - from)).map { from.adding(days: $0) } }

    /// `[start of from, start of the day after to)` in `zone`.
    public func interval(in zone: TimeZone) -> (start: Date, end: Date) {
        (from.startInstant(in: zone), to.adding(days: 1).startInstant(in: zone))
    }
}

// MARK: - Output shapes (field names are the intents' contract)

public struct CalendarEventItem: Codable, Sendable, Equatable {
    public var uid: String
    public var summary: String
    /// RFC 3339 with the caller's offset; `YYYY-MM-DD` for all-day events.
    public var start: String
    /// Exclusive, like DTEND: for an all-day event, the day after its last day.
    public var end: String
    public var allDay: Bool
    public var location: String?
    public var description: String?
    public var calendar: String
}

public struct CalendarEventList: Codable, Sendable, Equatable {
    public var events: [CalendarEventItem]
    /// What was skipped or read with a guess while reading the files; absent when nothing was.
    public var problems: [CalendarProblem]?
    /// How many problems there were in all, when `problems` had to be cut at `CalendarProblem.limit`.
    public var problemsTotal: Int?
}

/// One problem in a calendar file, where it is: `work.ics` line 42, "line skipped: …".
public struct CalendarProblem: Codable, Sendable, Equatable {
    /// At most this many are returned per answer (the first ones, by file and line).
    public static let limit = 50

    public var file: String
    /// 1-based line, or 0 for the file as a whole.
    public var line: Int
    /// "error": an event was skipped; "warning": a line or value was skipped, or read with a guess.
    public var severity: String
    public var message: String

    /// The problems of `calendars` as the answers carry them: the first `limit`, and the total when cut.
    public static func of(_ calendars: [ICSCalendar]) -> (problems: [CalendarProblem]?, total: Int?) {
        let all = calendars.flatMap(\.diagnostics)
        guard !all.isEmpty else { return (nil, nil) }
        let first = all.prefix(limit).map {
            CalendarProblem(file: $0.file, line: $0.line, severity: $0.severity.rawValue, message: $0.message)
        }
        return (first, all.count > limit ? all.count : nil)
    }
}

public struct CalendarDaySummary: Codable, Sendable, Equatable {
    public struct First: Codable, Sendable, Equatable {
        public var start: String
        public var summary: String
    }

    public var date: String
    /// Events overlapping the day, all-day ones included.
    public var count: Int
    /// Minutes of the day covered by timed, busy (not TRANSP:TRANSPARENT) events; overlaps counted once.
    public var busyMinutes: Int
    /// The first timed event starting that day.
    public var first: First?
}

public struct CalendarSummary: Codable, Sendable, Equatable {
    public var count: Int
    public var days: [CalendarDaySummary]
    public var text: String
    /// As in `CalendarEventList`.
    public var problems: [CalendarProblem]?
    public var problemsTotal: Int?
}

/// Answers the two intents from parsed calendars. Pure: no files, no clock.
public struct CalendarQuery: Sendable {
    public let timeZone: TimeZone
    /// BCP 47 tag; `zh…` gets Chinese text, anything else English.
    public let locale: String

    public init(timeZone: TimeZone, locale: String = "en") {
        self.timeZone = timeZone
        self.locale = locale
    }

    var chinese: Bool { locale.lowercased().hasPrefix("zh") }

    public func occurrences(of calendars: [ICSCalendar], in range: DayRange) -> [EventOccurrence] {
        let (start, end) = range.interval(in: timeZone)
        return RecurrenceExpander(floatingZone: timeZone)
            .occurrences(of: calendars.flatMap(\.events), from: start, to: end)
    }

    public func list(_ occurrences: [EventOccurrence]) -> CalendarEventList {
        CalendarEventList(events: occurrences.map(item))
    }

    public func item(_ occurrence: EventOccurrence) -> CalendarEventItem {
        let event = occurrence.event
        let start: String, end: String
        if let days = occurrence.allDayRange {
            start = days.start.description
            end = days.end.description
        } else {
            start = Self.rfc3339(occurrence.start, in: timeZone)
            end = Self.rfc3339(occurrence.end, in: timeZone)
        }
        return CalendarEventItem(uid: event.uid, summary: event.summary ?? "", start: start, end: end,
                                 allDay: occurrence.isAllDay, location: event.location,
                                 description: event.description, calendar: event.calendar)
    }

    /// "No events from 2026-11-30 to 2026-12-01." (the summary's text when no day has events)
    func noEventsMessage(range: DayRange) -> String {
        let span = range.from == range.to ? (chinese ? "\(range.from)" : "on \(range.from)")
                                          : (chinese ? "\(range.from) 至 \(range.to)" : "from \(range.from) to \(range.to)")
        return chinese ? "\(span) 没有日程。" : "No events \(span)."
    }

    public func summary(_ occurrences: [EventOccurrence], range: DayRange) -> CalendarSummary {
        var days: [CalendarDaySummary] = []
        var sentences: [String] = []
        let byDay = occurrencesByDay(occurrences, range: range)
        for (index, day) in range.days.enumerated() {
            let dayStart = day.startInstant(in: timeZone)
            let dayEnd = day.adding(days: 1).startInstant(in: timeZone)
            let onDay = byDay[index]

            // Busy time: union of timed, opaque occurrences clipped to the day.
            let spans = onDay.filter { !$0.isAllDay && $0.event.isOpaque && $0.end > $0.start }
                .map { (max($0.start, dayStart), min($0.end, dayEnd)) }
                .sorted { $0.0 < $1.0 }
            var busy: TimeInterval = 0
            var cursor = dayStart
            for (s, e) in spans where e > cursor {
                busy += e.timeIntervalSince(max(s, cursor))
                cursor = e
            }
            let first = onDay.first { !$0.isAllDay && $0.start >= dayStart }
            days.append(CalendarDaySummary(
                date: day.description, count: onDay.count, busyMinutes: Int((busy / 60).rounded()),
                first: first.map { .init(start: Self.rfc3339($0.start, in: timeZone), summary: title($0.event)) }))
            if !onDay.isEmpty {
                sentences.append(daySentence(day: day, occurrences: onDay, dayStart: dayStart, dayEnd: dayEnd))
            }
        }
        let text = sentences.isEmpty ? noEventsMessage(range: range) : sentences.joined(separator: "\n")
        return CalendarSummary(count: occurrences.count, days: days, text: text)
    }

    /// The occurrences overlapping each day of `range` (in `occurrences`' order), in one pass: each
    /// occurrence goes to the days from its start to its end, so the cost is the number of (occurrence,
    /// day) pairs, not days × occurrences.
    func occurrencesByDay(_ occurrences: [EventOccurrence], range: DayRange) -> [[EventOccurrence]] {
        let count = range.to - range.from + 1
        var buckets = [[EventOccurrence]](repeating: [], count: count)
        var bounds: [(Date, Date)] = []
        bounds.reserveCapacity(count)
        var start = range.from.startInstant(in: timeZone)
        for offset in 0..<count {
            let end = range.from.adding(days: offset + 1).startInstant(in: timeZone)
            bounds.append((start, end))
            start = end
        }
        for occurrence in occurrences {
            let last = occurrence.end > occurrence.start ? occurrence.end.addingTimeInterval(-0.001) : occurrence.start
            let first = max(0, CivilDate.containing(occurrence.start, in: timeZone) - range.from)
            let final = min(count - 1, CivilDate.containing(last, in: timeZone) - range.from)
            guard first <= final else { continue }
            for index in first...final where occurrence.overlaps(from: bounds[index].0, to: bounds[index].1) {
                buckets[index].append(occurrence)
            }
        }
        return buckets
    }

    /// "3 events on 2026-11-30: 10:00 Standup, 14:00 Design review, 16:00 1:1"
    func daySentence(day: CivilDate, occurrences: [EventOccurrence], dayStart: Date, dayEnd: Date) -> String {
        let parts = occurrences.map { o -> String in
            let name = title(o.event)
            if o.isAllDay { return chinese ? "\(name)（全天）" : "\(name) (all day)" }
            if o.start >= dayStart { return "\(clock(o.start)) \(name)" }
            if o.end <= dayEnd { return chinese ? "至 \(clock(o.end)) \(name)" : "until \(clock(o.end)) \(name)" }
            return chinese ? "\(name)（持续）" : "\(name) (continues)"
        }
        if chinese { return "\(day) 有 \(occurrences.count) 个日程：\(parts.joined(separator: "、"))" }
        let noun = occurrences.count == 1 ? "event" : "events"
        return "\(occurrences.count) \(noun) on \(day): \(parts.joined(separator: ", "))"
    }

    func title(_ event: ICSEvent) -> String {
        event.summary ?? (chinese ? "（无标题）" : "(no title)")
    }

    func clock(_ instant: Date) -> String {
        let local = LocalDateTime.containing(instant, in: timeZone)
        return CivilDate.digits(local.hour, 2) + ":" + CivilDate.digits(local.minute, 2)
    }

    /// `2026-11-30T10:00:00+01:00` (whole seconds; `Z` when the offset is zero, like SkillKit's
    /// `SkillDates.format`).
    public static func rfc3339(_ instant: Date, in zone: TimeZone) -> String {
        let local = LocalDateTime.containing(instant, in: zone)
        let offset = zone.secondsFromGMT(for: instant)
        if offset == 0 { return local.description + "Z" }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return local.description + sign + CivilDate.digits(minutes / 60, 2) + ":" + CivilDate.digits(minutes % 60, 2)
    }
}
