import Foundation
import XCTest
@testable import SkillKit

final class ResultEncodingTests: XCTestCase {
    struct Inner: Encodable { let z = 1; let y = "/path/x" }
    struct Value: Encodable { let b = 2; let a = "x"; let inner = Inner(); let when: Date }

    func testSortedKeysUnescapedSlashesAndUTCDates() throws {
        let result = try SkillResult(Value(when: Date(timeIntervalSince1970: 1_740_792_600)), message: "done")
        XCTAssertEqual(result.jsonString, #"{"a":"x","b":2,"inner":{"y":"/path/x","z":1},"when":"2025-03-01T01:30:00Z"}"#)
        XCTAssertEqual(result.message, "done")
    }

    func testDatesInAGivenTimeZoneCarryTheOffset() throws {
        let shanghai = try XCTUnwrap(TimeZone(identifier: "Asia/Shanghai"))
        let result = try SkillResult(["at": Date(timeIntervalSince1970: 1_740_792_600.25)], timeZone: shanghai)
        XCTAssertEqual(result.jsonString, #"{"at":"2025-03-01T09:30:00.250+08:00"}"#)
    }

    func testRawJSONIsKeptAsIs() {
        let result = SkillResult(json: Array("[1, 2]".utf8))
        XCTAssertEqual(result.jsonString, "[1, 2]")
        XCTAssertNil(result.message)
    }
}

final class SkillDatesTests: XCTestCase {
    func testValidDays() throws {
        let d = try SkillDates.day("2024-02-29", field: "from")
        XCTAssertEqual([d.year, d.month, d.day], [2024, 2, 29])
        let e = try SkillInput.parseDate("2000-12-31", field: "to")
        XCTAssertEqual([e.year, e.month, e.day], [2000, 12, 31])
    }

    func testInvalidDays() {
        for text in ["2023-02-29", "1900-02-29", "2025-13-01", "2025-00-10", "2025-04-31", "2025-1-01", "20250101",
                     "2025-01-01T00:00:00Z", "", "abcd-ef-gh"] {
            XCTAssertNil(SkillDates.parseDay(text), text)
        }
        XCTAssertThrowsError(try SkillDates.day("2025-02-30", field: "from")) { error in
            XCTAssertEqual(error as? SkillError, .invalidInput(#"field "from": expected a date YYYY-MM-DD, found "2025-02-30""#))
        }
    }

    func testValidInstants() throws {
        let reference = Date(timeIntervalSince1970: 1_740_792_600)   // 2025-03-01T01:30:00Z
        XCTAssertEqual(try SkillDates.instant("2025-03-01T01:30:00Z", field: "due"), reference)
        XCTAssertEqual(try SkillDates.instant("2025-03-01T09:30:00+08:00", field: "due"), reference)
        XCTAssertEqual(try SkillDates.instant("2025-02-28T20:00:00-05:30", field: "due"), reference)
        XCTAssertEqual(try SkillDates.instant("2025-03-01t01:30:00z", field: "due"), reference)
        XCTAssertEqual(try SkillDates.instant("2025-03-01T01:30:00.5Z", field: "due").timeIntervalSince1970,
                       1_740_792_600.5, accuracy: 1e-6)
        XCTAssertEqual(try SkillInput.parseDateTime("1970-01-01T00:00:00Z", field: "x"), Date(timeIntervalSince1970: 0))
    }

    func testInvalidInstants() {
        for text in ["2025-03-01T01:30:00", "2025-03-01 01:30:00Z", "2025-03-01T24:00:00Z", "2025-02-30T00:00:00Z",
                     "2025-03-01T01:30:00.Z", "2025-03-01T01:30:00+0800", "2025-03-01T01:30Z", "2025-03-01",
                     "2025-03-01T01:30:00Zjunk", "tomorrow", ""] {
            XCTAssertNil(SkillDates.parseInstant(text), text)
        }
        XCTAssertThrowsError(try SkillDates.instant("2025-03-01", field: "due")) { error in
            XCTAssertEqual(error as? SkillError, .invalidInput(
                #"field "due": expected an RFC 3339 date-time such as 2025-03-01T09:30:00+08:00, found "2025-03-01""#))
        }
    }

    func testFormatting() throws {
        let date = Date(timeIntervalSince1970: 1_740_792_600)
        XCTAssertEqual(SkillDates.format(date), "2025-03-01T01:30:00Z")
        let newYork = try XCTUnwrap(TimeZone(identifier: "America/New_York"))
        XCTAssertEqual(SkillDates.format(date, timeZone: newYork), "2025-02-28T20:30:00-05:00")
        XCTAssertEqual(SkillDates.formatDay(date, timeZone: newYork), "2025-02-28")
        XCTAssertEqual(SkillDates.format(Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59.500Z")
        for text in ["2024-02-29T23:59:59.999+05:45", "1999-12-31T00:00:00Z", "2025-06-15T12:00:00-03:00"] {
            XCTAssertEqual(SkillDates.parseInstant(SkillDates.format(SkillDates.parseInstant(text)!)), SkillDates.parseInstant(text))
        }
    }

    func testStartOfDay() throws {
        let shanghai = try XCTUnwrap(TimeZone(identifier: "Asia/Shanghai"))
        XCTAssertEqual(SkillDates.format(SkillDates.startOfDay(year: 2025, month: 3, day: 1, timeZone: shanghai), timeZone: shanghai),
                       "2025-03-01T00:00:00+08:00")
        let newYork = try XCTUnwrap(TimeZone(identifier: "America/New_York"))
        XCTAssertEqual(SkillDates.format(SkillDates.startOfDay(year: 2025, month: 3, day: 9, timeZone: newYork), timeZone: newYork),
                       "2025-03-09T00:00:00-05:00")
    }
}
