import Foundation
import XCTest
@testable import CalendarSkill

/// Values written in a form other than DTSTART's (dates in PERIODs, UTC EXDATEs and UNTILs on floating or
/// all-day series), and TEXT kept as written. Each is checked in zones east and west of UTC, where the
/// old readings went wrong.
final class CalendarRecurrenceEdgeTests: XCTestCase {
    let zones = ["UTC", "Europe/Warsaw", "Asia/Shanghai", "Pacific/Auckland", "America/Los_Angeles"].map { TimeZone(identifier: $0)! }

    func calendar(_ body: String) -> ICSCalendar {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + body.split(separator: "\n").map(String.init)
                    + ["END:VCALENDAR"]).joined(separator: "\r\n")
        return ICSParser.parse(text: text, path: "edge.ics")
    }

    func items(_ cal: ICSCalendar, _ from: String, _ to: String, zone: TimeZone) throws -> [CalendarEventItem] {
        let query = CalendarQuery(timeZone: zone)
        return query.list(query.occurrences(of: [cal], in: try DayRange.parse(from: from, to: to))).events
    }

    func testRDatePeriodsWithPlainDatesStartAtMidnightAndKeepTheirLength() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:p
            DTSTART:20220110T180000Z
            DTEND:20220110T190000Z
            RDATE;VALUE=PERIOD:20220115/20220116,20220220/20220222
            RDATE;VALUE=PERIOD:20220301T090000Z/PT3H
            END:VEVENT
            """)
        XCTAssertEqual(cal.diagnostics, [])
        let utc = TimeZone(identifier: "UTC")!
        let got = try items(cal, "2022-01-01", "2022-03-31", zone: utc)
        XCTAssertEqual(got.map(\.start), ["2022-01-10T18:00:00Z", "2022-01-15T00:00:00Z", "2022-02-20T00:00:00Z", "2022-03-01T09:00:00Z"])
        XCTAssertEqual(got.map(\.end), ["2022-01-10T19:00:00Z", "2022-01-16T00:00:00Z", "2022-02-22T00:00:00Z", "2022-03-01T12:00:00Z"])
    }

    func testAFloatingSeriesWithUTCExdatesIsReadOnTheirClockAndTheyMatchInEveryZone() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:f
            DTSTART:20210301T073000
            RRULE:FREQ=DAILY;COUNT=5
            EXDATE:20210302T073000Z,20210304T073000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:g
            DTSTART:20210301T120000
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE:20210302T120000
            END:VEVENT
            """)
        for zone in zones {
            let got = try items(cal, "2021-02-28", "2021-03-10", zone: zone)
            let utcStarts = got.filter { $0.uid == "f" }.map { CalendarQuery.rfc3339(SkillDatesParse.instant($0.start), in: TimeZone(identifier: "UTC")!) }
            XCTAssertEqual(utcStarts, ["2021-03-01T07:30:00Z", "2021-03-03T07:30:00Z", "2021-03-05T07:30:00Z"], zone.identifier)
            // Floating with floating EXDATEs: wall-clock in the caller's zone, the 2nd left out.
            XCTAssertEqual(got.filter { $0.uid == "g" }.map { String($0.start.prefix(19)) },
                           ["2021-03-01T12:00:00", "2021-03-03T12:00:00"], zone.identifier)
        }
    }

    func testAllDaySeriesWithAUTCUntilEndsOnTheSameDayEverywhere() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:daily
            DTSTART;VALUE=DATE:20230105
            DTEND;VALUE=DATE:20230106
            RRULE:FREQ=DAILY;UNTIL=20230107T225959Z
            END:VEVENT
            BEGIN:VEVENT
            UID:weekly
            DTSTART;VALUE=DATE:20230102
            RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20230112T000000Z
            END:VEVENT
            """)
        for zone in zones {
            let got = try items(cal, "2023-01-01", "2023-01-31", zone: zone)
            XCTAssertEqual(got.filter { $0.uid == "daily" }.map(\.start), ["2023-01-05", "2023-01-06", "2023-01-07"], zone.identifier)
            XCTAssertEqual(got.filter { $0.uid == "weekly" }.map(\.start), ["2023-01-02", "2023-01-05", "2023-01-09", "2023-01-12"], zone.identifier)
        }
    }

    func testAFloatingSeriesWithAUTCUntilStopsAtTheWrittenWallClockTime() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:u
            DTSTART:20210501T223000
            RRULE:FREQ=DAILY;UNTIL=20210503T223000Z
            END:VEVENT
            """)
        for zone in zones {
            XCTAssertEqual(try items(cal, "2021-04-30", "2021-05-10", zone: zone).count, 3, zone.identifier)
        }
    }

    func testTextKeepsItsSpacesAsWritten() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:s
            DTSTART:20261130T090000Z
            SUMMARY:  Padded\\, with a fold\u{20}
             and a tail\u{20}\u{20}
            LOCATION: Room 4
            END:VEVENT
            """)
        let event = try XCTUnwrap(cal.events.first)
        XCTAssertEqual(event.summary, "  Padded, with a fold and a tail  ")
        XCTAssertEqual(event.location, " Room 4")
    }
}

/// RFC 3339 with an offset → instant (the tests read the skill's own output back).
enum SkillDatesParse {
    static func instant(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }
}
