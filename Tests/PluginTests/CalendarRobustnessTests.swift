import Foundation
import SkillKit
import XCTest
@testable import CalendarSkill

/// Broken input must cost the broken part only: a bad line, not its event; a rule with absurd numbers,
/// not the process.
final class CalendarRobustnessTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!

    func calendar(_ body: String) -> ICSCalendar {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + body.split(separator: "\n").map(String.init)
                    + ["END:VCALENDAR"]).joined(separator: "\r\n")
        return ICSParser.parse(text: text, path: "robust.ics")
    }

    func expanded(_ cal: ICSCalendar, from: String, to: String) -> [EventOccurrence] {
        RecurrenceExpander(floatingZone: utc).occurrences(
            of: cal.events, from: CivilDate.parseISO(from)!.startInstant(in: utc),
            to: CivilDate.parseISO(to)!.adding(days: 1).startInstant(in: utc))
    }

    // MARK: - Malformed lines

    func testMalformedLinesAreSkippedTheirEventIsKeptAndEachIsReportedWithItsLine() throws {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:noisy
            X
            DTSTART:20261130T090000Z
            this line has no colon
            SUMMARY:Still here
            DESCRIPTION;X-P="unterminated:value
            X_UNDERSCORE:not a property name
            ;:nothing
            END:VEVENT
            BEGIN:VEVENT
            UID:alarm-inside
            DTSTART:20261130T100000Z
            BEGIN:VALARM
            TRIGGER-PT15M
            END:VALARM
            END:VEVENT
            """)
        XCTAssertEqual(cal.events.map(\.uid), ["noisy", "alarm-inside"])
        XCTAssertEqual(cal.events.first?.summary, "Still here")
        XCTAssertEqual(cal.diagnostics.map(\.line), [6, 8, 10, 11, 12, 18])
        XCTAssertTrue(cal.diagnostics.allSatisfy { $0.severity == .warning && $0.message.hasPrefix("line skipped: ") }, "\(cal.diagnostics)")
        XCTAssertEqual(cal.diagnostics.first?.description, "robust.ics:6: line skipped: X has no ':' before its value")
    }

    func testTheAnswerCarriesTheProblemsWithFileAndLine() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("calproblems-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nX\r\nDTSTART:20261130T090000Z\r\nSUMMARY:Kept\r\nEND:VEVENT\r\n"
        text += String(repeating: "END:X-NEVER-OPENED\r\n", count: 60) + "END:VCALENDAR\r\n"
        try text.write(toFile: dir + "/noisy.ics", atomically: true, encoding: .utf8)
        let context = SkillContext(configJSON: Array(#"{"calendars":["\#(dir)"]}"#.utf8), dataDirectory: dir, timeZone: utc)
        let range = #"{"from":"2026-11-30","to":"2026-11-30"}"#
        let input = SkillInput(intent: "calendar.events.list", json: range)
        let result = try await CalendarSkill().execute(input: input, context: context)
        let list = try JSONDecoder().decode(CalendarEventList.self, from: Data(result.json))
        XCTAssertEqual(list.events.map(\.summary), ["Kept"])
        let problems = try XCTUnwrap(list.problems)
        XCTAssertEqual(problems.count, CalendarProblem.limit)
        XCTAssertEqual(list.problemsTotal, 61)
        XCTAssertEqual(problems[0], CalendarProblem(file: dir + "/noisy.ics", line: 4, severity: "warning",
                                                    message: "line skipped: X has no ':' before its value"))
        XCTAssertEqual(problems[1].message, "END:X-NEVER-OPENED without a matching BEGIN")

        let summary = try await CalendarSkill().execute(input: SkillInput(intent: "calendar.events.summary", json: range), context: context)
        XCTAssertEqual(try JSONDecoder().decode(CalendarSummary.self, from: Data(summary.json)).problemsTotal, 61)
    }

    // MARK: - Numbers that do not fit

    func testHugeIntervalsCountsAndSetPositionsNeverTrap() throws {
        let max = Int.max
        let rules = [
            "FREQ=DAILY;INTERVAL=\(max)", "FREQ=WEEKLY;INTERVAL=\(max)", "FREQ=MONTHLY;INTERVAL=\(max)", "FREQ=YEARLY;INTERVAL=\(max)",
            "FREQ=WEEKLY;INTERVAL=\(max / 7 + 1)", "FREQ=MONTHLY;INTERVAL=\(max / 12 + 1)", "FREQ=DAILY;INTERVAL=\(max / 86_400 + 1)",
            "FREQ=DAILY;INTERVAL=3700000", "FREQ=MONTHLY;INTERVAL=120000", "FREQ=YEARLY;INTERVAL=10000",
            "FREQ=WEEKLY;BYDAY=MO,FR;INTERVAL=\(max / 2)", "FREQ=MONTHLY;BYDAY=-1SU;INTERVAL=\(max - 1)",
            "FREQ=YEARLY;COUNT=\(max)", "FREQ=DAILY;COUNT=\(max);INTERVAL=\(max)",
            "FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=\(Int.min)", "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=\(max)",
        ]
        var body = ""
        for (index, rule) in rules.enumerated() {
            body += "BEGIN:VEVENT\nUID:r\(index)\nDTSTART:20260105T100000Z\nRRULE:\(rule)\nEND:VEVENT\n"
        }
        let cal = calendar(body)
        XCTAssertEqual(cal.events.count, rules.count, "\(cal.diagnostics)")
        // Every series shows its DTSTART; nothing else is due within a year except the COUNT rules' own.
        let year = expanded(cal, from: "2026-01-01", to: "2026-12-31")
        let byUID = Dictionary(grouping: year, by: \.event.uid).mapValues(\.count)
        for index in rules.indices where !rules[index].contains("COUNT") {
            // BYDAY rules also have the other days of DTSTART's own period (Fri 9th; Sun 25th).
            XCTAssertEqual(byUID["r\(index)"], rules[index].contains("BYDAY=MO,FR") || rules[index].contains("-1SU") ? 2 : 1, rules[index])
        }
        XCTAssertEqual(byUID["r12"], 1)         // yearly: one per year
        XCTAssertEqual(byUID["r13"], 1)         // huge interval: the first only
        // Far windows: the last representable years, with and without a skip-ahead.
        XCTAssertEqual(expanded(cal, from: "9999-01-01", to: "9999-12-31").filter { $0.event.uid != "r12" }.count, 0)
        XCTAssertEqual(expanded(cal, from: "9999-01-01", to: "9999-12-31").filter { $0.event.uid == "r12" }.count, 1)
    }

    func testSeriesAtTheEdgesOfTheCalendarStop() {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:last-day
            DTSTART:99991231T100000Z
            RRULE:FREQ=DAILY
            END:VEVENT
            BEGIN:VEVENT
            UID:first-year
            DTSTART:00010101T100000Z
            RRULE:FREQ=YEARLY;INTERVAL=1000
            END:VEVENT
            """)
        XCTAssertEqual(cal.events.count, 2)
        XCTAssertEqual(expanded(cal, from: "9999-12-01", to: "9999-12-31").map(\.event.uid), ["last-day"])
        XCTAssertEqual(expanded(cal, from: "2001-01-01", to: "2001-12-31").map(\.event.uid), ["first-year"])
    }

    func testNumbersBeyondIntAreRefusedNamingTheFileAndLine() {
        let cal = calendar("""
            BEGIN:VEVENT
            UID:too-big
            DTSTART:20260105T100000Z
            RRULE:FREQ=DAILY;INTERVAL=99999999999999999999
            END:VEVENT
            BEGIN:VEVENT
            UID:fine
            DTSTART:20260105T110000Z
            END:VEVENT
            """)
        XCTAssertEqual(cal.events.map(\.uid), ["fine"])
        XCTAssertEqual(cal.diagnostics.map(\.description),
                       ["robust.ics:7: event at line 4 (UID too-big) skipped: RRULE: RRULE INTERVAL=99999999999999999999 is not a number"])
    }
}
