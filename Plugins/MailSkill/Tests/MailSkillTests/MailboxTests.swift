import XCTest
@testable import MailCore

/// Maildir and mbox readers, and the errors for paths that are neither.
final class MailboxTests: XCTestCase {
    var temporary: [String] = []

    override func tearDown() {
        for dir in temporary { try? FileManager.default.removeItem(atPath: dir) }
        super.tearDown()
    }

    func track(_ dir: String) -> String { temporary.append(dir); return dir }

    // MARK: Maildir

    func testSampleMaildirReadsNewAndCurButNotTmp() throws {
        let box = try Mailbox.open(path: Fixtures.maildir)
        XCTAssertEqual(box.format, .maildir)
        XCTAssertEqual(box.messages.count, 8)
        XCTAssertEqual(box.messages.filter { $0.source.hasPrefix("new/") }.count, 2)
        XCTAssertFalse(box.messages.contains { $0.source.hasPrefix("tmp/") })
        XCTAssertTrue(box.skipped.isEmpty)
    }

    func testMaildirFlagsAndDeliveryTime() throws {
        let dir = track(try Fixtures.maildir([
            "cur/1795628710.M4P1004.host:2,S": "Subject: seen\n\nx\n",
            "cur/1795628711.M5P1005.host:2,RF": "Subject: replied, flagged, not seen\n\nx\n",
            "cur/noflags": "Subject: cur without info\n\nx\n",
            "new/1795628712.M6P1006.host": "Subject: new\n\nx\n",
            "new/.hidden": "Subject: ignored\n\nx\n",
            "tmp/1795628713.M7P1007.host": "Subject: being delivered\n\nx\n",
        ]))
        let box = try Mailbox.open(path: dir)
        let seen = Dictionary(uniqueKeysWithValues: box.messages.map { ($0.source, $0.seen) })
        XCTAssertEqual(seen, ["cur/1795628710.M4P1004.host:2,S": true, "cur/1795628711.M5P1005.host:2,RF": false,
                              "cur/noflags": false, "new/1795628712.M6P1006.host": false])
        let first = try XCTUnwrap(box.messages.first { $0.source.hasSuffix(":2,S") })
        XCTAssertEqual(first.fallbackID, "1795628710.M4P1004.host")
        XCTAssertEqual(first.delivered, Date(timeIntervalSince1970: 1_795_628_710))
        XCTAssertEqual(Maildir.split("a:b:2,ST").flags, "ST")
    }

    func testUnreadableEntriesAreSkippedWithTheirReason() throws {
        let dir = track(try Fixtures.maildir(["cur/ok:2,S": "Subject: fine\n\nx\n", "cur/empty:2,": "", "cur/binary:2,": "\u{0}\u{1}garbage"]))
        try FileManager.default.createDirectory(atPath: dir + "/cur/a-folder", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir + "/new/dangling", withDestinationPath: dir + "/nowhere")
        let run = try MailTriage.run(path: dir, options: TriageOptions())
        XCTAssertEqual(run.messages.map(\.source), ["cur/ok:2,S"])
        let reasons = Dictionary(uniqueKeysWithValues: run.skipped.map { ($0.source, $0.reason) })
        XCTAssertEqual(reasons["cur/a-folder"], "not a regular file")
        XCTAssertEqual(reasons["new/dangling"], "No such file or directory")
        XCTAssertEqual(reasons["cur/empty:2,"], "empty file")
        XCTAssertEqual(reasons["cur/binary:2,"], MailMessage.ParseError.noHeaders.description)
        XCTAssertEqual(run.total, 1)
    }

    // MARK: mbox

    func testSampleMboxSplitsIntoFourAndUnescapesFromLines() throws {
        let box = try Mailbox.open(path: Fixtures.mbox)
        XCTAssertEqual(box.format, .mbox)
        XCTAssertEqual(box.messages.map(\.source), (1...4).map { "archive.mbox#\($0)" })
        let first = String(decoding: try box.messages[0].load(), as: UTF8.self)
        XCTAssertTrue(first.contains("\nFrom the agenda you sent"), first)
        XCTAssertTrue(first.contains("\n>From a quoted mbox line"), first)
        XCTAssertFalse(first.contains(">>From"), first)
        XCTAssertTrue(first.hasSuffix("Anna\n"), "the blank separator line is not part of the message: \(first.suffix(20))")
        XCTAssertEqual(box.messages[0].delivered, MailDate(asctime: "Mon Nov 23 09:02:11 2026")?.date)
    }

    func testMboxSplitsOnlyAfterABlankLine() {
        let text = "From a Mon Nov 23 09:00:00 2026\nSubject: one\n\nline\nFrom here on, not a separator\n\n\nFrom b Mon Nov 23 10:00:00 2026\nSubject: two\n\nbody\n"
        let parts = Mbox.split(Array(text.utf8))
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(String(decoding: parts[0].body, as: UTF8.self), "Subject: one\n\nline\nFrom here on, not a separator\n\n")
        XCTAssertEqual(parts[1].envelope, "b Mon Nov 23 10:00:00 2026")
    }

    func testEmptyMboxIsAnEmptyMailbox() throws {
        let dir = track(try Fixtures.temporaryDirectory())
        _ = FileManager.default.createFile(atPath: dir + "/empty.mbox", contents: Data())
        let run = try MailTriage.run(path: dir + "/empty.mbox", options: TriageOptions())
        XCTAssertEqual(run.format, .mbox)
        XCTAssertEqual(run.total, 0)
    }

    // MARK: Not a mailbox

    func testPathsThatAreNotMailboxes() throws {
        let dir = track(try Fixtures.temporaryDirectory())
        _ = FileManager.default.createFile(atPath: dir + "/note.eml", contents: Data("Subject: a single message\n\nhi\n".utf8))
        try FileManager.default.createDirectory(atPath: dir + "/plain-folder", withIntermediateDirectories: false)
        XCTAssertThrowsError(try Mailbox.open(path: dir + "/missing")) {
            XCTAssertEqual($0 as? MailboxError, .notFound(path: dir + "/missing"))
            XCTAssertTrue("\($0)".contains("Maildir"))
        }
        XCTAssertThrowsError(try Mailbox.open(path: dir + "/note.eml")) { error in
            guard case .notAMailbox(let p, let why)? = error as? MailboxError else { return XCTFail("\(error)") }
            XCTAssertEqual(p, dir + "/note.eml")
            XCTAssertTrue(why.contains("\"From \"") && why.contains("single message"), why)
        }
        XCTAssertThrowsError(try Mailbox.open(path: dir + "/plain-folder")) { error in
            guard case .notAMailbox(_, let why)? = error as? MailboxError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("cur/"), why)
        }
        XCTAssertThrowsError(try Mailbox.open(path: "/dev/null")) { error in
            guard case .notAMailbox? = error as? MailboxError else { return XCTFail("\(error)") }
        }
    }
}
