import Foundation

/// Reads an iCalendar document into `ICSEvent`s.
///
/// Tolerant by design, like mature parsers: a line that is not a content line is skipped with a warning
/// (file:line) and its component kept; a VEVENT whose needed values cannot be read is skipped with an
/// error diagnostic and the rest of the file is still read; other oddities become warnings. Time is
/// linear in the number of lines, whatever the nesting (see `parse(lines:path:)`).
public enum ICSParser {
    public static func parse(bytes: [UInt8], path: String) -> ICSCalendar {
        parse(lines: ICSLexer.unfold(bytes: bytes), path: path)
    }

    public static func parse(text: String, path: String) -> ICSCalendar {
        parse(lines: ICSLexer.unfold(text), path: path)
    }

    /// Properties of one VEVENT as read, before interpretation.
    private struct RawEvent {
        var line: Int
        var properties: [ContentLine] = []
    }

    /// One pass over the lines, linear in their number: the component stack keeps a count per name, so
    /// "is X open?" never searches it, and an END that closes several components pops each once.
    static func parse(lines: [ICSLine], path: String) -> ICSCalendar {
        var diagnostics: [ICSDiagnostic] = []
        func warn(_ line: Int, _ message: String) { diagnostics.append(ICSDiagnostic(.warning, file: path, line: line, message)) }
        func fail(_ line: Int, _ message: String) { diagnostics.append(ICSDiagnostic(.error, file: path, line: line, message)) }

        var stack: [String] = []
        var open: [String: Int] = [:]            // how many of each component are on `stack`
        var rawEvents: [RawEvent] = []
        var currentEvent: RawEvent?
        var vtimezones: [String: VTimeZone] = [:]
        var currentTZ: VTimeZone?
        var currentObservance: VTimeZone.Observance?
        var calendarName: String?
        var sawCalendar = false

        func closeEvent(at line: Int, terminated: Bool) {
            guard let event = currentEvent else { return }
            currentEvent = nil
            if terminated {
                rawEvents.append(event)
            } else {
                fail(event.line, "event skipped: VEVENT is not closed (END:VEVENT missing before line \(line))")
            }
        }
        func push(_ component: String) {
            stack.append(component)
            open[component, default: 0] += 1
        }
        func pop() -> String {
            let last = stack.removeLast()
            open[last]! -= 1
            return last
        }

        for line in lines {
            let content: ContentLine
            do {
                content = try ContentLine.parse(line)
            } catch {
                // Like mature parsers: the line goes, the component it is in stays.
                warn(line.lineNumber, "line skipped: \(error.message)")
                continue
            }

            switch content.name {
            case "BEGIN":
                let component = content.value.trimmedSpaces.uppercased()
                if component == "VCALENDAR" { sawCalendar = true }
                if component == "VEVENT" {
                    if open["VEVENT", default: 0] > 0 {
                        closeEvent(at: content.lineNumber, terminated: false)
                        while pop() != "VEVENT" {}
                    }
                    currentEvent = RawEvent(line: content.lineNumber)
                } else if component == "VTIMEZONE" {
                    currentTZ = VTimeZone(tzid: "")
                } else if component == "STANDARD" || component == "DAYLIGHT", stack.last == "VTIMEZONE" {
                    currentObservance = VTimeZone.Observance(kind: component == "STANDARD" ? .standard : .daylight)
                }
                push(component)

            case "END":
                let component = content.value.trimmedSpaces.uppercased()
                guard open[component, default: 0] > 0 else {
                    warn(content.lineNumber, "END:\(component) without a matching BEGIN")
                    continue
                }
                var unclosed: [String] = []
                var closedEvent = false
                while stack.last != component {
                    let name = pop()
                    if name == "VEVENT" { closedEvent = true }
                    if unclosed.count < 5 { unclosed.append(name) }
                }
                _ = pop()
                if closedEvent {
                    closeEvent(at: content.lineNumber, terminated: false)
                } else if !unclosed.isEmpty {
                    warn(content.lineNumber, "END:\(component) closes unterminated \(unclosed.reversed().joined(separator: ", "))")
                }
                switch component {
                case "VEVENT":
                    closeEvent(at: content.lineNumber, terminated: true)
                case "VTIMEZONE":
                    if let tz = currentTZ, !tz.tzid.isEmpty { vtimezones[tz.tzid] = tz }
                    currentTZ = nil
                case "STANDARD", "DAYLIGHT":
                    if let observance = currentObservance, stack.last == "VTIMEZONE" { currentTZ?.observances.append(observance) }
                    currentObservance = nil
                default:
                    break
                }

            default:
                switch stack.last {
                case "VEVENT":
                    currentEvent?.properties.append(content)
                case "VTIMEZONE":
                    if content.name == "TZID" { currentTZ?.tzid = content.value.trimmedSpaces }
                    if content.name == "X-LIC-LOCATION" { currentTZ?.location = content.value.trimmedSpaces }
                case "STANDARD", "DAYLIGHT":
                    if currentObservance != nil { read(content, into: &currentObservance!, warn: warn) }
                case "VCALENDAR":
                    if content.name == "X-WR-CALNAME" {
                        let name = ContentLine.unescapeText(content.value).trimmedSpaces
                        if !name.isEmpty { calendarName = name }
                    }
                case nil:
                    warn(content.lineNumber, "\(content.name) outside of any component ignored")
                default:
                    break   // VALARM, VTODO, … are not needed
                }
            }
        }
        if currentEvent != nil {
            fail(currentEvent!.line, "event skipped: VEVENT is not closed (END:VEVENT missing at end of file)")
        }
        if !sawCalendar {
            warn(0, "no BEGIN:VCALENDAR found; is this an iCalendar file?")
        }

        let name = calendarName ?? Self.defaultName(for: path)
        var builder = EventBuilder(path: path, calendar: name, resolver: TimeZoneResolver(vtimezones: vtimezones))
        var events: [ICSEvent] = []
        for raw in rawEvents {
            do {
                events.append(try builder.build(line: raw.line, properties: raw.properties))
            } catch {
                fail(error.line, "event \(error.label) skipped: \(error.message)")
            }
        }
        diagnostics.append(contentsOf: builder.diagnostics)
        diagnostics.sort { ($0.line, $0.severity.rawValue) < ($1.line, $1.severity.rawValue) }
        return ICSCalendar(name: name, path: path, events: events, diagnostics: diagnostics)
    }

    /// One property of a STANDARD or DAYLIGHT observance; a value that cannot be read is reported and
    /// left out (the observance without it may still be usable).
    static func read(_ content: ContentLine, into observance: inout VTimeZone.Observance, warn: (Int, String) -> Void) {
        switch content.name {
        case "DTSTART":
            if case .dateTime(let t, _)? = try? ICSDateValue.parse(content.value, valueType: nil, zone: .floating) {
                observance.start = t
            } else if case .date(let d)? = try? ICSDateValue.parse(content.value, valueType: nil, zone: .floating) {
                observance.start = LocalDateTime(date: d, hour: 0, minute: 0, second: 0)
            } else {
                warn(content.lineNumber, "VTIMEZONE \(observance.kind.rawValue): DTSTART \"\(content.value)\" is not a date-time; observance ignored")
            }
        case "TZOFFSETFROM", "TZOFFSETTO":
            guard let offset = TimeZoneResolver.parseUTCOffset(content.value) else {
                warn(content.lineNumber, "VTIMEZONE \(observance.kind.rawValue): \(content.name) \"\(content.value)\" is not a UTC offset (expected ±HHMM, under 24 hours)")
                return
            }
            if content.name == "TZOFFSETTO" { observance.offsetTo = offset } else { observance.offsetFrom = offset }
        case "RRULE":
            if observance.rule == nil { observance.rule = content.value }
        case "RDATE":
            for item in content.value.split(separator: ",") {
                let start = item.split(separator: "/").first.map(String.init) ?? ""
                if let value = try? ICSDateValue.parse(start, valueType: nil, zone: .floating) {
                    observance.rdates.append(value)
                } else {
                    warn(content.lineNumber, "VTIMEZONE \(observance.kind.rawValue): RDATE \"\(item)\" ignored")
                }
            }
        default:
            break
        }
    }

    /// `/home/me/cal/work.ics` → `work`.
    public static func defaultName(for path: String) -> String {
        var base = path.split(separator: "/").last.map(String.init) ?? path
        if base.lowercased().hasSuffix(".ics") { base = String(base.dropLast(4)) }
        return base
    }
}

/// Why an event could not be built: the line of the offending property and a label naming the event.
struct EventBuildError: Error {
    var line: Int
    var label: String
    var message: String
}

/// Interprets the properties of one VEVENT.
struct EventBuilder {
    let path: String
    let calendar: String
    let resolver: TimeZoneResolver
    var diagnostics: [ICSDiagnostic] = []
    private var zones: [String: ICSZone] = [:]

    init(path: String, calendar: String, resolver: TimeZoneResolver) {
        self.path = path
        self.calendar = calendar
        self.resolver = resolver
    }

    private mutating func warn(_ line: Int, _ message: String) {
        diagnostics.append(ICSDiagnostic(.warning, file: path, line: line, message))
    }

    /// The zone a DATE-TIME property is read in, from its TZID (floating without one). Each TZID is
    /// resolved once per file (VTIMEZONE rules are evaluated then).
    private mutating func zone(of property: ContentLine) -> ICSZone {
        guard let tzid = property.parameter("TZID") else { return .floating }
        if let known = zones[tzid] { return known }
        let zone: ICSZone
        switch resolver.resolve(tzid) {
        case .iana(let found, _):
            zone = .named(CalendarZone(found))
        case .vtimezone(let rules):
            zone = .named(CalendarZone(rules: rules))
        case .unknown:
            warn(property.lineNumber, "unknown TZID \"\(tzid)\" (not an IANA zone, a Windows zone name or a VTIMEZONE in this file); its times are read as floating local time")
            zone = .floating
        }
        zones[tzid] = zone
        return zone
    }

    private mutating func dateValue(_ property: ContentLine, label: String) throws(EventBuildError) -> ICSDateValue {
        do {
            return try ICSDateValue.parse(property.value, valueType: property.parameter("VALUE"), zone: zone(of: property))
        } catch {
            throw EventBuildError(line: property.lineNumber, label: label, message: "\(property.name): \(error.message)")
        }
    }

    /// EXDATE/RDATE: several lines, each a comma-separated list sharing that line's parameters. A PERIOD
    /// (`VALUE=PERIOD`, or any item with a `/`) keeps its end; its start may be a plain date.
    private mutating func dateList(_ properties: [ContentLine], label: String) throws(EventBuildError) -> [RDate] {
        var values: [RDate] = []
        for property in properties {
            let zone = zone(of: property)
            let type = property.parameter("VALUE")?.uppercased()
            for item in property.value.split(separator: ",") where !item.trimmedSpaces.isEmpty {
                do {
                    let parts = item.split(separator: "/", maxSplits: 1).map { String($0) }
                    if type == "PERIOD" || parts.count == 2 {
                        let start = try ICSDateValue.parse(parts[0], valueType: nil, zone: zone)
                        var end: ICSDateValue?
                        if parts.count == 2 {
                            let tail = parts[1].trimmedSpaces
                            if tail.hasPrefix("P") || tail.hasPrefix("+P") || tail.hasPrefix("-P") {
                                end = Self.adding(try ICSDuration.parse(tail), to: start)
                            } else {
                                end = try ICSDateValue.parse(tail, valueType: nil, zone: zone)
                            }
                        }
                        values.append(RDate(start, end: end))
                    } else {
                        values.append(RDate(try ICSDateValue.parse(String(item), valueType: type, zone: zone)))
                    }
                } catch {
                    throw EventBuildError(line: property.lineNumber, label: label, message: "\(property.name): \(error.message)")
                }
            }
        }
        return values
    }

    /// A floating DTSTART whose DTEND, RDATEs or EXDATEs carry a zone (`…Z` or TZID) is read in the first
    /// such zone, as Python's recurring-ical-events does: the writer mixed forms, and its EXDATEs only
    /// mean something on that clock. A DTEND without a zone then follows DTSTART.
    private func adoptZoneOfFloatingStart(_ event: inout ICSEvent) {
        guard case .dateTime(let start, .floating) = event.start else { return }
        var candidates: [ICSDateValue] = []
        if case .dtend(let end) = event.end { candidates.append(end) }
        candidates += event.exdates + event.rdates.map(\.start)
        for value in candidates {
            guard case .dateTime(_, let zone) = value, zone != .floating else { continue }
            event.start = .dateTime(start, zone)
            if case .dtend(.dateTime(let end, .floating)) = event.end { event.end = .dtend(.dateTime(end, zone)) }
            return
        }
    }

    /// `start + duration` on the wall clock of `start` (for the end of a PERIOD).
    static func adding(_ duration: ICSDuration, to start: ICSDateValue) -> ICSDateValue {
        let sign = duration.negative ? -1 : 1
        let seconds = sign * (duration.days * 86_400 + duration.seconds)
        switch start {
        case .date(let d):
            return .dateTime(LocalDateTime(wallSeconds: d.dayNumber * 86_400 + seconds), .floating)
        case .dateTime(let t, let zone):
            return .dateTime(LocalDateTime(wallSeconds: t.wallSeconds + seconds), zone)
        }
    }

    mutating func build(line: Int, properties: [ContentLine]) throws(EventBuildError) -> ICSEvent {
        func first(_ name: String) -> ContentLine? { properties.first { $0.name == name } }
        func all(_ name: String) -> [ContentLine] { properties.filter { $0.name == name } }
        // TEXT values as the file has them: unfolded and unescaped, spaces at either end kept.
        func text(_ name: String) -> String? {
            guard let value = first(name)?.value else { return nil }
            let text = ContentLine.unescapeText(value)
            return text.isEmpty ? nil : text
        }

        let summary = text("SUMMARY")
        let uidText = first("UID")?.value.trimmedSpaces ?? ""
        var label = summary.map { "\"\($0.trimmedSpacesAndNewlines)\"" } ?? "at line \(line)"
        if !uidText.isEmpty { label += " (UID \(uidText))" }

        guard let dtstartProperty = first("DTSTART") else {
            throw EventBuildError(line: line, label: label, message: "DTSTART is missing")
        }
        let start = try dateValue(dtstartProperty, label: label)
        let uid = uidText.isEmpty ? "\(ICSParser.defaultName(for: path))-line\(line)" : uidText

        var event = ICSEvent(uid: uid, start: start, calendar: calendar, file: path, line: line)
        event.summary = summary
        event.description = text("DESCRIPTION")
        event.location = text("LOCATION")
        event.status = first("STATUS").map { $0.value.trimmedSpaces.uppercased() }
        event.isOpaque = first("TRANSP").map { $0.value.trimmedSpaces.uppercased() != "TRANSPARENT" } ?? true
        if let sequence = first("SEQUENCE") { event.sequence = Int(sequence.value.trimmedSpaces) ?? 0 }

        let dtend = first("DTEND")
        let duration = first("DURATION")
        if let dtend {
            let end = try dateValue(dtend, label: label)
            let utc = TimeZone(identifier: "UTC")!
            if end.isDate != start.isDate {
                warn(dtend.lineNumber, "event \(label): DTEND is a \(end.isDate ? "DATE" : "DATE-TIME") but DTSTART is not; DTEND ignored")
            } else if end.instant(floating: utc) < start.instant(floating: utc) {
                warn(dtend.lineNumber, "event \(label): DTEND is before DTSTART; DTEND ignored")
            } else if !(end.isDate && end == start) {
                event.end = .dtend(end)
            }
            if duration != nil {
                warn(duration!.lineNumber, "event \(label): both DTEND and DURATION given; DURATION ignored")
            }
        } else if let duration {
            do {
                let value = try ICSDuration.parse(duration.value)
                if value.negative {
                    warn(duration.lineNumber, "event \(label): negative DURATION ignored")
                } else {
                    event.end = .duration(value)
                }
            } catch {
                throw EventBuildError(line: duration.lineNumber, label: label, message: "DURATION: \(error.message)")
            }
        }

        let rules = all("RRULE")
        if let ruleProperty = rules.first {
            let startZone: ICSZone
            if case .dateTime(_, let zone) = start { startZone = zone } else { startZone = .floating }
            do {
                let rule = try RecurrenceRule.parse(ruleProperty.value, startZone: startZone)
                if let reason = rule.unsupportedReason {
                    warn(ruleProperty.lineNumber, "event \(label): RRULE \(ruleProperty.value): \(reason); only the first occurrence is shown")
                }
                event.rule = rule
            } catch {
                throw EventBuildError(line: ruleProperty.lineNumber, label: label, message: "RRULE: \(error.message)")
            }
            if rules.count > 1 {
                warn(rules[1].lineNumber, "event \(label): more than one RRULE; only the first is used")
            }
        }
        event.rdates = try dateList(all("RDATE"), label: label)
        event.exdates = try dateList(all("EXDATE"), label: label).map(\.start)
        adoptZoneOfFloatingStart(&event)
        if let recurrenceID = first("RECURRENCE-ID") {
            event.recurrenceID = try dateValue(recurrenceID, label: label)
        }
        return event
    }
}
