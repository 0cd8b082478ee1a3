import Foundation
import XCTest
@testable import CalendarSkill

/// TZIDs that are not IANA ids: VTIMEZONE observances (RFC 5545 §3.6.5) and the spellings real writers
/// use (prefixes, Windows names and labels).
final class CalendarTimeZoneTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!
    let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    func calendar(_ body: String) -> ICSCalendar {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + body.split(separator: "\n").map(String.init)
                    + ["END:VCALENDAR"]).joined(separator: "\r\n")
        return ICSParser.parse(text: text, path: "tz.ics")
    }

    func starts(_ cal: ICSCalendar, _ from: String, _ to: String, zone: TimeZone) throws -> [String] {
        let query = CalendarQuery(timeZone: zone)
        return query.list(query.occurrences(of: [cal], in: try DayRange.parse(from: from, to: to))).events.map(\.start)
    }

    /// Outlook's "W. Europe" rules under a TZID no IANA database knows.
    static let customizedWEurope = """
        BEGIN:VTIMEZONE
        TZID:Customized Time Zone
        BEGIN:STANDARD
        DTSTART:16010101T030000
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010101T020000
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3
        END:DAYLIGHT
        END:VTIMEZONE
        """

    // MARK: - VTIMEZONE observances

    func testDaylightObservanceOfANonIANAVTimezoneAppliesInSummer() throws {
        let cal = calendar(Self.customizedWEurope + """

            BEGIN:VEVENT
            UID:summer
            DTSTART;TZID=Customized Time Zone:20260715T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:winter
            DTSTART;TZID=Customized Time Zone:20260115T100000
            END:VEVENT
            """)
        XCTAssertEqual(cal.diagnostics, [])
        XCTAssertEqual(try starts(cal, "2026-07-15", "2026-07-15", zone: utc), ["2026-07-15T08:00:00Z"])
        XCTAssertEqual(try starts(cal, "2026-01-15", "2026-01-15", zone: utc), ["2026-01-15T09:00:00Z"])
    }

    func testVTimezoneTransitionsAreExactAndGapsAndOverlapsReadLikeIANAZones() throws {
        let rules = try XCTUnwrap(vtimezone(Self.customizedWEurope).rules())
        let zone = CalendarZone(rules: rules)
        // 2026: DST from 03-29 01:00Z to 10-25 01:00Z, exactly as Europe/Warsaw.
        for instant in [1_774_745_999, 1_774_746_000, 1_792_889_999, 1_792_890_000, 946_684_800, 4_102_444_800] {
            let date = Date(timeIntervalSince1970: Double(instant))
            XCTAssertEqual(zone.secondsFromGMT(for: date), warsaw.secondsFromGMT(for: date), "at \(instant)")
        }
        // A wall time in the spring gap and one in the autumn overlap resolve as for the IANA zone.
        for (day, month) in [(29, 3), (25, 10)] {
            let local = LocalDateTime(date: CivilDate(year: 2026, month: month, day: day)!, hour: 2, minute: 30, second: 0)
            XCTAssertEqual(local.instant(in: zone), local.instant(in: warsaw))
        }
    }

    func testUntilInDaylightTimeKeepsTheLastOccurrence() throws {
        // The last instance, 2026-07-01 10:00 local, is 08:00Z in summer: exactly UNTIL.
        let cal = calendar(Self.customizedWEurope + """

            BEGIN:VEVENT
            UID:weekly
            DTSTART;TZID=Customized Time Zone:20260610T100000
            RRULE:FREQ=WEEKLY;UNTIL=20260701T080000Z
            END:VEVENT
            """)
        XCTAssertEqual(try starts(cal, "2026-06-01", "2026-07-31", zone: warsaw),
                       ["2026-06-10T10:00:00+02:00", "2026-06-17T10:00:00+02:00", "2026-06-24T10:00:00+02:00", "2026-07-01T10:00:00+02:00"])
    }

    func testObservancesWithUntilRDatesAndTheSouthernHemisphere() throws {
        let cal = calendar("""
            BEGIN:VTIMEZONE
            TZID:US Eastern (historic)
            BEGIN:STANDARD
            DTSTART:19671029T020000
            RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20061029T060000Z
            TZOFFSETFROM:-0400
            TZOFFSETTO:-0500
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:19870405T020000
            RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU;UNTIL=20060402T070000Z
            TZOFFSETFROM:-0500
            TZOFFSETTO:-0400
            END:DAYLIGHT
            BEGIN:DAYLIGHT
            DTSTART:20070311T020000
            RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
            TZOFFSETFROM:-0500
            TZOFFSETTO:-0400
            END:DAYLIGHT
            BEGIN:STANDARD
            DTSTART:20071104T020000
            RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
            TZOFFSETFROM:-0400
            TZOFFSETTO:-0500
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VTIMEZONE
            TZID:Sydney by RDATE
            BEGIN:STANDARD
            DTSTART:20250406T030000
            RDATE:20260405T030000
            TZOFFSETFROM:+1100
            TZOFFSETTO:+1000
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:20251005T020000
            RDATE:20261004T020000
            TZOFFSETFROM:+1000
            TZOFFSETTO:+1100
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:old-rules
            DTSTART;TZID=US Eastern (historic):20000320T090000
            END:VEVENT
            BEGIN:VEVENT
            UID:new-rules
            DTSTART;TZID=US Eastern (historic):20260320T090000
            END:VEVENT
            BEGIN:VEVENT
            UID:sydney-summer
            DTSTART;TZID=Sydney by RDATE:20260110T090000
            END:VEVENT
            BEGIN:VEVENT
            UID:sydney-winter
            DTSTART;TZID=Sydney by RDATE:20260710T090000
            END:VEVENT
            """)
        XCTAssertEqual(cal.diagnostics, [])
        // 2000-03-20: before the first Sunday of April, standard time (-05:00); 2026-03-20: after the second Sunday of March.
        XCTAssertEqual(try starts(cal, "2000-03-20", "2000-03-20", zone: utc), ["2000-03-20T14:00:00Z"])
        XCTAssertEqual(try starts(cal, "2026-03-20", "2026-03-20", zone: utc), ["2026-03-20T13:00:00Z"])
        XCTAssertEqual(try starts(cal, "2026-01-09", "2026-01-10", zone: utc), ["2026-01-09T22:00:00Z"])
        XCTAssertEqual(try starts(cal, "2026-07-09", "2026-07-10", zone: utc), ["2026-07-09T23:00:00Z"])
    }

    func testAVTimezoneWithoutObservancesFallsBackToItsLocationAndBadOffsetsAreReported() throws {
        let cal = calendar("""
            BEGIN:VTIMEZONE
            TZID:Only a location
            X-LIC-LOCATION:Europe/Warsaw
            END:VTIMEZONE
            BEGIN:VTIMEZONE
            TZID:Broken offset
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+5744
            TZOFFSETTO:+5744
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:a
            DTSTART;TZID=Only a location:20260715T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            DTSTART;TZID=Broken offset:20260715T100000
            END:VEVENT
            """)
        XCTAssertEqual(try starts(cal, "2026-07-15", "2026-07-15", zone: utc), ["2026-07-15T08:00:00Z", "2026-07-15T10:00:00Z"])
        XCTAssertEqual(cal.diagnostics.map(\.description), [
            "tz.ics:12: VTIMEZONE STANDARD: TZOFFSETFROM \"+5744\" is not a UTC offset (expected ±HHMM, under 24 hours)",
            "tz.ics:13: VTIMEZONE STANDARD: TZOFFSETTO \"+5744\" is not a UTC offset (expected ±HHMM, under 24 hours)",
            "tz.ics:22: unknown TZID \"Broken offset\" (not an IANA zone, a Windows zone name or a VTIMEZONE in this file); its times are read as floating local time",
        ])
        XCTAssertNil(TimeZoneResolver.parseUTCOffset("+2400"))
        XCTAssertEqual(TimeZoneResolver.parseUTCOffset("-0330"), -12_600)
        XCTAssertEqual(TimeZoneResolver.parseUTCOffset("+053045"), 19_845)
    }

    // MARK: - TZID spellings

    func testTZIDSpellingsResolveToIANAZonesWithTheirDaylightSaving() throws {
        let spellings: [(String, String)] = [
            ("/Europe/Stockholm", "2026-07-15T08:00:00Z"),
            ("/mozilla.org/20050126_1/Europe/Berlin", "2026-07-15T08:00:00Z"),
            ("/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires", "2026-07-15T13:00:00Z"),
            ("/softwarestudio.org/Olson_20011030_5/America/Los_Angeles", "2026-07-15T17:00:00Z"),
            ("America/Los Angeles", "2026-07-15T17:00:00Z"),
            ("W. Europe Standard Time", "2026-07-15T08:00:00Z"),
            ("\"W. Europe Standard Time\"", "2026-07-15T08:00:00Z"),
            ("w. europe standard time", "2026-07-15T08:00:00Z"),
            ("W. Europe Daylight Time", "2026-07-15T08:00:00Z"),
            ("Romance", "2026-07-15T08:00:00Z"),
            ("Pacific Standard Time", "2026-07-15T17:00:00Z"),
            ("Tokyo Standard Time", "2026-07-15T01:00:00Z"),
            ("Western/Central Europe", "2026-07-15T08:00:00Z"),
            ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "2026-07-15T08:00:00Z"),
            ("(GMT+01.00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "2026-07-15T08:00:00Z"),
            ("(UTC-03:00) Brasília", "2026-07-15T13:00:00Z"),
            ("Pacific Time (US & Canada)", "2026-07-15T17:00:00Z"),
        ]
        var body = ""
        for (index, (tzid, _)) in spellings.enumerated() {
            let parameter = tzid.hasPrefix("\"") || !tzid.contains(":") && !tzid.contains(",") ? tzid : "\"\(tzid)\""
            body += "BEGIN:VEVENT\nUID:\(index)\nDTSTART;TZID=\(parameter):20260715T100000\nEND:VEVENT\n"
        }
        let cal = calendar(body)
        XCTAssertEqual(cal.diagnostics, [])
        let query = CalendarQuery(timeZone: utc)
        let items = query.list(query.occurrences(of: [cal], in: try DayRange.parse(from: "2026-07-15", to: "2026-07-15"))).events
        let byUID = Dictionary(uniqueKeysWithValues: items.map { ($0.uid, $0.start) })
        for (index, (tzid, expected)) in spellings.enumerated() {
            XCTAssertEqual(byUID["\(index)"], expected, tzid)
        }
    }

    func testAVTimezoneInTheFileWinsOverAWindowsNameAndOffsetLikeIdsAreNotGuessed() throws {
        let cal = calendar("""
            BEGIN:VTIMEZONE
            TZID:Eastern Standard Time
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0300
            TZOFFSETTO:+0300
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:defined-here
            DTSTART;TZID=Eastern Standard Time:20260715T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:offset-like
            DTSTART;TZID=UTC+11:20260715T100000
            END:VEVENT
            """)
        XCTAssertEqual(try starts(cal, "2026-07-15", "2026-07-15", zone: losAngeles),
                       ["2026-07-15T00:00:00-07:00", "2026-07-15T10:00:00-07:00"])
        XCTAssertEqual(cal.diagnostics.map(\.message),
                       ["unknown TZID \"UTC+11\" (not an IANA zone, a Windows zone name or a VTIMEZONE in this file); its times are read as floating local time"])
    }

    func testEveryCLDRWindowsZoneMapsToAZoneThisFoundationKnows() {
        XCTAssertGreaterThan(WindowsZones.names.count, 130)
        let unknown = WindowsZones.names.filter { TimeZone(identifier: $0.1) == nil }.map(\.1)
        XCTAssertEqual(unknown, [])
        XCTAssertEqual(TimeZoneResolver.windowsZone("China Standard Time"), "Asia/Shanghai")
        XCTAssertNil(TimeZoneResolver.windowsZone("Atlantis Standard Time"))
    }

    // MARK: - helpers

    func vtimezone(_ text: String) -> VTimeZone {
        var tz = VTimeZone(tzid: "")
        var observance: VTimeZone.Observance?
        for line in ICSLexer.unfold(text) {
            guard let content = try? ContentLine.parse(line) else { continue }
            switch (content.name, content.value) {
            case ("TZID", let v): tz.tzid = v
            case ("BEGIN", "STANDARD"): observance = .init(kind: .standard)
            case ("BEGIN", "DAYLIGHT"): observance = .init(kind: .daylight)
            case ("END", "STANDARD"), ("END", "DAYLIGHT"): tz.observances.append(observance!); observance = nil
            default: if observance != nil { ICSParser.read(content, into: &observance!, warn: { _, _ in }) }
            }
        }
        return tz
    }
}
