import XCTest
@testable import MailCore

/// RFC 5322 headers and dates, MIME structure, iCalendar invitations.
final class MIMETests: XCTestCase {
    // MARK: Headers

    func testUnfoldingKeepsTheBlankAndNamesAreCaseInsensitive() throws {
        let m = try Fixtures.message("SUBJECT: Invitation: Q1 planning\n (Europe/Warsaw)\nfrom: a@b.example\n\nbody\n", crlf: true)
        XCTAssertEqual(m.subject, "Invitation: Q1 planning (Europe/Warsaw)")
        XCTAssertEqual(m.from?.address, "a@b.example")
        XCTAssertEqual(m.text, "body\n")
    }

    func testAnMboxEnvelopeLineBeforeTheHeadersIsSkipped() throws {
        let m = try Fixtures.message("From someone@example.com Mon Nov 23 09:02:11 2026\nSubject: hi\n\ntext\n")
        XCTAssertEqual(m.subject, "hi")
        XCTAssertTrue(m.problems.isEmpty, "\(m.problems)")
    }

    func testALineThatIsNotAFieldEndsTheHeadersAndIsReported() throws {
        let m = try Fixtures.message("Subject: no blank line\nthis is already the body\nsecond line\n")
        XCTAssertEqual(m.subject, "no blank line")
        XCTAssertEqual(m.text, "this is already the body\nsecond line\n")
        XCTAssertEqual(m.problems.count, 1)
    }

    func testNotAMessage() {
        XCTAssertThrowsError(try Fixtures.message("")) { XCTAssertEqual($0 as? MailMessage.ParseError, .empty) }
        XCTAssertThrowsError(try Fixtures.message(" \n\n")) { XCTAssertEqual($0 as? MailMessage.ParseError, .empty) }
        XCTAssertThrowsError(try Fixtures.message("just some text without any header\n\nmore")) {
            XCTAssertEqual($0 as? MailMessage.ParseError, .noHeaders)
        }
        XCTAssertThrowsError(try MailMessage.parse([0x00, 0xFF, 0xFE, 0x10, 0x0A])) {
            XCTAssertEqual($0 as? MailMessage.ParseError, .noHeaders)
        }
    }

    func testAddresses() {
        XCTAssertEqual(MailAddress(header: #""Nowak, Marta" <Marta.Nowak@EXAMPLE.com>, b@c.example"#),
                       MailAddress(name: "Nowak, Marta", address: "Marta.Nowak@example.com"))
        XCTAssertEqual(MailAddress(header: "=?GB2312?B?1cXOsA==?= <zhang.wei@example.cn>"),
                       MailAddress(name: "张伟", address: "zhang.wei@example.cn"))
        XCTAssertEqual(MailAddress(header: "anna@example.org (Anna K)"), MailAddress(name: "Anna K", address: "anna@example.org"))
        XCTAssertEqual(MailAddress(header: "<x@y.example>")?.display, "x@y.example")
        XCTAssertNil(MailAddress(header: "  "))
    }

    // MARK: Dates

    func testRFC5322Dates() {
        XCTAssertEqual(MailDate(rfc5322: "Thu, 26 Nov 2026 10:20:00 +0800")?.rfc3339, "2026-11-26T10:20:00+08:00")
        XCTAssertEqual(MailDate(rfc5322: "26 Nov 2026 10:20 -0330 (NST)")?.rfc3339, "2026-11-26T10:20:00-03:30")
        XCTAssertEqual(MailDate(rfc5322: "Mon, 23 Nov 26 07:30:00 GMT")?.rfc3339, "2026-11-23T07:30:00Z")
        XCTAssertEqual(MailDate(rfc5322: "Tue, 24 Nov 2026 06:00:00 EST")?.rfc3339, "2026-11-24T06:00:00-05:00")
        XCTAssertEqual(MailDate(rfc5322: "Wed, 25 Nov 2026 21:05:00 +0800")?.day.description, "2026-11-25")
        XCTAssertNil(MailDate(rfc5322: "Thu, 31 Nov 2026 10:00:00 +0000"))
        XCTAssertNil(MailDate(rfc5322: "yesterday"))
        XCTAssertNil(MailDate(rfc5322: "26 Nov 2026 25:00 +0000"))
        XCTAssertNil(MailDate(rfc5322: "1 Jan 9223372036854775807 00:00 +0000"), "a year that would overflow")
        XCTAssertNil(MailDate(asctime: "x Mon Nov 23 09:02:11 99999999999"))
        XCTAssertEqual(MailDate(asctime: "anna@example.org Mon Nov 23 09:02:11 2026")?.rfc3339, "2026-11-23T09:02:11Z")
    }

    func testAnUnparseableDateIsAProblemNotAFailure() throws {
        let m = try Fixtures.message("Subject: x\nDate: someday soon\n\nbody\n")
        XCTAssertNil(m.date)
        XCTAssertTrue(m.problems.contains { $0.contains("someday soon") }, "\(m.problems)")
    }

    // MARK: MIME

    func testNestedMultipartWithTransportPaddingAndRFC2231FileName() throws {
        let m = try Fixtures.message("""
        Subject: nested
        Content-Type: multipart/mixed; boundary="outer"

        preamble, ignored
        --outer\t
        Content-Type: multipart/alternative; boundary=inner

        --inner
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: quoted-printable

        Hello =E4=BD=A0=E5=A5=BD
        --inner
        Content-Type: text/html

        <p>Hello</p>
        --inner--
        --outer
        Content-Type: application/pdf
        Content-Disposition: attachment; filename*=UTF-8''%E5%8F%91%E7%A5%A8.pdf
        Content-Transfer-Encoding: base64

        JVBERi0xLjQK
        --outer--
        epilogue, ignored
        """, crlf: true)
        XCTAssertEqual(m.root.contentType, "multipart/mixed")
        XCTAssertEqual(m.root.children.map(\.contentType), ["multipart/alternative", "application/pdf"])
        XCTAssertEqual(m.root.children[0].children.map(\.contentType), ["text/plain", "text/html"])
        XCTAssertEqual(m.text, "Hello 你好")
        XCTAssertEqual(m.attachments, [MailMessage.Attachment(filename: "发票.pdf", contentType: "application/pdf", size: 9)])
        XCTAssertTrue(m.problems.isEmpty, "\(m.problems)")
    }

    func testRFC2231ContinuationsAndQuotedSemicolons() {
        let p = HeaderParameters(#"attachment; filename*0="long name; "; filename*1="part two.pdf"; size=12"#)
        XCTAssertEqual(p.value, "attachment")
        XCTAssertEqual(p["filename"], "long name; part two.pdf")
        XCTAssertEqual(p["SIZE"], "12")
    }

    func testMissingClosingBoundaryKeepsTheLastPart() throws {
        let m = try Fixtures.message("Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nonly part\n")
        XCTAssertEqual(m.text, "only part\n")
        XCTAssertTrue(m.problems.contains { $0.contains("closing boundary") }, "\(m.problems)")
    }

    func testMultipartWithoutBoundaryOrDelimiterIsReadAsText() throws {
        let a = try Fixtures.message("Content-Type: multipart/mixed\n\njust text\n")
        XCTAssertEqual(a.text, "just text\n")
        XCTAssertEqual(a.problems.count, 1)
        let b = try Fixtures.message("Content-Type: multipart/mixed; boundary=zzz\n\nno delimiter here\n")
        XCTAssertEqual(b.text, "no delimiter here\n")
        XCTAssertTrue(b.problems.contains { $0.contains("zzz") }, "\(b.problems)")
    }

    func testDeepNestingStopsAtTheLimit() throws {
        var text = "Subject: deep\n"
        for n in 0..<40 { text += "Content-Type: multipart/mixed; boundary=b\(n)\n\n--b\(n)\n" }
        text += "Content-Type: text/plain\n\ncore\n"
        let m = try Fixtures.message(text)
        XCTAssertTrue(m.problems.contains { $0.contains("nested deeper") }, "\(m.problems)")
    }

    func testHTMLOnlyBodyBecomesText() throws {
        let m = try Fixtures.message("Content-Type: text/html; charset=utf-8\n\n<html><head><style>p{}</style></head><body><p>Tom &amp; Jerry&#39;s</p><p>second&nbsp;line.</p></body></html>\n")
        XCTAssertEqual(ReadableText.lines(m.text), ["Tom & Jerry's", "second line."])
        XCTAssertEqual(HTMLText.plain("a <b>bold</b> < unclosed"), "a bold < unclosed")
    }

    func testUnknownCharsetInABodyIsReportedPerMessage() throws {
        let m = try Fixtures.message("Subject: x\nContent-Type: text/plain; charset=x-klingon\n\nQapla'\n")
        XCTAssertEqual(m.text, "Qapla'\n")
        XCTAssertTrue(m.problems.contains { $0.contains("x-klingon") }, "\(m.problems)")
    }

    // MARK: iCalendar

    func testInvitationWithTZIDUTCAndAllDayForms() throws {
        func invite(_ start: String, _ end: String) -> Invitation? {
            Invitation(ics: "BEGIN:VCALENDAR\r\nMETHOD:request\r\nBEGIN:VEVENT\r\nSUMMARY:Review\\, part 2\r\nLOCATION:Room\r\n  A\r\n\(start)\r\n\(end)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
                       fallbackZone: Fixtures.warsaw)
        }
        let tz = try XCTUnwrap(invite("DTSTART;TZID=Asia/Shanghai:20261201T140000", "DTEND;TZID=\"Asia/Shanghai\":20261201T153000"))
        XCTAssertEqual(tz.method, "REQUEST")
        XCTAssertEqual(tz.summary, "Review, part 2")
        XCTAssertEqual(tz.location, "Room A")
        XCTAssertEqual(tz.start?.text, "2026-12-01T14:00:00+08:00")
        XCTAssertEqual(tz.end?.text, "2026-12-01T15:30:00+08:00")
        let utc = try XCTUnwrap(invite("DTSTART:20261202T090000Z", "DTEND:20261202T100000Z"))
        XCTAssertEqual(utc.start?.text, "2026-12-02T09:00:00Z")
        let allDay = try XCTUnwrap(invite("DTSTART;VALUE=DATE:20261203", "DTEND;VALUE=DATE:20261204"))
        XCTAssertEqual(allDay.start, .allDay(CivilDay(year: 2026, month: 12, day: 3)!))
        let floating = try XCTUnwrap(invite("DTSTART:20260701T100000", "DTEND:20260701T110000"))
        XCTAssertEqual(floating.start?.text, "2026-07-01T10:00:00+02:00", "floating: the fallback zone, with its summer offset")
        XCTAssertTrue(tz.problems.isEmpty && utc.problems.isEmpty)
    }

    func testNonIANATimeZoneUsesTheVTIMEZONEStandardOffset() throws {
        let ics = """
        BEGIN:VCALENDAR
        BEGIN:VTIMEZONE
        TZID:China Standard Time
        BEGIN:STANDARD
        DTSTART:16010101T000000
        TZOFFSETFROM:+0800
        TZOFFSETTO:+0800
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        DTSTART;TZID=China Standard Time:20261201T140000
        DTEND;TZID=Nowhere/Special:20261201T150000
        SUMMARY:Outlook
        END:VEVENT
        END:VCALENDAR
        """
        let i = try XCTUnwrap(Invitation(ics: ics, fallbackZone: Fixtures.warsaw))
        XCTAssertNil(i.method)
        XCTAssertEqual(i.start?.text, "2026-12-01T14:00:00+08:00")
        XCTAssertEqual(i.end?.text, "2026-12-01T15:00:00+01:00")
        XCTAssertEqual(i.problems.count, 2, "\(i.problems)")
    }

    func testCalendarWithoutEventOrWithBadDates() {
        XCTAssertNil(Invitation(ics: "BEGIN:VCALENDAR\nMETHOD:REQUEST\nEND:VCALENDAR\n", fallbackZone: Fixtures.warsaw))
        let bad = Invitation(ics: "BEGIN:VEVENT\nDTSTART:2026-12-01\nEND:VEVENT\n", fallbackZone: Fixtures.warsaw)
        XCTAssertNil(bad?.start)
        XCTAssertEqual(bad?.problems.count, 1)
    }
}
