import Foundation
import XCTest
@testable import CalendarSkill

/// Parsing must stay linear in the file's size, whatever the file's shape: deep nesting of unknown
/// components, floods of unmatched END lines, thousands of broken lines, many events.
final class CalendarParsingScaleTests: XCTestCase {
    /// The shapes the issue measured, at `n` times a base size.
    static func nested(_ n: Int) -> String {
        let depth = 7_500 * n
        return "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X-A\r\n", count: depth)
            + String(repeating: "END:X-A\r\n", count: depth) + "END:VCALENDAR\r\n"
    }

    static func unmatchedEnds(_ n: Int) -> String {
        "BEGIN:VCALENDAR\r\n" + String(repeating: "END:X-B\r\n", count: 5_000 * n) + "END:VCALENDAR\r\n"
    }

    static func nestedUnclosed(_ n: Int) -> String {
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260101T100000Z\r\n"
            + String(repeating: "BEGIN:X-A\r\nEND:X-B\r\n", count: 5_000 * n) + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    static func brokenLines(_ n: Int) -> String {
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260101T100000Z\r\n"
            + String(repeating: "X\r\n", count: 5_000 * n) + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// Median seconds of `runs` parses of `text`.
    func medianParseSeconds(_ text: String, runs: Int = 3) -> Double {
        let bytes = Array(text.utf8)
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let cal = ICSParser.parse(bytes: bytes, path: "scale.ics")
            XCTAssertNotNil(cal.name)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return times.sorted()[runs / 2]
    }

    /// 1× and 8× each shape (the full 1×/2×/4×/8× table is `make bench-calendar`): 8× the size must
    /// take at most 16× the time (room for a loaded machine; quadratic growth would be 64×).
    func testParsingScalesLinearlyWithFileSize() {
        let shapes: [(String, (Int) -> String)] = [
            ("nested BEGIN/END X-A", Self.nested), ("unmatched END", Self.unmatchedEnds),
            ("END closing unclosed", Self.nestedUnclosed), ("broken lines in an event", { Self.brokenLines(4 * $0) }),
        ]
        for (name, make) in shapes {
            let one = medianParseSeconds(make(1))
            let eight = medianParseSeconds(make(8), runs: 1)
            print(String(format: "parse scaling %@: 1x %.4f s, 8x %.4f s, ratio %.1f", name, one, eight, eight / one))
            XCTAssertLessThan(eight / max(one, 1e-6), 16, "\(name): 8x the size took \(eight / one)x the time")
        }
    }

    /// The issue's sizes: 60,000 nested X-A pairs (1.3 MB) and 40,000 unmatched END lines, within a
    /// call's 10 s deadline even in a debug build on a loaded machine (a release build is far faster).
    func testTheIssuesPathologicalFilesParseFast() {
        let nested = medianParseSeconds(Self.nested(8), runs: 1)
        let ends = medianParseSeconds(Self.unmatchedEnds(8), runs: 1)
        XCTAssertLessThan(nested, 8, "60,000 nested BEGIN:X-A took \(nested) s")
        XCTAssertLessThan(ends, 8, "40,000 unmatched END lines took \(ends) s")
        let cal = ICSParser.parse(text: Self.unmatchedEnds(8), path: "ends.ics")
        XCTAssertEqual(cal.diagnostics.count, 40_000)
        XCTAssertEqual(cal.diagnostics.first?.description, "ends.ics:2: END:X-B without a matching BEGIN")
    }
}
