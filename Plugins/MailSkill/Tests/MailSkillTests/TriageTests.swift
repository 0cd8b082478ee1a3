import XCTest
@testable import MailCore

/// The classifier, summaries, events and filters, against the committed sample mailbox.
final class TriageTests: XCTestCase {
    /// Message-ID → expected labels, for every sample message.
    static let maildirLabels: [String: [MailLabel]] = [
        "inv-2026-1142@acme-hosting.example": [.invoice],
        "q1-planning-2026.invite@example.com": [.meeting],
        "issue-312.ada@swiftweekly.example": [.newsletter],
        "5f2c9a01.anna@example.org": [.personal],
        "20261126102000.4711@example.cn": [.meeting],
        "bill-202611-88012345@cloud.example.cn": [.invoice],
        "a81c7d2e-li.na@example.cn": [.personal],
        "CAF-renee-20261126@example.fr": [.personal],
    ]

    func testEveryMaildirSampleGetsItsLabels() throws {
        let run = try Fixtures.triage(Fixtures.maildir)
        XCTAssertEqual(run.total, 8)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: run.messages.map { ($0.id, $0.labels) }), Self.maildirLabels)
        for m in run.messages { XCTAssertEqual(m.problems, [], "\(m.id): \(m.problems)") }
        let dates = run.messages.map { $0.date!.date }
        XCTAssertEqual(dates, dates.sorted(by: >), "newest first")
    }

    func testDecodedSubjectsAndSenders() throws {
        let run = try Fixtures.triage(Fixtures.maildir)
        let zhMeeting = try run.message("20261126102000.4711@example.cn")
        XCTAssertEqual(zhMeeting.message.subject, "会议邀请：2027年产品规划评审")
        XCTAssertEqual(zhMeeting.message.from?.display, "张伟 <zhang.wei@example.cn>")
        XCTAssertEqual(try run.message("bill-202611-88012345@cloud.example.cn").message.subject, "【电子发票】您的11月账单已出，请于12月5日前付款")
        XCTAssertEqual(try run.message("a81c7d2e-li.na@example.cn").message.subject, "关于第三季度销售报告")
        XCTAssertEqual(try run.message("CAF-renee-20261126@example.fr").message.subject, "Café tomorrow?")
        XCTAssertEqual(try run.message("CAF-renee-20261126@example.fr").message.from?.name, "Renée Dubois")
        XCTAssertEqual(try run.message("q1-planning-2026.invite@example.com").message.subject,
                       "Invitation: Q1 planning @ Wed Dec 2, 2026 10:00 - 11:30 (Europe/Warsaw)")
    }

    func testGBKBodyAndSummaries() throws {
        let run = try Fixtures.triage(Fixtures.maildir)
        let zh = try run.message("20261126102000.4711@example.cn")
        XCTAssertTrue(zh.message.text.contains("请在周一之前确认是否参加"), zh.message.text)
        XCTAssertEqual(zh.summary, "诚邀您参加2027年产品规划评审会议。 时间：12月1日（周二）14:00-15:30")
        XCTAssertEqual(try run.message("CAF-renee-20261126@example.fr").summary,
                       "are we still on for coffee tomorrow at 10? Please confirm by tonight.")
        let newsletter = try run.message("issue-312.ada@swiftweekly.example")
        XCTAssertTrue(newsletter.summary.hasPrefix("Swift Weekly — issue #312 Swift 6.3 is out"), newsletter.summary)
        XCTAssertLessThanOrEqual(newsletter.summary.count, ReadableText.maxSummary)
    }

    func testInvitationsCarryTheirEvents() throws {
        let run = try Fixtures.triage(Fixtures.maildir)
        let en = try XCTUnwrap(try run.message("q1-planning-2026.invite@example.com").invitation)
        XCTAssertEqual(en.method, "REQUEST")
        XCTAssertEqual(en.summary, "Q1 planning")
        XCTAssertEqual(en.start?.text, "2026-12-02T10:00:00+01:00")
        XCTAssertEqual(en.end?.text, "2026-12-02T11:30:00+01:00")
        XCTAssertEqual(en.location, "Room Wisła, 3rd floor")
        let zh = try XCTUnwrap(try run.message("20261126102000.4711@example.cn").invitation)
        XCTAssertEqual(zh.start?.text, "2026-12-01T14:00:00+08:00")
        XCTAssertEqual(zh.location, "北京办公室 3号会议室")
    }

    func testSeenAndAttachments() throws {
        let run = try Fixtures.triage(Fixtures.maildir)
        XCTAssertEqual(Set(run.messages.filter { !$0.seen }.map(\.id)),
                       ["inv-2026-1142@acme-hosting.example", "20261126102000.4711@example.cn", "5f2c9a01.anna@example.org"])
        XCTAssertEqual(try run.message("inv-2026-1142@acme-hosting.example").message.attachments.map(\.filename), ["invoice-INV-2026-1142.pdf"])
    }

    func testMboxSamples() throws {
        let run = try Fixtures.triage(Fixtures.mbox)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: run.messages.map { ($0.id, $0.labels) }), [
            "agenda-reply.anna@example.org": [.personal],
            "bf-2026@deals.example": [.newsletter],
            "archive.mbox#3": [.invoice],               // a receipt, no Message-ID
            "contract.wang.lei@example.cn": [.personal],
        ])
        XCTAssertEqual(run.messages.filter { !$0.seen }.map(\.id), ["contract.wang.lei@example.cn"], "Status: RO = seen")
        XCTAssertEqual(try run.message("contract.wang.lei@example.cn").message.subject, "合同的事")
        XCTAssertEqual(try run.message("contract.wang.lei@example.cn").summary, "明天下午三点之前请把合同发给我。")
        XCTAssertEqual(try run.message("bf-2026@deals.example").summary, "Black Friday: 40% off all plans Only this week & only for subscribers.")
    }

    func testFilters() throws {
        let warsaw = Fixtures.warsaw
        let unread = try Fixtures.triage(Fixtures.maildir, options: TriageOptions(limit: 50, unreadOnly: true, floatingZone: warsaw))
        XCTAssertEqual(unread.messages.count, 3)
        XCTAssertEqual(unread.matched, 3)
        let since = MailDate(rfc5322: "26 Nov 2026 00:00 +0100")!.date
        let recent = try Fixtures.triage(Fixtures.maildir, options: TriageOptions(since: since, limit: 2, floatingZone: warsaw))
        XCTAssertEqual(recent.matched, 4)
        XCTAssertEqual(recent.messages.map(\.id), ["bill-202611-88012345@cloud.example.cn", "CAF-renee-20261126@example.fr"])
        XCTAssertEqual(recent.total, 8)
    }

    func testClassifierRules() throws {
        func labels(_ text: String) throws -> [MailLabel] {
            let m = try Fixtures.message(text)
            return Classifier.labels(m, invitation: m.calendars.compactMap { Invitation(ics: $0, fallbackZone: Fixtures.warsaw) }.first)
        }
        XCTAssertEqual(try labels("From: bot@x.example\nPrecedence: list\n\nhi\n"), [.newsletter])
        XCTAssertEqual(try labels("From: no-reply@shop.example\nSubject: Your order shipped\n\nhi\n"), [], "a machine, not a person")
        XCTAssertEqual(try labels("From: anna@x.example\nAuto-Submitted: auto-replied\nSubject: Out of office\n\nhi\n"), [])
        XCTAssertEqual(try labels("From: anna@x.example\nSubject: lunch\n\nThe invoice for lunch was 20 USD.\n"), [.invoice], "body words + amount")
        XCTAssertEqual(try labels("From: anna@x.example\nSubject: lunch\n\nI lost the receipt.\n"), [.personal], "body words without an amount")
        XCTAssertEqual(try labels("From: a@x.example\nContent-Type: text/calendar; method=CANCEL\n\nBEGIN:VCALENDAR\nMETHOD:CANCEL\nBEGIN:VEVENT\nSUMMARY:Invitation: sync\nEND:VEVENT\nEND:VCALENDAR\n"),
                       [.personal], "a cancellation is not an invitation")
        XCTAssertEqual(try labels("From: li@x.example\nSubject: =?UTF-8?B?5LiL5ZGo5byA5Lya?=\n\n诚邀您参加下周的评审会。\n"), [.meeting])
        XCTAssertEqual(try labels("From: newsletter@x.example\nList-Id: <x>\nSubject: Invitation to our webinar\n\nx\n"), [.meeting, .newsletter])
    }

    func testAMalformedMessageInTheMaildirIsReadOrSkippedNeverACrash() throws {
        let broken = [
            "cur/1:2,S": "Subject: =?GBK?B?not base64!!?= =?x-unknown?Q?=FF=FE?=\nContent-Type: multipart/mixed; boundary=\"\"\nContent-Transfer-Encoding: base64\n\n%%%%\n",
            "cur/2:2,S": "From: <>\nDate: 99 Foo 2026 99:99\nContent-Type: text/calendar; charset=gbk\n\nBEGIN:VEVENT\nDTSTART;TZID=Mars/Olympus:20261301T250000\nEND:VEVENT\n",
            "cur/3:2,S": "Content-Type: multipart/alternative; boundary=x\n\n--x\n--x\n--x--\n",
            "cur/4:2,S": "Subject: \u{FFFD}\u{0}\n\n" + String(repeating: "=", count: 1000),
            "new/5": "Content-Type: text/plain; charset=utf-16\nContent-Transfer-Encoding: quoted-printable\n\n=FF=FEh=00i=00\n",
        ]
        let dir = try Fixtures.maildir(broken)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try MailTriage.run(path: dir, options: TriageOptions())
        XCTAssertEqual(run.total + run.skipped.count, broken.count)
        for m in run.messages { _ = ToDoExtractor.todos(m, language: .en) }
        let problems = try run.message("2").problems
        XCTAssertTrue(problems.contains { $0.contains("99 Foo") }, "\(problems)")
    }
    /// Every sample with bytes flipped, cut or duplicated at pseudo-random places (fixed seed): each
    /// mutant is read or skipped, and to-dos are extracted, without a crash.
    func testMutatedSamplesNeverCrash() throws {
        let box = try Mailbox.open(path: Fixtures.maildir)
        let originals = try box.messages.map { Array(try $0.load()) }
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(max(1, n)))
        }
        let interesting: [UInt8] = Array("=?\r\n-:;\"<>>From \u{0}\u{FF}".utf8)
        var read = 0
        for round in 0..<400 {
            var bytes = originals[round % originals.count]
            for _ in 0..<(1 + next(8)) {
                let i = next(bytes.count)
                switch next(4) {
                case 0: bytes[i] = interesting[next(interesting.count)]
                case 1: bytes.removeSubrange(i..<min(bytes.count, i + next(64)))
                case 2: bytes.insert(contentsOf: bytes[i..<min(bytes.count, i + next(64))], at: i)
                default: bytes[i] = UInt8(truncatingIfNeeded: next(256))
                }
                if bytes.isEmpty { bytes = [0x41] }
            }
            let stored = StoredMessage(source: "mutant", fallbackID: "m\(round)", seen: nil, delivered: nil, content: .bytes(bytes[...]))
            guard let m = try? MailTriage.triage(stored, options: TriageOptions(floatingZone: Fixtures.warsaw)) else { continue }
            _ = ToDoExtractor.todos(m, language: round % 2 == 0 ? .en : .zh)
            read += 1
        }
        XCTAssertGreaterThan(read, 300, "most mutants are still messages")
    }
}
