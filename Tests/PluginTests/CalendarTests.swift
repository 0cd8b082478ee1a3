import Foundation
import SkillABI
import SkillKit
import XCTest
@testable import CalendarSkill

final class CalendarTests: XCTestCase {
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!
    let shanghai = TimeZone(identifier: "Asia/Shanghai")!
    let utc = TimeZone(identifier: "UTC")!

    // MARK: helpers

    /// Wraps VEVENT lines in a VCALENDAR and parses it as `test.ics`.
    func calendar(_ body: String, eol: String = "\r\n") -> ICSCalendar {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    + ["END:VCALENDAR"]).joined(separator: eol)
        return ICSParser.parse(text: text, path: "test.ics")
    }

    func range(_ from: String, _ to: String) throws -> DayRange {
        try DayRange.parse(from: from, to: to)
    }

    func items(_ cal: ICSCalendar, _ from: String, _ to: String, zone: TimeZone) throws -> [CalendarEventItem] {
        let query = CalendarQuery(timeZone: zone)
        return query.list(query.occurrences(of: [cal], in: try range(from, to))).events
    }

    /// Like `items` but without the intents' 366-day limit (for long recurrence checks).
    func expanded(_ cal: ICSCalendar, _ from: String, _ to: String, zone: TimeZone) -> [CalendarEventItem] {
        let query = CalendarQuery(timeZone: zone)
        let start = CivilDate.parseISO(from)!.startInstant(in: zone)
        let end = CivilDate.parseISO(to)!.adding(days: 1).startInstant(in: zone)
        return RecurrenceExpander(floatingZone: zone).occurrences(of: cal.events, from: start, to: end).map(query.item)
    }

    func starts(_ cal: ICSCalendar, _ from: String, _ to: String, zone: TimeZone) throws -> [String] {
        try items(cal, from, to, zone: zone).map(\.start)
    }

    static let samples: String = {
        // Tests/PluginTests/CalendarTests.swift → Plugins/CalendarSkill/Samples
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Plugins/CalendarSkill/Samples").path
    }()

    // MARK: lexer and content lines

    func testUnfoldingCRLFAndLFWithSpaceAndTabContinuations() {
        let text = "BEGIN:VEVENT\r\nDESCRIPTION:This is a lo\r\n ng description\r\n\tthat goes on\r\nSUMMARY:x\nLOCATION:y\rEND:VEVENT"
        let lines = ICSLexer.unfold(text)
        XCTAssertEqual(lines.map(\.text), ["BEGIN:VEVENT", "DESCRIPTION:This is a long descriptionthat goes on",
                                           "SUMMARY:x", "LOCATION:y", "END:VEVENT"])
        XCTAssertEqual(lines.map(\.lineNumber), [1, 2, 5, 6, 7])
    }

    func testUnfoldingRestoresUTF8SplitAcrossAFold() {
        // "会议" is E4 BC 9A E8 AE AE; fold between the bytes of the second character.
        var bytes = Array("SUMMARY:".utf8) + [0xE4, 0xBC, 0x9A, 0xE8]
        bytes += Array("\r\n ".utf8) + [0xAE, 0xAE] + Array("\r\n".utf8)
        let lines = ICSLexer.unfold(bytes: [0xEF, 0xBB, 0xBF] + bytes)   // with a BOM
        XCTAssertEqual(lines, [ICSLine(text: "SUMMARY:会议", lineNumber: 1)])
    }

    func testContentLineWithQuotedParametersAndColonInValue() throws {
        let line = try ContentLine.parse(ICSLine(
            text: #"attendee;CN="Doe, Jane";ROLE=REQ-PARTICIPANT;MEMBER="mailto:a@x.org","mailto:b@x.org":mailto:jane@example.com"#,
            lineNumber: 3))
        XCTAssertEqual(line.name, "ATTENDEE")
        XCTAssertEqual(line.parameter("cn"), "Doe, Jane")
        XCTAssertEqual(line.parameters["ROLE"], ["REQ-PARTICIPANT"])
        XCTAssertEqual(line.parameters["MEMBER"], ["mailto:a@x.org", "mailto:b@x.org"])
        XCTAssertEqual(line.value, "mailto:jane@example.com")
        XCTAssertEqual(line.lineNumber, 3)
    }

    func testContentLineCaretEscapesAndErrors() throws {
        let line = try ContentLine.parse(ICSLine(text: #"LOCATION;X-ADDR="Main St^nNo ^'5^'":Here"#, lineNumber: 1))
        XCTAssertEqual(line.parameter("X-ADDR"), "Main St\nNo \"5\"")
        XCTAssertThrowsError(try ContentLine.parse(ICSLine(text: "summary", lineNumber: 1))) { error in
            XCTAssertEqual((error as? ICSSyntaxError)?.message, "SUMMARY has no ':' before its value")
        }
        XCTAssertThrowsError(try ContentLine.parse(ICSLine(text: "SUMMARY no colon", lineNumber: 1))) { error in
            XCTAssertEqual((error as? ICSSyntaxError)?.message, "unexpected ' ' in \"SUMMARY no colon\" (expected NAME;PARAM=…:VALUE)")
        }
        XCTAssertThrowsError(try ContentLine.parse(ICSLine(text: #"X;A="open:v"#, lineNumber: 1)))
        XCTAssertThrowsError(try ContentLine.parse(ICSLine(text: ":value", lineNumber: 1)))
    }

    func testEscapedText() throws {
        XCTAssertEqual(ContentLine.unescapeText(#"a\\b\, c\; d\ne\Nf"#), "a\\b, c; d\ne\nf")
        XCTAssertEqual(ContentLine.unescapeText(#"trailing\"#), "trailing\\")
        let cal = calendar("""
            BEGIN:VEVENT
            UID:e1
            DTSTART:20261130T100000Z
            SUMMARY:Review\\, plan\\; ship
            LOCATION:Room 4\\, 2nd floor
            DESCRIPTION:Line one\\nLine two with a backslash \\\\ here
            END:VEVENT
            """)
        XCTAssertEqual(cal.diagnostics, [])
        XCTAssertEqual(cal.events.first?.summary, "Review, plan; ship")
        XCTAssertEqual(cal.events.first?.location, "Room 4, 2nd floor")
        XCTAssertEqual(cal.events.first?.description, "Line one\nLine two with a backslash \\ here")
    }

    // MARK: values

    func testDateTimeForms() throws {
        XCTAssertEqual(try ICSDateValue.parse("20261130", valueType: "DATE", zone: .floating),
                       .date(CivilDate(year: 2026, month: 11, day: 30)!))
        let utcValue = try ICSDateValue.parse("20261130T093000Z", valueType: nil, zone: .named(warsaw))
        XCTAssertEqual(utcValue.instant(floating: shanghai), Date(timeIntervalSince1970: 1_796_031_000))
        XCTAssertThrowsError(try ICSDateValue.parse("20261131T093000", valueType: nil, zone: .floating))
        XCTAssertThrowsError(try ICSDateValue.parse("2026113T0930", valueType: nil, zone: .floating))
        XCTAssertThrowsError(try ICSDateValue.parse("20261130T250000", valueType: nil, zone: .floating))
    }

    func testTZIDIsConvertedToTheCallersZone() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:w
            DTSTART;TZID=Europe/Warsaw:20261130T100000
            DTEND;TZID=Europe/Warsaw:20261130T110000
            SUMMARY:Winter
            END:VEVENT
            BEGIN:VEVENT
            UID:s
            DTSTART;TZID="Europe/Warsaw":20260715T100000
            DTEND;TZID=Europe/Warsaw:20260715T103000
            SUMMARY:Summer
            END:VEVENT
            """)
        XCTAssertEqual(cal.diagnostics, [])
        let winter = try items(cal, "2026-11-30", "2026-11-30", zone: shanghai)
        XCTAssertEqual(winter.map(\.start), ["2026-11-30T17:00:00+08:00"])
        XCTAssertEqual(winter.map(\.end), ["2026-11-30T18:00:00+08:00"])
        let summer = try items(cal, "2026-07-15", "2026-07-15", zone: utc)
        XCTAssertEqual(summer.map(\.start), ["2026-07-15T08:00:00Z"])   // CEST is UTC+2
        XCTAssertEqual(try starts(cal, "2026-11-30", "2026-11-30", zone: warsaw), ["2026-11-30T10:00:00+01:00"])
    }

    func testTZIDFallbacksPrefixedWindowsAndVTimezone() throws {
        let cal = calendar("""
            BEGIN:VTIMEZONE
            TZID:Custom Zone
            BEGIN:STANDARD
            DTSTART:19701025T030000
            TZOFFSETFROM:+0600
            TZOFFSETTO:+0530
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:a
            DTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20261130T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            DTSTART;TZID=China Standard Time:20261130T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:c
            DTSTART;TZID=Custom Zone:20261130T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:d
            DTSTART;TZID=Atlantis/Capital:20261130T100000
            END:VEVENT
            """)
        let byUID = Dictionary(uniqueKeysWithValues: try items(cal, "2026-11-30", "2026-11-30", zone: utc).map { ($0.uid, $0.start) })
        XCTAssertEqual(byUID["a"], "2026-11-30T09:00:00Z")
        XCTAssertEqual(byUID["b"], "2026-11-30T02:00:00Z")
        XCTAssertEqual(byUID["c"], "2026-11-30T04:30:00Z")
        XCTAssertEqual(byUID["d"], "2026-11-30T10:00:00Z")   // unknown: floating, read in the caller's zone
        XCTAssertEqual(cal.diagnostics.map(\.description), [
            "test.ics:26: unknown TZID \"Atlantis/Capital\" (not an IANA zone, a Windows zone name or a VTIMEZONE in this file); its times are read as floating local time",
        ])
    }

    func testFloatingTimeFollowsTheCallersZone() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:f
            DTSTART:20261130T160000
            DTEND:20261130T163000
            END:VEVENT
            """)
        XCTAssertEqual(try starts(cal, "2026-11-30", "2026-11-30", zone: warsaw), ["2026-11-30T16:00:00+01:00"])
        XCTAssertEqual(try starts(cal, "2026-11-30", "2026-11-30", zone: shanghai), ["2026-11-30T16:00:00+08:00"])
    }

    func testWallClockInstantsAroundDSTChanges() {
        // 2026-03-29 02:30 does not exist in Warsaw: read with the offset before the gap (+01:00) → 03:30 CEST.
        let gap = LocalDateTime(date: CivilDate(year: 2026, month: 3, day: 29)!, hour: 2, minute: 30, second: 0)
        XCTAssertEqual(CalendarQuery.rfc3339(gap.instant(in: warsaw), in: warsaw), "2026-03-29T03:30:00+02:00")
        // 2026-10-25 02:30 happens twice: the earlier one (+02:00) is used.
        let overlap = LocalDateTime(date: CivilDate(year: 2026, month: 10, day: 25)!, hour: 2, minute: 30, second: 0)
        XCTAssertEqual(CalendarQuery.rfc3339(overlap.instant(in: warsaw), in: warsaw), "2026-10-25T02:30:00+02:00")
        XCTAssertEqual(CalendarQuery.rfc3339(overlap.instant(in: warsaw).addingTimeInterval(3600), in: warsaw),
                       "2026-10-25T02:30:00+01:00")
    }

    func testCivilDateArithmetic() {
        let d = CivilDate(year: 2026, month: 11, day: 30)!
        XCTAssertEqual(d.weekday, .monday)
        XCTAssertEqual(d.adding(days: 1).description, "2026-12-01")
        XCTAssertEqual(CivilDate(year: 2024, month: 2, day: 28)!.adding(days: 1).description, "2024-02-29")
        XCTAssertEqual(CivilDate(year: 1969, month: 12, day: 31)!.dayNumber, -1)
        XCTAssertEqual(CivilDate(dayNumber: 0).description, "1970-01-01")
        XCTAssertNil(CivilDate(year: 2026, month: 2, day: 29))
        XCTAssertNil(CivilDate.parseISO("2026-13-01"))
        XCTAssertNil(CivilDate.parseISO("2026-1-01"))
    }

    // MARK: all-day and durations

    func testAllDayEvents() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:one
            DTSTART;VALUE=DATE:20261130
            SUMMARY:Holiday
            END:VEVENT
            BEGIN:VEVENT
            UID:three
            DTSTART;VALUE=DATE:20261203
            DTEND;VALUE=DATE:20261206
            SUMMARY:Trip
            END:VEVENT
            """)
        let first = try items(cal, "2026-11-30", "2026-11-30", zone: shanghai)
        XCTAssertEqual(first, [CalendarEventItem(uid: "one", summary: "Holiday", start: "2026-11-30", end: "2026-12-01",
                                                 allDay: true, location: nil, description: nil, calendar: "test")])
        XCTAssertEqual(try items(cal, "2026-12-01", "2026-12-02", zone: warsaw), [])
        // A multi-day event shows on any day it covers, the last day included, but not the day after.
        XCTAssertEqual(try items(cal, "2026-12-05", "2026-12-05", zone: warsaw).map(\.uid), ["three"])
        XCTAssertEqual(try items(cal, "2026-12-06", "2026-12-06", zone: warsaw).map(\.uid), [])
        XCTAssertEqual(try items(cal, "2026-12-05", "2026-12-05", zone: warsaw).first?.end, "2026-12-06")
    }

    func testDurationAndDefaultEnds() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:d1
            DTSTART:20261130T100000Z
            DURATION:PT1H30M
            END:VEVENT
            BEGIN:VEVENT
            UID:d2
            DTSTART;VALUE=DATE:20261130
            DURATION:P2D
            END:VEVENT
            BEGIN:VEVENT
            UID:d3
            DTSTART:20261130T120000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:dst
            DTSTART;TZID=Europe/Warsaw:20261024T120000
            DURATION:P1D
            END:VEVENT
            """)
        let byUID = Dictionary(uniqueKeysWithValues: try items(cal, "2026-11-30", "2026-11-30", zone: utc).map { ($0.uid, $0.end) })
        XCTAssertEqual(byUID["d1"], "2026-11-30T11:30:00Z")
        XCTAssertEqual(byUID["d2"], "2026-12-02")
        XCTAssertEqual(byUID["d3"], "2026-11-30T12:00:00Z")   // no DTEND/DURATION: zero length
        // P1D is a nominal day: across the end of DST it lasts 25 hours and ends at 12:00 local again.
        let dst = try items(cal, "2026-10-24", "2026-10-24", zone: warsaw)
        XCTAssertEqual(dst.map(\.start), ["2026-10-24T12:00:00+02:00"])
        XCTAssertEqual(dst.map(\.end), ["2026-10-25T12:00:00+01:00"])
        XCTAssertEqual(try ICSDuration.parse("P1W"), ICSDuration(days: 7))
        XCTAssertEqual(try ICSDuration.parse("-PT15M"), ICSDuration(negative: true, seconds: 900))
        XCTAssertEqual(try ICSDuration.parse("P1DT2H3M4S"), ICSDuration(days: 1, seconds: 7384))
        XCTAssertThrowsError(try ICSDuration.parse("PT"))
        XCTAssertThrowsError(try ICSDuration.parse("P1H"))
        XCTAssertThrowsError(try ICSDuration.parse("1D"))
    }

    // MARK: recurrence

    func testWeeklyByDayWithCount() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:w
            DTSTART;TZID=Europe/Warsaw:20261102T093000
            DTEND;TZID=Europe/Warsaw:20261102T094500
            RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=5
            END:VEVENT
            """)
        XCTAssertEqual(try starts(cal, "2026-10-01", "2026-12-31", zone: warsaw), [
            "2026-11-02T09:30:00+01:00", "2026-11-04T09:30:00+01:00", "2026-11-06T09:30:00+01:00",
            "2026-11-09T09:30:00+01:00", "2026-11-11T09:30:00+01:00",
        ])
        // A window in the middle of the series still respects COUNT.
        XCTAssertEqual(try starts(cal, "2026-11-10", "2026-11-30", zone: warsaw), ["2026-11-11T09:30:00+01:00"])
    }

    func testWeeklyWithUntilKeepsLocalTimeAcrossDST() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:w
            DTSTART;TZID=Europe/Warsaw:20261020T180000
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20261105T170000Z
            END:VEVENT
            """)
        // UNTIL 17:00Z is 18:00 CET on Nov 5: inclusive.
        XCTAssertEqual(try starts(cal, "2026-10-01", "2026-12-31", zone: warsaw), [
            "2026-10-20T18:00:00+02:00", "2026-10-22T18:00:00+02:00", "2026-10-27T18:00:00+01:00",
            "2026-10-29T18:00:00+01:00", "2026-11-03T18:00:00+01:00", "2026-11-05T18:00:00+01:00",
        ])
    }

    func testWeeklyIntervalWithoutByDayAndDateUntil() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:w
            DTSTART:20261102T080000Z
            RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=20261214
            END:VEVENT
            """)
        XCTAssertEqual(try starts(cal, "2026-11-01", "2027-01-31", zone: utc), [
            "2026-11-02T08:00:00Z", "2026-11-16T08:00:00Z", "2026-11-30T08:00:00Z",
            "2026-12-14T08:00:00Z",
        ])
    }

    func testDailyMonthlyAndYearly() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:daily
            DTSTART:20261128T070000Z
            RRULE:FREQ=DAILY;INTERVAL=2;COUNT=3
            END:VEVENT
            BEGIN:VEVENT
            UID:eom
            DTSTART;VALUE=DATE:20260131
            RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4
            END:VEVENT
            BEGIN:VEVENT
            UID:lastfri
            DTSTART:20260130T150000Z
            RRULE:FREQ=MONTHLY;BYDAY=-1FR
            END:VEVENT
            BEGIN:VEVENT
            UID:bday
            DTSTART;VALUE=DATE:20200229
            RRULE:FREQ=YEARLY
            END:VEVENT
            """)
        let all = expanded(cal, "2026-01-01", "2028-12-31", zone: utc)
        func of(_ uid: String) -> [String] { all.filter { $0.uid == uid }.map(\.start) }
        XCTAssertEqual(of("daily"), ["2026-11-28T07:00:00Z", "2026-11-30T07:00:00Z", "2026-12-02T07:00:00Z"])
        XCTAssertEqual(of("eom"), ["2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31"])   // months without a 31st skipped
        XCTAssertEqual(Array(of("lastfri").prefix(3)), ["2026-01-30T15:00:00Z", "2026-02-27T15:00:00Z",
                                                        "2026-03-27T15:00:00Z"])
        XCTAssertEqual(of("lastfri").count, 36)
        XCTAssertEqual(of("bday"), ["2028-02-29"])   // only leap years have the day
    }

    func testLongRunningSeriesIsExpandedIntoAFarWindow() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:old
            DTSTART;TZID=Europe/Warsaw:19900105T080000
            DTEND;TZID=Europe/Warsaw:19900105T083000
            RRULE:FREQ=DAILY
            END:VEVENT
            """)
        XCTAssertEqual(try starts(cal, "2026-11-30", "2026-12-01", zone: warsaw),
                       ["2026-11-30T08:00:00+01:00", "2026-12-01T08:00:00+01:00"])
    }

    func testEXDATEInSeveralForms() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:x
            DTSTART;TZID=Europe/Warsaw:20261130T100000
            DURATION:PT15M
            RRULE:FREQ=DAILY;COUNT=5
            EXDATE;TZID=Europe/Warsaw:20261201T100000,20261202T100000
            EXDATE:20261203T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:y
            DTSTART;VALUE=DATE:20261130
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE;VALUE=DATE:20261201
            END:VEVENT
            """)
        let list = try items(cal, "2026-11-30", "2026-12-31", zone: warsaw)
        XCTAssertEqual(list.filter { $0.uid == "x" }.map(\.start), ["2026-11-30T10:00:00+01:00", "2026-12-04T10:00:00+01:00"])
        XCTAssertEqual(list.filter { $0.uid == "y" }.map(\.start), ["2026-11-30", "2026-12-02"])
    }

    func testCancelledEventsAndCancelledInstances() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:gone
            DTSTART:20261130T100000Z
            STATUS:CANCELLED
            SUMMARY:Gone
            END:VEVENT
            BEGIN:VEVENT
            UID:series
            DTSTART:20261130T120000Z
            RRULE:FREQ=DAILY;COUNT=3
            SUMMARY:Series
            END:VEVENT
            BEGIN:VEVENT
            UID:series
            RECURRENCE-ID:20261201T120000Z
            DTSTART:20261201T120000Z
            STATUS:CANCELLED
            SUMMARY:Series
            END:VEVENT
            """)
        XCTAssertEqual(try items(cal, "2026-11-30", "2026-12-31", zone: utc).map(\.start),
                       ["2026-11-30T12:00:00Z", "2026-12-02T12:00:00Z"])
    }

    func testRecurrenceIDOverrideMovesOneInstance() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:s
            DTSTART;TZID=Europe/Warsaw:20261130T100000
            DURATION:PT15M
            RRULE:FREQ=DAILY;COUNT=3
            SUMMARY:Standup
            END:VEVENT
            BEGIN:VEVENT
            UID:s
            RECURRENCE-ID;TZID=Europe/Warsaw:20261201T100000
            DTSTART;TZID=Europe/Warsaw:20261201T143000
            DTEND;TZID=Europe/Warsaw:20261201T150000
            SUMMARY:Standup (moved)
            END:VEVENT
            """)
        let list = try items(cal, "2026-11-30", "2026-12-02", zone: warsaw)
        XCTAssertEqual(list.map(\.summary), ["Standup", "Standup (moved)", "Standup"])
        XCTAssertEqual(list.map(\.start), ["2026-11-30T10:00:00+01:00", "2026-12-01T14:30:00+01:00", "2026-12-02T10:00:00+01:00"])
        XCTAssertEqual(list[1].end, "2026-12-01T15:00:00+01:00")
    }

    func testUnsupportedRuleShowsFirstOccurrenceAndWarns() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:h
            DTSTART:20261130T100000Z
            RRULE:FREQ=HOURLY;COUNT=3
            END:VEVENT
            """)
        XCTAssertEqual(try starts(cal, "2026-11-30", "2026-11-30", zone: utc), ["2026-11-30T10:00:00Z"])
        XCTAssertEqual(cal.diagnostics.map(\.description),
                       ["test.ics:7: event at line 4 (UID h): RRULE FREQ=HOURLY;COUNT=3: FREQ=HOURLY is not supported; only the first occurrence is shown"])
    }

    func testRRULEParsing() throws {
        let rule = try RecurrenceRule.parse("FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO,-1FR,TU;BYMONTH=1,7;WKST=SU", startZone: .floating)
        XCTAssertEqual(rule.frequency, .monthly)
        XCTAssertEqual(rule.interval, 2)
        XCTAssertEqual(rule.byDay, [.init(.monday, ordinal: 1), .init(.friday, ordinal: -1), .init(.tuesday)])
        XCTAssertEqual(rule.byMonth, [1, 7])
        XCTAssertEqual(rule.weekStart, .sunday)
        XCTAssertNil(rule.unsupportedReason)
        XCTAssertThrowsError(try RecurrenceRule.parse("INTERVAL=2", startZone: .floating))
        XCTAssertThrowsError(try RecurrenceRule.parse("FREQ=WEEKLY;BYDAY=XX", startZone: .floating))
        XCTAssertThrowsError(try RecurrenceRule.parse("FREQ=WEEKLY;COUNT=0", startZone: .floating))
        XCTAssertEqual(try RecurrenceRule.parse("FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO", startZone: .floating).unsupportedReason,
                       "BYSETPOS is not supported")
    }

    // MARK: ranges

    func testRangeIsInclusiveOfBothDaysInTheCallersZone() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:before
            DTSTART:20261129T223000Z
            DTEND:20261129T230000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:first-minute
            DTSTART:20261129T230000Z
            DTEND:20261129T233000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:last-minute
            DTSTART:20261201T225900Z
            DTEND:20261201T233000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:after
            DTSTART:20261201T230000Z
            DTEND:20261201T233000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:overnight
            DTSTART:20261129T220000Z
            DTEND:20261130T010000Z
            END:VEVENT
            """)
        // In Warsaw (UTC+1) 2026-11-30..2026-12-01 is [2026-11-29T23:00Z, 2026-12-01T23:00Z).
        XCTAssertEqual(try items(cal, "2026-11-30", "2026-12-01", zone: warsaw).map(\.uid), ["overnight", "first-minute", "last-minute"])
        XCTAssertEqual(try items(cal, "2026-11-30", "2026-12-01", zone: utc).map(\.uid),
                       ["overnight", "last-minute", "after"])
    }

    func testRangeValidation() throws {
        XCTAssertThrowsError(try DayRange.parse(from: "2026-12-02", to: "2026-12-01")) { error in
            XCTAssertEqual((error as? CalendarInputError)?.message,
                           "from (2026-12-02) is after to (2026-12-01); from must be on or before to")
        }
        XCTAssertEqual(try DayRange.parse(from: "2026-01-01", to: "2026-12-31").days.count, 365)
        XCTAssertEqual(try DayRange.parse(from: "2028-01-01", to: "2028-12-31").days.count, 366)
        XCTAssertThrowsError(try DayRange.parse(from: "2026-01-01", to: "2027-01-02")) { error in
            XCTAssertEqual((error as? CalendarInputError)?.message,
                           "the range 2026-01-01 to 2027-01-02 spans 367 days; at most 366 days are allowed")
        }
        XCTAssertThrowsError(try DayRange.parse(from: "30.11.2026", to: "2026-12-01")) { error in
            XCTAssertEqual((error as? CalendarInputError)?.message, "from must be a date in the form YYYY-MM-DD, got \"30.11.2026\"")
        }
        XCTAssertThrowsError(try DayRange.parse(from: "2026-11-30", to: "2026-02-30"))
    }

    // MARK: broken input

    func testBrokenEventIsSkippedWithFileAndLineAndTheRestIsServed() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:good-1
            DTSTART:20261130T090000Z
            SUMMARY:Good one
            END:VEVENT
            BEGIN:VEVENT
            UID:bad-date
            DTSTART:20261130T9000Z
            SUMMARY:Bad date
            END:VEVENT
            BEGIN:VEVENT
            UID:bad-line
            this line has no colon
            DTSTART:20261130T100000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:no-start
            SUMMARY:No start
            END:VEVENT
            BEGIN:VEVENT
            UID:bad-rule
            DTSTART:20261130T100000Z
            RRULE:FREQ=WEEKLY;BYDAY=MOO
            END:VEVENT
            BEGIN:VEVENT
            UID:good-2
            DTSTART:20261130T110000Z
            SUMMARY:Good two
            END:VEVENT
            BEGIN:VEVENT
            UID:unterminated
            DTSTART:20261130T120000Z
            """)
        // A line that is not a content line costs only itself (a warning); a bad value costs its event.
        XCTAssertEqual(cal.events.map(\.uid), ["good-1", "bad-line", "good-2"])
        XCTAssertEqual(cal.diagnostics.map(\.description), [
            "test.ics:11: event \"Bad date\" (UID bad-date) skipped: DTSTART: invalid DATE-TIME \"20261130T9000Z\" (expected YYYYMMDDTHHMMSS, optionally with Z)",
            "test.ics:16: line skipped: unexpected ' ' in \"this line has no colon\" (expected NAME;PARAM=…:VALUE)",
            "test.ics:19: event \"No start\" (UID no-start) skipped: DTSTART is missing",
            "test.ics:26: event at line 23 (UID bad-rule) skipped: RRULE: RRULE BYDAY value \"MOO\" is not a weekday",
            "test.ics:33: event skipped: VEVENT is not closed (END:VEVENT missing before line 36)",
        ])
        XCTAssertEqual(cal.diagnostics.map(\.severity), [.error, .warning, .error, .error, .error])
        XCTAssertEqual(try items(cal, "2026-11-30", "2026-11-30", zone: utc).map(\.uid), ["good-1", "bad-line", "good-2"])
    }

    func testNotACalendarIsReported() {
        let cal = ICSParser.parse(text: "hello world\n", path: "notes.ics")
        XCTAssertEqual(cal.events, [])
        XCTAssertEqual(cal.diagnostics.map(\.description), [
            "notes.ics: no BEGIN:VCALENDAR found; is this an iCalendar file?",
            "notes.ics:1: line skipped: unexpected ' ' in \"hello world\" (expected NAME;PARAM=…:VALUE)",
        ])
    }

    // MARK: summary

    func testSummaryCountsBusyMinutesOnceForOverlaps() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:a
            DTSTART:20261130T100000Z
            DTEND:20261130T110000Z
            SUMMARY:A
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            DTSTART:20261130T103000Z
            DTEND:20261130T113000Z
            SUMMARY:B
            END:VEVENT
            BEGIN:VEVENT
            UID:free
            DTSTART:20261130T140000Z
            DTEND:20261130T150000Z
            TRANSP:TRANSPARENT
            SUMMARY:Focus (free)
            END:VEVENT
            BEGIN:VEVENT
            UID:night
            DTSTART:20261130T230000Z
            DTEND:20261201T010000Z
            SUMMARY:Night deploy
            END:VEVENT
            BEGIN:VEVENT
            UID:h
            DTSTART;VALUE=DATE:20261201
            SUMMARY:Holiday
            END:VEVENT
            """)
        let query = CalendarQuery(timeZone: utc)
        let r = try range("2026-11-30", "2026-12-02")
        let summary = query.summary(query.occurrences(of: [cal], in: r), range: r)
        XCTAssertEqual(summary.count, 5)
        XCTAssertEqual(summary.days, [
            CalendarDaySummary(date: "2026-11-30", count: 4, busyMinutes: 150,
                               first: .init(start: "2026-11-30T10:00:00Z", summary: "A")),
            CalendarDaySummary(date: "2026-12-01", count: 2, busyMinutes: 60, first: nil),
            CalendarDaySummary(date: "2026-12-02", count: 0, busyMinutes: 0, first: nil),
        ])
        XCTAssertEqual(summary.text, """
            4 events on 2026-11-30: 10:00 A, 10:30 B, 14:00 Focus (free), 23:00 Night deploy
            2 events on 2026-12-01: until 01:00 Night deploy, Holiday (all day)
            """)
        let empty = query.summary([], range: try range("2026-12-05", "2026-12-05"))
        XCTAssertEqual(empty.text, "No events on 2026-12-05.")
        XCTAssertEqual(empty.days, [CalendarDaySummary(date: "2026-12-05", count: 0, busyMinutes: 0, first: nil)])
    }

    // MARK: bundled samples and files

    func testBundledSamplesOnTheDemoDays() throws {
        let files = try CalendarLoader.calendarFiles(config: CalendarConfig(calendars: [Self.samples]), dataDirectory: "/nonexistent")
        XCTAssertEqual(files.map { ($0 as NSString).lastPathComponent }, ["personal.ics", "work.ics"])
        let calendars = try CalendarLoader.load(files: files)
        XCTAssertEqual(calendars.map(\.name), ["Personal", "Work"])
        XCTAssertEqual(calendars.flatMap(\.diagnostics), [])

        let query = CalendarQuery(timeZone: warsaw)
        let r = try range("2026-11-30", "2026-12-02")
        let occurrences = query.occurrences(of: calendars, in: r)
        let list = query.list(occurrences).events
        XCTAssertEqual(list.map { "\($0.start) \($0.summary) [\($0.calendar)]" }, [
            "2026-11-30 妈妈生日 (Mom's birthday) [Personal]",
            "2026-11-30T10:00:00+01:00 Standup [Work]",
            "2026-11-30T14:00:00+01:00 Design review: calendar skill [Work]",
            "2026-11-30T15:00:00+01:00 项目周会 [Work]",
            "2026-11-30T16:00:00+01:00 1:1 with Anna [Work]",
            "2026-12-01 Pay rent [Personal]",
            "2026-12-01 Team offsite [Work]",
            "2026-12-01T10:00:00+01:00 Q1 planning [Work]",
            "2026-12-01T17:30:00+01:00 Dentist [Personal]",
            "2026-12-01T19:00:00+01:00 健身 [Personal]",
            "2026-12-02T10:00:00+01:00 All-hands [Work]",
            "2026-12-02T11:30:00+01:00 Standup (moved after the all-hands) [Work]",
        ])
        let review = try XCTUnwrap(list.first { $0.summary.hasPrefix("Design review") })
        XCTAssertEqual(review.location, "Room 4.12, 4th floor")
        XCTAssertEqual(review.description, "Review of the RFC 5545 parser and the recurrence expansion. Please read the design doc before the meeting and bring questions about RRULE, EXDATE and RECURRENCE-ID handling; we will also decide on the time zone policy for floating times.")
        XCTAssertEqual(list.first { $0.summary == "项目周会" }?.description, "与上海团队的项目周会：进度、风险、下周计划。\nAgenda: status, risks, next steps.")
        XCTAssertEqual(list.first { $0.summary == "Dentist" }?.end, "2026-12-01T18:15:00+01:00")

        let summary = query.summary(occurrences, range: try range("2026-11-30", "2026-11-30"))
        XCTAssertEqual(summary.text, "5 events on 2026-11-30: 妈妈生日 (Mom's birthday) (all day), 10:00 Standup, 14:00 Design review: calendar skill, 15:00 项目周会, 16:00 1:1 with Anna")
        XCTAssertEqual(summary.days.map(\.busyMinutes), [165])

        let zh = CalendarQuery(timeZone: shanghai, locale: "zh-CN")
        let zhRange = try range("2026-12-01", "2026-12-01")
        XCTAssertEqual(zh.summary(zh.occurrences(of: calendars, in: zhRange), range: zhRange).text,
                       "2026-12-01 有 4 个日程：Pay rent（全天）、Team offsite（全天）、17:00 Q1 planning、19:00 健身")   // Dentist is 00:30 on 12-02 in Shanghai
    }

    func testLoaderErrorsNameThePathAndTheConfigKey() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caltest-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }

        XCTAssertThrowsError(try CalendarLoader.calendarFiles(config: CalendarConfig(calendars: [dir + "/missing.ics"]), dataDirectory: dir)) { error in
            XCTAssertEqual((error as? CalendarSourceError)?.description,
                           "Calendar path \"\(dir)/missing.ics\" does not exist; fix or remove it in this skill's config key \"calendars\".")
        }
        XCTAssertThrowsError(try CalendarLoader.calendarFiles(config: CalendarConfig(), dataDirectory: dir)) { error in
            XCTAssertEqual(error as? CalendarSourceError, .noCalendars(paths: [dir], configured: false))
        }
        XCTAssertThrowsError(try CalendarLoader.calendarFiles(config: CalendarConfig(), dataDirectory: dir + "/nope")) { error in
            XCTAssertEqual(error as? CalendarSourceError, .missing(path: dir + "/nope", configured: false))
        }
        // Default: every *.ics in the data directory, nothing else.
        try "BEGIN:VCALENDAR\nEND:VCALENDAR\n".write(toFile: dir + "/b.ics", atomically: true, encoding: .utf8)
        try "BEGIN:VCALENDAR\nEND:VCALENDAR\n".write(toFile: dir + "/a.ICS", atomically: true, encoding: .utf8)
        try "not a calendar".write(toFile: dir + "/notes.txt", atomically: true, encoding: .utf8)
        XCTAssertEqual(try CalendarLoader.calendarFiles(config: CalendarConfig(), dataDirectory: dir), [dir + "/a.ICS", dir + "/b.ics"])
        XCTAssertEqual(try CalendarLoader.calendarFiles(config: CalendarConfig(calendars: [dir + "/b.ics"]), dataDirectory: "/x"), [dir + "/b.ics"])

        let config = try JSONDecoder().decode(CalendarConfig.self, from: Data(#"{"calendars":"/one.ics"}"#.utf8))
        XCTAssertEqual(config.calendars, ["/one.ics"])
        XCTAssertNil(try JSONDecoder().decode(CalendarConfig.self, from: Data("{}".utf8)).calendars)
    }

    // MARK: the SkillKit layer

    func skillContext(_ config: String, zone: TimeZone? = nil, locale: String = "en") -> SkillContext {
        SkillContext(configJSON: Array(config.utf8), dataDirectory: "/nonexistent/skillhost-calendar", locale: locale,
                     timeZone: zone ?? warsaw, now: Date(timeIntervalSince1970: 1_796_000_000), caller: "human")
    }

    var samplesConfig: String { #"{"calendars":["\#(Self.samples)"]}"# }

    func skillError(_ intent: String, _ input: String, config: String) async -> SkillError? {
        do {
            _ = try await CalendarSkill().execute(input: SkillInput(intent: intent, json: input), context: skillContext(config))
            return nil
        } catch {
            return error as? SkillError ?? .failed("not a SkillError: \(error)")
        }
    }

    func testSkillListsAndSummarizesTheSamples() async throws {
        let skill = CalendarSkill()
        let list = try await skill.execute(input: SkillInput(intent: "calendar.events.list", json: #"{"from":"2026-11-30","to":"2026-11-30"}"#),
                                           context: skillContext(samplesConfig))
        XCTAssertEqual(list.message, "5 events on 2026-11-30: 妈妈生日 (Mom's birthday) (all day), 10:00 Standup, 14:00 Design review: calendar skill, 15:00 项目周会, 16:00 1:1 with Anna")
        let decoded = try JSONDecoder().decode(CalendarEventList.self, from: Data(list.json))
        XCTAssertEqual(decoded.events.map(\.summary), ["妈妈生日 (Mom's birthday)", "Standup", "Design review: calendar skill", "项目周会", "1:1 with Anna"])
        // Keys sorted, absent location/description left out, slashes not escaped.
        XCTAssertTrue(list.jsonString.contains(#"{"allDay":false,"calendar":"Work","end":"2026-11-30T16:30:00+01:00","start":"2026-11-30T16:00:00+01:00","summary":"1:1 with Anna","uid":"one-on-one-anna-1130@work.example.com"}"#), list.jsonString)
        XCTAssertTrue(list.jsonString.contains(#""location":"Huddle room / Meet: https://meet.example.com/standup""#), list.jsonString)

        let summary = try await skill.execute(input: SkillInput(intent: "calendar.events.summary", json: #"{"from":"2026-11-30","to":"2026-12-01"}"#),
                                              context: skillContext(samplesConfig))
        XCTAssertEqual(summary.message, """
            5 events on 2026-11-30: 妈妈生日 (Mom's birthday) (all day), 10:00 Standup, 14:00 Design review: calendar skill, 15:00 项目周会, 16:00 1:1 with Anna
            5 events on 2026-12-01: Pay rent (all day), Team offsite (all day), 10:00 Q1 planning, 17:30 Dentist, 19:00 健身
            """)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(summary.json)) as? [String: Any])
        XCTAssertEqual(object["count"] as? Int, 10)
        XCTAssertEqual(object["text"] as? String, summary.message)
        let days = try XCTUnwrap(object["days"] as? [[String: Any]])
        XCTAssertEqual(days.map { $0["busyMinutes"] as? Int }, [165, 225])
        XCTAssertEqual((days[1]["first"] as? [String: Any])?["summary"] as? String, "Q1 planning")
    }

    func testSkillErrorsAreTypedAndSayWhatToFix() async {
        let list = "calendar.events.list"
        var error = await skillError(list, #"{"from":"2026-12-01","to":"2026-11-30"}"#, config: samplesConfig)
        XCTAssertEqual(error, .invalidInput("from (2026-12-01) is after to (2026-11-30); from must be on or before to"))
        error = await skillError("calendar.events.summary", #"{"from":"2026-01-01","to":"2027-06-30"}"#, config: samplesConfig)
        XCTAssertEqual(error, .invalidInput("the range 2026-01-01 to 2027-06-30 spans 546 days; at most 366 days are allowed"))
        error = await skillError(list, #"{"from":"2026-12-01"}"#, config: samplesConfig)
        guard case .invalidInput(let message)? = error else { return XCTFail("expected invalidInput, got \(String(describing: error))") }
        XCTAssertTrue(message.contains("\"to\""), message)
        error = await skillError(list, #"{"from":"2026-11-30","to":"2026-11-30"}"#, config: #"{"calendars":["/nonexistent/work.ics"]}"#)
        XCTAssertEqual(error, .unavailable("Calendar path \"/nonexistent/work.ics\" does not exist; fix or remove it in this skill's config key \"calendars\"."))
        error = await skillError(list, #"{"from":"2026-11-30","to":"2026-11-30"}"#, config: "{}")
        XCTAssertEqual(error, .unavailable("No calendars: the data directory \"/nonexistent/skillhost-calendar\" does not exist; put .ics files there or list calendar files and directories in this skill's config key \"calendars\"."))
        error = await skillError(list, #"{"from":"2026-11-30","to":"2026-11-30"}"#, config: #"{"calendars":5}"#)
        guard case .unavailable(let configMessage)? = error else { return XCTFail("expected unavailable, got \(String(describing: error))") }
        XCTAssertTrue(configMessage.hasPrefix("invalid configuration"), configMessage)
    }

    func testSkillHealth() async throws {
        let skill = CalendarSkill()
        let ok = await skill.healthCheck(context: skillContext(samplesConfig))
        XCTAssertEqual(ok, SkillHealth(status: .ok, message: "2 calendars, 15 events"))
        let missing = await skill.healthCheck(context: skillContext(#"{"calendars":["/nonexistent/a.ics"]}"#))
        XCTAssertEqual(missing.status, .unavailable)
        XCTAssertEqual(missing.message, "Calendar path \"/nonexistent/a.ics\" does not exist; fix or remove it in this skill's config key \"calendars\".")

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("calhealth-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:2026\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".write(toFile: dir + "/bad.ics", atomically: true, encoding: .utf8)
        let degraded = await skill.healthCheck(context: SkillContext(dataDirectory: dir))   // default: *.ics in the data directory
        XCTAssertEqual(degraded, .degraded("1 calendar, 0 events; 1 broken event skipped, first at \(dir)/bad.ics:4: event at line 2 (UID x) skipped: DTSTART: invalid DATE-TIME \"2026\" (expected YYYYMMDDTHHMMSS, optionally with Z)"))
    }

    func testExportedManifest() throws {
        let skill = exportSkill(CalendarSkill()).assumingMemoryBound(to: skh_skill.self).pointee
        XCTAssertEqual(skill.abi_major, UInt32(SKH_ABI_VERSION_MAJOR))
        XCTAssertEqual(String(cString: skill.id), "dev.skillhost.calendar")
        XCTAssertEqual(String(cString: skill.version), "1.0.0")
        XCTAssertEqual(String(cString: skill.category), "productivity")
        XCTAssertEqual(String(cString: skill.vendor), "skillhost")
        XCTAssertEqual(skill.intent_count, 2)
        let intents = (0..<Int(skill.intent_count)).map { skill.intents[$0] }
        XCTAssertEqual(intents.map { String(cString: $0.name) }, ["calendar.events.list", "calendar.events.summary"])
        for intent in intents {
            XCTAssertEqual(intent.flags, UInt32(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT))
            XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(String(cString: intent.input_schema).utf8)) as? [String: Any])
            XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(String(cString: intent.output_schema).utf8)) as? [String: Any])
            let examples = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(String(cString: intent.examples).utf8)) as? [[String: Any]])
            XCTAssertEqual(Set(examples.compactMap { $0["lang"] as? String }), ["en", "zh"])
            for example in examples where example["input"] != nil {
                // Every example input is a valid request (the examples without one teach `ask`).
                let input = try XCTUnwrap(example["input"] as? [String: String])
                XCTAssertNoThrow(try DayRange.parse(from: input["from"] ?? "", to: input["to"] ?? ""))
            }
        }
        XCTAssertEqual(String(cString: intents[0].keywords),
                       #"{"en":["meeting","meetings","calendar","schedule","appointment","event","agenda","free","what's on","plans","anything on"],"zh":["会议","日程","安排","开会","日历","行程","有空","空闲","有会","会吗","什么会","啥会","几个会","议程"]}"#)
    }
}
