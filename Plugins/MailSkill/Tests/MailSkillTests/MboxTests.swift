import Foundation
import XCTest
@testable import MailCore

/// mbox as mailers write it: mboxo/mboxrd quoting, `From ` in bodies, CRLF, no final newline, and files
/// larger than memory should hold (read by a streamed scan, each message loaded on demand).
final class MboxTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = try Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = dir + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func loaded(_ path: String) throws -> [String] {
        try Mailbox.open(path: path).messages.map { String(decoding: try $0.load(), as: UTF8.self) }
    }

    func testQuotedFromLinesAreUnquotedOnce() throws {
        let path = try write("q.mbox", Array("""
        From a Mon Nov 23 09:00:00 2026
        Subject: quoting

        >From mboxo or mboxrd
        >>From mboxrd, quoted twice
        > From is not a From line
        From inside a paragraph stays

        """.utf8))
        XCTAssertEqual(try loaded(path), ["Subject: quoting\n\nFrom mboxo or mboxrd\n>From mboxrd, quoted twice\n> From is not a From line\nFrom inside a paragraph stays\n"])
    }

    func testCRLFAndNoFinalNewline() throws {
        let text = "From a Mon Nov 23 09:00:00 2026\r\nSubject: one\r\n\r\nfirst body\r\n\r\nFrom b Mon Nov 23 10:00:00 2026\r\nSubject: two\r\n\r\nlast line without a break"
        let path = try write("crlf.mbox", Array(text.utf8))
        let box = try Mailbox.open(path: path)
        XCTAssertEqual(box.messages.count, 2)
        XCTAssertEqual(box.messages[1].delivered, MailDate(asctime: "Mon Nov 23 10:00:00 2026")?.date)
        let messages = try box.messages.map { try MailMessage.parse(try $0.load()) }
        XCTAssertEqual(messages.map(\.subject), ["one", "two"])
        XCTAssertEqual(messages.map(\.text), ["first body\n", "last line without a break\n"])
    }

    func testTheScanAgreesWithTheWholeFileSplitAcrossChunkBoundaries() throws {
        // Messages of awkward sizes so that separators, CRLF pairs and ">From " lines fall on the
        // 1 MB chunk boundaries of the scan somewhere; the streamed reading must equal the whole-file split.
        var bytes: [UInt8] = []
        var n = 0
        while bytes.count < 3 * 1_048_576 + 5000 {
            n += 1
            let crlf = n % 3 == 0
            let br = crlf ? "\r\n" : "\n"
            var m = "From sender\(n)@example.org Mon Nov 23 09:00:00 2026" + br + "Subject: message \(n)" + br + br
            m += String(repeating: "x", count: (n * 7919) % 3000) + br + ">From quoted" + br + br
            bytes += Array(m.utf8)
        }
        let path = try write("big.mbox", bytes)
        let expected = Mbox.split(bytes).map { String(decoding: $0.body, as: UTF8.self) }
        XCTAssertEqual(expected.count, n)
        XCTAssertEqual(try loaded(path), expected)
    }

    func testMessagesAreReadOnDemandAndAChangedFileIsReported() throws {
        let path = try write("lazy.mbox", Array("From a Mon Nov 23 09:00:00 2026\nSubject: one\n\nbody\n\nFrom b Mon Nov 23 10:00:00 2026\nSubject: two\n\nbody\n".utf8))
        let box = try Mailbox.open(path: path)
        _ = try write("lazy.mbox", Array("From a Mon Nov 23 09:00:00 2026\nSubject: one\n\nbody\nFrom b".utf8))
        XCTAssertThrowsError(try box.messages[1].load()) { error in
            guard case .unreadable(_, let reason)? = error as? MailboxError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("changed while it was read"), reason)
        }
    }

    func testTriageOfALargeMboxKeepsOnlyTheNewest() throws {
        var text = ""
        for day in 1...2000 {
            let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 3600)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
            text += "From x@example.org Mon Nov 23 09:00:00 2026\nFrom: x@example.org\nSubject: number \(day)\nDate: \(formatter.string(from: date))\n\n"
                + String(repeating: "padding line\n", count: 20) + "\n"
        }
        let path = try write("many.mbox", Array(text.utf8))
        let run = try MailTriage.run(path: path, options: TriageOptions(limit: 3))
        XCTAssertEqual(run.total, 2000)
        XCTAssertEqual(run.matched, 2000)
        XCTAssertEqual(run.messages.map(\.message.subject), ["number 2000", "number 1999", "number 1998"])
    }

    func testAFileWithTextBeforeTheFirstFromLineIsNotAnMbox() throws {
        let path = try write("notes.txt", Array("some notes\n\nFrom a Mon Nov 23 09:00:00 2026\nSubject: x\n\nbody\n".utf8))
        XCTAssertThrowsError(try Mailbox.open(path: path)) { error in
            guard case .notAMailbox? = error as? MailboxError else { return XCTFail("\(error)") }
        }
        let blank = try write("blank.mbox", Array("\n\n  \n".utf8))
        XCTAssertEqual(try Mailbox.open(path: blank).messages.count, 0)
    }
}
