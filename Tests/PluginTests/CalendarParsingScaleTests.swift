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

    static func events(_ n: Int) -> String {
        var text = "BEGIN:VCALENDAR\r\n"
        for i in 0..<(1_000 * n) {
            text += "BEGIN:VEVENT\r\nUID:e\(i)\r\nDTSTART;TZID=Europe/Warsaw:20260101T100000\r\nSUMMARY:Event \(i)\r\nEND:VEVENT\r\n"
        }
        return text + "END:VCALENDAR\r\n"
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

    /// 1×, 2×, 4×, 8× each shape; the time per size must grow like the size (ratio 8× → at most ~16×,
    /// leaving room for a loaded machine; quadratic growth would be 64×). Prints the figures.
    func testParsingScalesLinearlyWithFileSize() {
        let shapes: [(String, (Int) -> String)] = [
            ("nested BEGIN/END X-A", Self.nested), ("unmatched END", Self.unmatchedEnds),
            ("END closing unclosed", Self.nestedUnclosed), ("broken lines in an event", Self.brokenLines),
            ("events with TZID", Self.events),
        ]
        for (name, make) in shapes {
            var medians: [Double] = []
            for n in [1, 2, 4, 8] { medians.append(medianParseSeconds(make(n))) }
            let ratios = medians.map { $0 / max(medians[0], 1e-6) }
            print(String(format: "parse scaling %-26@ 1x %.4fs  2x %.4fs  4x %.4fs  8x %.4fs  ratios %@", name as NSString,
                         medians[0], medians[1], medians[2], medians[3],
                         ratios.map { String(format: "%.1f", $0) }.joined(separator: "/") as NSString))
            XCTAssertLessThan(ratios[3], 16, "\(name): 8x the size took \(ratios[3])x the time")
        }
    }

    /// The issue's sizes: 60,000 nested X-A pairs (1.3 MB) and 40,000 unmatched END lines, well within a
    /// call's deadline even in a debug build.
    func testTheIssuesPathologicalFilesParseFast() {
        let nested = medianParseSeconds(Self.nested(8), runs: 1)
        let ends = medianParseSeconds(Self.unmatchedEnds(8), runs: 1)
        XCTAssertLessThan(nested, 3, "60,000 nested BEGIN:X-A took \(nested) s")
        XCTAssertLessThan(ends, 3, "40,000 unmatched END lines took \(ends) s")
        let cal = ICSParser.parse(text: Self.unmatchedEnds(8), path: "ends.ics")
        XCTAssertEqual(cal.diagnostics.count, 40_000)
        XCTAssertEqual(cal.diagnostics.first?.description, "ends.ics:2: END:X-B without a matching BEGIN")
    }
}
