import Foundation
import XCTest
@testable import MailCore

/// CPython's email test messages (Tests/Corpus/cpython, PSF license; see Tests/Corpus/README.md): every
/// one parses without a crash (the one that is not a message is refused), and the facts listed below — read off the messages — come out exactly.
final class CorpusTests: XCTestCase {
    static let corpus = Fixtures.packageRoot + "/Tests/Corpus/cpython"

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { $0.hasPrefix("msg_") && $0.hasSuffix(".txt") }.sorted()
    }

    func parse(_ name: String) throws -> MailMessage {
        try MailMessage.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + name))))
    }

    func testEveryMessageParses() throws {
        let names = try files()
        XCTAssertEqual(names.count, 47)
        // msg_19.txt is no message: CPython keeps a digest's expected text in it. It is refused, not guessed at.
        for name in names where name != "msg_19.txt" {
            XCTAssertNoThrow(try parse(name), name)
        }
        XCTAssertThrowsError(try parse("msg_19.txt")) { XCTAssertEqual($0 as? MailMessage.ParseError, .noHeaders) }
    }

    /// Subject, sender address and name (nil: none), for messages whose headers say so plainly.
    func testSubjectsAndSenders() throws {
        let expected: [String: (subject: String, address: String?, name: String?)] = [
            "msg_01.txt": ("This is a test message", "bbb@ddd.com", "John X. Doe"),
            "msg_02.txt": ("Ppp digest, Vol 1 #2 - 5 msgs", "ppp-request@zzz.org", nil),
            "msg_04.txt": ("a simple multipart", "barry@python.org", "Barry A. Warsaw"),
            "msg_05.txt": ("bar", "foo", nil),
            "msg_07.txt": ("Here is your dingus fish", "barry@digicool.com", "Barry"),
            "msg_08.txt": ("Lyrics", "barry@python.org", "Barry Warsaw"),
            "msg_15.txt": ("XX", "xx@xx.dk", nil),
            "msg_16.txt": ("Delivery Notification: Delivery has failed", "postmaster@ucla.edu", "Internet Mail Delivery"),
            "msg_21.txt": ("Test", "aperson@dom.ain", nil),
            "msg_24.txt": ("A subject", "bperson@dom.ain", nil),
            "msg_26.txt": ("IMAP file test", "father.time@xcar.wooster.local", "Father Time"),
            "msg_32.txt": ("Re: Limiting Perl CPU Utilization...", "aperson@example.com", "Anne Person"),
            "msg_36.txt": ("I-D ACTION:draft-ietf-mboned-mix-00.txt", "Internet-Drafts@ietf.org", nil),
            "msg_41.txt": ("64423", "xxx@example.com", "Allison Dunlap"),
            "msg_45.txt": ("test", "foo@bar.baz", nil),
            "msg_46.txt": ("GroupwiseForwardingTest", "sender@example.net", "Sender"),
            "msg_18.txt": ("", nil, nil),
        ]
        for (file, facts) in expected.sorted(by: { $0.key < $1.key }) {
            let m = try parse(file)
            XCTAssertEqual(m.subject, facts.subject, file)
            XCTAssertEqual(m.from?.address, facts.address, file)
            XCTAssertEqual(m.from?.name, facts.name, file)
        }
    }

    func testTextAndEncodingsOfMsg10() throws {
        // 7bit, quoted-printable in ISO-8859-1 (=A1 is "¡"), base64: the first text/plain part is the text.
        let m = try parse("msg_10.txt")
        XCTAssertEqual(m.text, "This is a 7bit encoded message.\n")
        XCTAssertEqual(m.problems, [])
    }

    func testForwardedMessagesInTheCorpusAreOpened() throws {
        // msg_06: the whole message is a message/rfc822 forward (VM); the inner one is "testing".
        let vm = try parse("msg_06.txt")
        XCTAssertEqual(vm.subject, "forwarded message from Barry A. Warsaw")
        XCTAssertEqual(vm.attachments.first?.contentType, "message/rfc822")
        XCTAssertEqual(vm.attachments.first?.message?.subject, "testing")
        XCTAssertEqual(vm.attachments.first?.message?.from?.address, "barry@python.org")

        let enclosing = try parse("msg_11.txt")
        XCTAssertEqual(enclosing.subject, "The enclosing message")
        XCTAssertEqual(enclosing.attachments.first?.message?.subject, "An enclosed message")
        XCTAssertEqual(enclosing.attachments.first?.message?.text, "Here is the body of the message.\n")

        // msg_46: a Groupwise forward: outer "Sender", inner "Dr. Sender" in ISO-8859-15.
        let groupwise = try parse("msg_46.txt")
        let inner = try XCTUnwrap(groupwise.attachments.first?.message)
        XCTAssertEqual(inner.from, MailAddress(name: "Dr. Sender", address: "sender@example.net"))
        XCTAssertEqual(inner.subject, "GroupwiseForwardingTest")
        XCTAssertEqual(inner.date?.rfc3339, "2010-02-01T12:18:40+01:00")
        XCTAssertTrue(inner.text.hasPrefix("Testing email forwarding with Groupwise 1.2.2010"), inner.text)
    }

    func testAttachmentsOfMsg07() throws {
        // A GIF attached as base64 next to the text.
        let m = try parse("msg_07.txt")
        XCTAssertEqual(m.attachments.map(\.contentType), ["image/gif"])
        XCTAssertEqual(m.attachments.first?.filename, "dingusfish.gif")
    }
}
