import Foundation

/// The parts of an iCalendar object (RFC 5545) that triage needs: the `METHOD` of the calendar and, of
/// its first `VEVENT`, `SUMMARY`, `LOCATION`, `DTSTART` and `DTEND`.
///
/// Contract: lines are unfolded (a line break followed by a space or tab is removed); property
/// parameters are read (quoted values may contain `:` and `;`); TEXT values are unescaped (`\,` `\;`
/// `\n` `\\`). Date-times: `…Z` is UTC; `TZID=Area/City` uses that IANA zone (daylight saving
/// included); a TZID that is not an IANA name uses the offset of its `VTIMEZONE`'s `STANDARD` block
/// (`TZOFFSETTO`) when there is one, else `fallbackZone`, with a problem either way; a floating time
/// uses `fallbackZone`. `VALUE=DATE` gives an all-day day. Returns nil when there is no VEVENT.
public struct Invitation: Sendable, Equatable {
    /// `REQUEST`, `CANCEL`, `REPLY`, `PUBLISH`… uppercased, or nil.
    public let method: String?
    public let summary: String?
    public let location: String?
    public let start: EventTime?
    public let end: EventTime?
    public let problems: [String]

    public enum EventTime: Sendable, Equatable {
        case allDay(CivilDay)
        /// An instant and the offset of its zone at that instant.
        case instant(Date, offsetSeconds: Int)

        /// `YYYY-MM-DD` for all-day, else RFC 3339 with the zone's offset.
        public var text: String {
            switch self {
            case .allDay(let d): d.description
            case .instant(let date, let offset): RFC3339.format(date, offsetSeconds: offset)
            }
        }

        /// The calendar day in the event's own zone.
        public var day: CivilDay {
            switch self {
            case .allDay(let d): d
            case .instant(let date, let offset): CivilDay(date, offsetSeconds: offset)
            }
        }
    }

    struct Property {
        let name: String
        let parameters: [String: String]
        let value: String
    }

    public init?(ics text: String, fallbackZone: TimeZone) {
        let props = Self.properties(text)
        var inEvent = false, seenEvent = false
        var method: String?
        var event: [String: Property] = [:]
        var standardOffsets: [String: Int] = [:]   // VTIMEZONE TZID → STANDARD TZOFFSETTO
        var currentTZID: String?, inStandard = false
        for p in props {
            switch (p.name, p.value.uppercased()) {
            case ("BEGIN", "VEVENT") where !seenEvent: inEvent = true
            case ("END", "VEVENT") where inEvent: inEvent = false; seenEvent = true
            case ("BEGIN", "STANDARD"): inStandard = true
            case ("END", "STANDARD"): inStandard = false
            case ("END", "VTIMEZONE"): currentTZID = nil
            case ("METHOD", _) where !inEvent: method = p.value.uppercased()
            case ("TZID", _) where !inEvent: currentTZID = p.value
            case ("TZOFFSETTO", _) where inStandard:
                if let id = currentTZID, let o = Self.utcOffset(p.value) { standardOffsets[id] = o }
            default:
                if inEvent && event[p.name] == nil { event[p.name] = p }
            }
        }
        guard seenEvent || inEvent else { return nil }
        var problems: [String] = []
        func time(_ name: String) -> EventTime? {
            guard let p = event[name] else { return nil }
            let t = Self.eventTime(p, standardOffsets: standardOffsets, fallbackZone: fallbackZone, problems: &problems)
            if t == nil { problems.append("\(name) \"\(p.value)\" is not an iCalendar date or date-time") }
            return t
        }
        self.method = method
        summary = event["SUMMARY"].map { Self.unescape($0.value) }
        location = event["LOCATION"].map { Self.unescape($0.value) }.flatMap { $0.isEmpty ? nil : $0 }
        start = time("DTSTART")
        end = time("DTEND")
        self.problems = problems
    }

    /// Unfolded content lines as properties (`NAME;PARAM=V:value`).
    static func properties(_ text: String) -> [Property] {
        var lines: [String] = []
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(String(line))
            }
        }
        return lines.compactMap { line in
            var quoted = false
            guard let colon = line.firstIndex(where: { c in
                if c == "\"" { quoted.toggle() }
                return c == ":" && !quoted
            }) else { return nil }
            let head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false)
            var params: [String: String] = [:]
            for p in head.dropFirst() {
                guard let eq = p.firstIndex(of: "=") else { continue }
                params[p[..<eq].uppercased()] = HeaderParameters.unquote(String(p[p.index(after: eq)...]))
            }
            return Property(name: head.first.map { $0.uppercased() } ?? "", parameters: params,
                            value: String(line[line.index(after: colon)...]))
        }
    }

    static func eventTime(_ p: Property, standardOffsets: [String: Int], fallbackZone: TimeZone,
                          problems: inout [String]) -> EventTime? {
        let v = Array(p.value.trimmingCharacters(in: .whitespaces).utf8)
        func num(_ r: Range<Int>) -> Int? { r.upperBound <= v.count ? Int(String(decoding: v[r], as: UTF8.self)) : nil }
        guard v.count >= 8, let y = num(0..<4), let mo = num(4..<6), let d = num(6..<8),
              let day = CivilDay(year: y, month: mo, day: d) else { return nil }
        if v.count == 8 { return .allDay(day) }
        guard v.count >= 15, v[8] == UInt8(ascii: "T"), let h = num(9..<11), let mi = num(11..<13), let s = num(13..<15),
              h < 24, mi < 60, s <= 60 else { return nil }
        let wall = day.dayNumber * 86_400 + h * 3600 + mi * 60 + min(s, 59)
        if v.count == 16 && (v[15] == UInt8(ascii: "Z") || v[15] == UInt8(ascii: "z")) {
            return .instant(Date(timeIntervalSince1970: TimeInterval(wall)), offsetSeconds: 0)
        }
        var zone = fallbackZone
        if let tzid = p.parameters["TZID"] {
            if let z = TimeZone(identifier: tzid) {
                zone = z
            } else if let fixed = standardOffsets[tzid], let z = TimeZone(secondsFromGMT: fixed) {
                problems.append("time zone \"\(tzid)\" is not an IANA name; used its standard offset from the VTIMEZONE")
                zone = z
            } else {
                problems.append("unknown time zone \"\(tzid)\"; used \(fallbackZone.identifier)")
            }
        }
        // Wall-clock time in `zone` → instant (two passes settle the offset around DST changes).
        var guess = Date(timeIntervalSince1970: TimeInterval(wall - zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall)))))
        guess = Date(timeIntervalSince1970: TimeInterval(wall - zone.secondsFromGMT(for: guess)))
        return .instant(guess, offsetSeconds: zone.secondsFromGMT(for: guess))
    }

    /// `+0100`, `-0530`, `+013000` → seconds.
    static func utcOffset(_ s: String) -> Int? {
        let b = Array(s.utf8)
        guard b.count >= 5, b[0] == 43 || b[0] == 45, let h = Int(String(decoding: b[1..<3], as: UTF8.self)),
              let m = Int(String(decoding: b[3..<5], as: UTF8.self)) else { return nil }
        return (b[0] == 45 ? -1 : 1) * (h * 3600 + m * 60)
    }

    static func unescape(_ s: String) -> String {
        var out = ""
        var escaped = false
        for c in s {
            if escaped {
                out.append(c == "n" || c == "N" ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
