import Foundation

/// Reads an iCalendar document into `ICSEvent`s.
///
/// Tolerant by design: a broken VEVENT is skipped with an error diagnostic (file:line) and the rest of the
/// file is still read; oddities that do not make an event unusable become warnings.
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
        var problem: (line: Int, message: String)?
    }

    static func parse(lines: [ICSLine], path: String) -> ICSCalendar {
        var diagnostics: [ICSDiagnostic] = []
        func warn(_ line: Int, _ message: String) { diagnostics.append(ICSDiagnostic(.warning, file: path, line: line, message)) }
        func fail(_ line: Int, _ message: String) { diagnostics.append(ICSDiagnostic(.error, file: path, line: line, message)) }

        var stack: [String] = []
        var rawEvents: [RawEvent] = []
        var currentEvent: RawEvent?
        var vtimezones: [String: TimeZoneResolver.VTimeZone] = [:]
        var currentTZ: TimeZoneResolver.VTimeZone?
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

        for line in lines {
            let content: ContentLine
            do {
                content = try ContentLine.parse(line)
            } catch {
                if currentEvent != nil, stack.last == "VEVENT" {
                    if currentEvent?.problem == nil { currentEvent?.problem = (line.lineNumber, error.message) }
                } else if currentEvent == nil {
                    warn(line.lineNumber, "line ignored: \(error.message)")
                }
                continue
            }

            switch content.name {
            case "BEGIN":
                let component = content.value.trimmingCharacters(in: .whitespaces).uppercased()
                if component == "VCALENDAR" { sawCalendar = true }
                if component == "VEVENT" {
                    if stack.contains("VEVENT") {
                        closeEvent(at: content.lineNumber, terminated: false)
                        while let last = stack.popLast(), last != "VEVENT" {}
                    }
                    currentEvent = RawEvent(line: content.lineNumber)
                } else if component == "VTIMEZONE" {
                    currentTZ = TimeZoneResolver.VTimeZone(tzid: "")
                }
                stack.append(component)

            case "END":
                let component = content.value.trimmingCharacters(in: .whitespaces).uppercased()
                guard let position = stack.lastIndex(of: component) else {
                    warn(content.lineNumber, "END:\(component) without a matching BEGIN")
                    continue
                }
                let unclosed = stack[(position + 1)...]
                if !unclosed.isEmpty {
                    if unclosed.contains("VEVENT") {
                        closeEvent(at: content.lineNumber, terminated: false)
                    } else {
                        warn(content.lineNumber, "END:\(component) closes unterminated \(unclosed.joined(separator: ", "))")
                    }
                }
                stack.removeSubrange(position...)
                if component == "VEVENT" {
                    closeEvent(at: content.lineNumber, terminated: true)
                } else if component == "VTIMEZONE", let tz = currentTZ {
                    if !tz.tzid.isEmpty { vtimezones[tz.tzid] = tz }
                    currentTZ = nil
                }

            default:
                switch stack.last {
                case "VEVENT":
                    currentEvent?.properties.append(content)
                case "VTIMEZONE":
                    if content.name == "TZID" { currentTZ?.tzid = content.value.trimmingCharacters(in: .whitespaces) }
                    if content.name == "X-LIC-LOCATION" { currentTZ?.location = content.value.trimmingCharacters(in: .whitespaces) }
                case "STANDARD":
                    if content.name == "TZOFFSETTO", currentTZ?.standardOffset == nil {
                        currentTZ?.standardOffset = TimeZoneResolver.parseUTCOffset(content.value)
                    }
                case "VCALENDAR":
                    if content.name == "X-WR-CALNAME" {
                        let name = ContentLine.unescapeText(content.value).trimmingCharacters(in: .whitespaces)
                        if !name.isEmpty { calendarName = name }
                    }
                case nil:
                    warn(content.lineNumber, "\(content.name) outside of any component ignored")
                default:
                    break   // VALARM, DAYLIGHT, VTODO, … are not needed
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
            if let problem = raw.problem {
                fail(problem.line, "event skipped: \(problem.message)")
                continue
            }
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
    private var reportedZones: Set<String> = []

    init(path: String, calendar: String, resolver: TimeZoneResolver) {
        self.path = path
        self.calendar = calendar
        self.resolver = resolver
    }

    private mutating func warn(_ line: Int, _ message: String) {
        diagnostics.append(ICSDiagnostic(.warning, file: path, line: line, message))
    }

    /// The zone a DATE-TIME property is read in, from its TZID (floating without one).
    private mutating func zone(of property: ContentLine) -> ICSZone {
        guard let tzid = property.parameter("TZID") else { return .floating }
        switch resolver.resolve(tzid) {
        case .zone(let zone):
            return .named(zone)
        case .fixedOffset(let zone):
            if reportedZones.insert(tzid).inserted {
                warn(property.lineNumber, "TZID \"\(tzid)\" is not an IANA time zone; using its VTIMEZONE standard offset \(zone.identifier) without daylight saving")
            }
            return .named(zone)
        case .unknown:
            if reportedZones.insert(tzid).inserted {
                warn(property.lineNumber, "unknown TZID \"\(tzid)\"; its times are read as floating local time")
            }
            return .floating
        }
    }

    private mutating func dateValue(_ property: ContentLine, label: String) throws(EventBuildError) -> ICSDateValue {
        do {
            return try ICSDateValue.parse(property.value, valueType: property.parameter("VALUE"), zone: zone(of: property))
        } catch {
            throw EventBuildError(line: property.lineNumber, label: label, message: "\(property.name): \(error.message)")
        }
    }

    /// EXDATE/RDATE: several lines, each a comma-separated list sharing that line's parameters.
    private mutating func dateList(_ properties: [ContentLine], label: String) throws(EventBuildError) -> [ICSDateValue] {
        var values: [ICSDateValue] = []
        for property in properties {
            let zone = zone(of: property)
            let type = property.parameter("VALUE")
            if type?.uppercased() == "PERIOD" {
                // PERIOD: start/end or start/duration; only the start matters for the occurrence.
                for item in property.value.split(separator: ",") {
                    let start = item.split(separator: "/").first.map(String.init) ?? ""
                    do {
                        values.append(try ICSDateValue.parse(start, valueType: nil, zone: zone))
                    } catch {
                        throw EventBuildError(line: property.lineNumber, label: label, message: "\(property.name): \(error.message)")
                    }
                }
                continue
            }
            for item in property.value.split(separator: ",") where !item.trimmingCharacters(in: .whitespaces).isEmpty {
                do {
                    values.append(try ICSDateValue.parse(String(item), valueType: type, zone: zone))
                } catch {
                    throw EventBuildError(line: property.lineNumber, label: label, message: "\(property.name): \(error.message)")
                }
            }
        }
        return values
    }

    mutating func build(line: Int, properties: [ContentLine]) throws(EventBuildError) -> ICSEvent {
        func first(_ name: String) -> ContentLine? { properties.first { $0.name == name } }
        func all(_ name: String) -> [ContentLine] { properties.filter { $0.name == name } }
        func text(_ name: String) -> String? {
            guard let value = first(name)?.value else { return nil }
            let text = ContentLine.unescapeText(value).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }

        let summary = text("SUMMARY")
        let uidText = first("UID")?.value.trimmingCharacters(in: .whitespaces) ?? ""
        var label = summary.map { "\"\($0)\"" } ?? "at line \(line)"
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
        event.status = first("STATUS").map { $0.value.trimmingCharacters(in: .whitespaces).uppercased() }
        event.isOpaque = first("TRANSP").map { $0.value.trimmingCharacters(in: .whitespaces).uppercased() != "TRANSPARENT" } ?? true
        if let sequence = first("SEQUENCE") { event.sequence = Int(sequence.value.trimmingCharacters(in: .whitespaces)) ?? 0 }

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
        event.exdates = try dateList(all("EXDATE"), label: label)
        if let recurrenceID = first("RECURRENCE-ID") {
            event.recurrenceID = try dateValue(recurrenceID, label: label)
        }
        return event
    }
}
