import Glibc
import XCTest
@testable import SkillHostCore

/// `ZoneRules` reads the system's TZif files itself, so that a call's zone never comes from the process
/// environment. Pinned against the C library (which reads the same files) for zones with every kind of
/// rule: northern and southern daylight time, negative daylight saving (Dublin), half-hour and
/// 45-minute offsets, zones without daylight time, and instants past the last transition (the footer).
final class ZoneRulesTests: XCTestCase {
    static let zones = ["Europe/Warsaw", "America/Los_Angeles", "Australia/Sydney", "Asia/Shanghai", "America/Sao_Paulo",
                        "Pacific/Chatham", "Asia/Kolkata", "America/St_Johns", "Europe/Dublin", "Africa/Casablanca",
                        "Asia/Kathmandu", "Pacific/Apia", "America/Santiago", "Europe/London", "Asia/Tokyo", "UTC"]

    /// The offset the C library gives for `instant` in `zone` (TZ set for the test only).
    func libcOffset(_ zone: String, _ instant: Int) -> Int {
        var t = time_t(instant)
        var tm = Glibc.tm()
        localtime_r(&t, &tm)
        return Int(tm.tm_gmtoff)
    }

    func testOffsetsMatchTheCLibraryFrom1970To2060() throws {
        let saved = getenv("TZ").map { String(cString: $0) }
        defer { if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }; tzset() }
        for zone in Self.zones {
            let rules = try XCTUnwrap(ZoneRules.load(zone), zone)
            setenv("TZ", zone, 1)
            tzset()
            var mismatches: [String] = []
            // Every 7 h 13 min from 1970 to 2060: every transition's neighbourhood is crossed many times.
            var t = 0
            while t < 2_840_000_000 {
                let mine = rules.offset(at: t), theirs = libcOffset(zone, t)
                if mine != theirs && mismatches.count < 3 { mismatches.append("\(rules.rfc3339(t)): \(mine) vs libc \(theirs)") }
                t += 26_000
            }
            XCTAssertEqual(mismatches, [], zone)
        }
    }

    func testCivilTimesAndInstantsRoundTrip() throws {
        let warsaw = try XCTUnwrap(ZoneRules.load("Europe/Warsaw"))
        let t = warsaw.instant(CivilDate(year: 2026, month: 7, day: 1), hour: 15, minute: 30)
        XCTAssertEqual(warsaw.rfc3339(t), "2026-07-01T15:30:00+02:00")
        XCTAssertEqual(warsaw.rfc3339(warsaw.instant(CivilDate(year: 2026, month: 12, day: 1), hour: 9, minute: 0)), "2026-12-01T09:00:00+01:00")
        // 2026-03-29 02:30 does not exist in Warsaw (clocks go 02:00 → 03:00): read with the offset before.
        XCTAssertEqual(warsaw.rfc3339(warsaw.instant(CivilDate(year: 2026, month: 3, day: 29), hour: 2, minute: 30)), "2026-03-29T03:30:00+02:00")
        // 2026-10-25 02:30 happens twice: the earlier one.
        XCTAssertEqual(warsaw.rfc3339(warsaw.instant(CivilDate(year: 2026, month: 10, day: 25), hour: 2, minute: 30)), "2026-10-25T02:30:00+02:00")
        let c = warsaw.civil(t)
        XCTAssertEqual([c.date.description, "\(c.hour):\(c.minute)"], ["2026-07-01", "15:30"])
        XCTAssertEqual(ZoneRules.utc.rfc3339(0), "1970-01-01T00:00:00Z")
    }

    func testUnknownAndUnsafeNamesAreRefused() {
        XCTAssertNil(ZoneRules.load("Mars/Olympus_Mons"))
        XCTAssertNil(ZoneRules.load("../../etc/passwd"))
        XCTAssertNil(ZoneRules.load("/etc/localtime"))
        XCTAssertNil(ZoneRules.load(""))
    }

    func testPosixFootersWithoutTransitions() throws {
        let ny = try XCTUnwrap(PosixRule("EST5EDT,M3.2.0,M11.1.0"))
        // 2030-07-01 12:00 UTC is daylight time in New York; 2030-01-15 is not.
        XCTAssertEqual(ny.offset(at: CivilDate(year: 2030, month: 7, day: 1).dayNumber * 86400 + 43200), -4 * 3600)
        XCTAssertEqual(ny.offset(at: CivilDate(year: 2030, month: 1, day: 15).dayNumber * 86400), -5 * 3600)
        let fixed = try XCTUnwrap(PosixRule("<+0545>-5:45"))
        XCTAssertEqual(fixed.offset(at: 0), 5 * 3600 + 45 * 60)
        XCTAssertNil(PosixRule("nonsense"))
    }
}

/// A request carries its zone; the process environment never decides what "today" is.
final class RequestZoneTests: XCTestCase {
    func testAScriptedRequestInAnotherZoneReadsTodayThere() throws {
        // 2026-11-30T20:00:00Z is already 2026-12-01 in Tokyo, still 2026-11-30 in Los Angeles.
        let now = try XCTUnwrap(LocalClock.parseInstant("2026-11-30T20:00:00Z"))
        let tokyo = try AgentRequest.from(json: try JSON.parse(#"{"text":"today","timeZone":"Asia/Tokyo"}"#), source: .script,
                                          caller: .automation, timeZone: "America/Los_Angeles", now: now).get()
        XCTAssertEqual(tokyo.today.description, "2026-12-01")
        XCTAssertEqual(tokyo.nowText, "2026-12-01T05:00:00+09:00")
        let host = try AgentRequest.from(json: try JSON.parse(#"{"text":"today"}"#), source: .script,
                                         caller: .automation, timeZone: "America/Los_Angeles", now: now).get()
        XCTAssertEqual(host.today.description, "2026-11-30")
        XCTAssertEqual(host.timeZone, "America/Los_Angeles")
    }

    func testAnUnknownZoneIsInvalidInputNamingTheMember() throws {
        guard case .failure(let e) = AgentRequest.from(json: try JSON.parse(#"{"text":"x","timeZone":"Mars/Base"}"#), source: .script,
                                                       caller: .automation, timeZone: "UTC", now: 0) else { return XCTFail("must be refused") }
        XCTAssertEqual(e.kind, .invalidInput)
        XCTAssertTrue(e.message.contains("\"timeZone\""), e.message)
    }
}
