import XCTest
@testable import MailCore

/// Due-day phrases and the to-do extractor, against the sample mailbox.
final class ToDoTests: XCTestCase {
    /// Wednesday 2026-11-25.
    let wednesday = CivilDay(year: 2026, month: 11, day: 25)!

    func due(_ sentence: String, _ reference: CivilDay? = nil) -> String? {
        DatePhrases.due(in: sentence, reference: reference ?? wednesday)?.description
    }

    func testEnglishPhrases() {
        XCTAssertEqual(due("send me the slides by Friday?"), "2026-11-27")
        XCTAssertEqual(due("see you on Wednesday"), "2026-12-02", "a plain weekday is the next one after the day of the mail")
        XCTAssertEqual(due("this Monday was fun"), "2026-11-23")
        XCTAssertEqual(due("before next Tuesday"), "2026-12-01")
        XCTAssertEqual(due("tomorrow, please"), "2026-11-26")
        XCTAssertEqual(due("the day after tomorrow"), "2026-11-27")
        XCTAssertEqual(due("Please confirm by tonight."), "2026-11-25")
        XCTAssertEqual(due("the deadline is December 4"), "2026-12-04")
        XCTAssertEqual(due("Due date: 10 December 2026"), "2026-12-10")
        XCTAssertEqual(due("due Jan 5"), "2027-01-05", "a day long past means next year")
        XCTAssertEqual(due("by 2026-12-24"), "2026-12-24")
        XCTAssertEqual(due("by the end of the week"), "2026-11-27")
        XCTAssertEqual(due("by end of month"), "2026-11-30")
        XCTAssertNil(due("no date at all, 10.5 and may be later"))
        XCTAssertNil(due("on February 30"))
    }

    func testChinesePhrases() {
        XCTAssertEqual(due("请在周五之前把报告发给我"), "2026-11-27")
        XCTAssertEqual(due("明天下班前"), "2026-11-26")
        XCTAssertEqual(due("后天"), "2026-11-27")
        XCTAssertEqual(due("大后天"), "2026-11-28")
        XCTAssertEqual(due("下周一开会"), "2026-11-30")
        XCTAssertEqual(due("下星期三"), "2026-12-02")
        XCTAssertEqual(due("本周日"), "2026-11-29")
        XCTAssertEqual(due("礼拜天"), "2026-11-29")
        XCTAssertEqual(due("请于12月5日前付款"), "2026-12-05")
        XCTAssertEqual(due("2027年1月3号"), "2027-01-03")
        XCTAssertEqual(due("月底之前"), "2026-11-30")
    }

    func testADeadlineMarkedDayWinsOverAnEarlierOne() {
        XCTAssertEqual(due("我要在下周一的会上用，请在周五之前发给我"), "2026-11-27")
        XCTAssertEqual(due("Tomorrow I travel, so send it by Monday"), "2026-11-30")
        XCTAssertEqual(due("Tomorrow and Friday"), "2026-11-26", "no marker: the first")
    }

    func testToDosOfTheMaildirSamples() throws {
        let run = try Fixtures.triage(Fixtures.maildir)
        var todos: [String: [ToDo]] = [:]
        for m in run.messages { todos[m.id] = ToDoExtractor.todos(m, language: .en) }
        func d(_ s: String) -> CivilDay { CivilDay(year: 2026, month: Int(s.prefix(2))!, day: Int(s.suffix(2))!)! }
        XCTAssertEqual(todos["inv-2026-1142@acme-hosting.example"],
                       [ToDo(text: "Pay invoice INV-2026-1142 (EUR 240.00, due 2026-12-10)", kind: .payment, due: d("12-10"))])
        XCTAssertEqual(todos["bill-202611-88012345@cloud.example.cn"],
                       [ToDo(text: "Pay invoice CN-88012345 (¥1,280.00, due 2026-12-05)", kind: .payment, due: d("12-05"))])
        XCTAssertEqual(todos["q1-planning-2026.invite@example.com"], [
            ToDo(text: "Reply to invitation: Q1 planning (2026-12-02 10:00, Room Wisła, 3rd floor)", kind: .invitation, due: d("12-02")),
            ToDo(text: "Please bring your team's estimates.", kind: .request, due: d("12-02")),
        ])
        XCTAssertEqual(todos["20261126102000.4711@example.cn"], [
            ToDo(text: "Reply to invitation: 2027年产品规划评审 (2026-12-01 14:00, 北京办公室 3号会议室)", kind: .invitation, due: d("12-01")),
            ToDo(text: "请在周一之前确认是否参加，并准备好各自团队的需求清单。", kind: .deadline, due: d("11-30")),
        ])
        XCTAssertEqual(todos["5f2c9a01.anna@example.org"], [
            ToDo(text: "Could you please send me the slides by Friday?", kind: .request, due: d("11-27")),
            ToDo(text: "Also, the deadline for the conference talk proposal is December 4 — don't forget to submit yours.", kind: .deadline, due: d("12-04")),
        ])
        XCTAssertEqual(todos["a81c7d2e-li.na@example.cn"], [
            ToDo(text: "请在周五之前把第三季度的销售报告发给我，我要在下周一的会上用。", kind: .deadline, due: d("11-27")),
            ToDo(text: "明天下班前记得把合同扫描件发给财务。", kind: .request, due: d("11-26")),
        ])
        XCTAssertEqual(todos["CAF-renee-20261126@example.fr"], [ToDo(text: "Please confirm by tonight.", kind: .request, due: d("11-26"))])
        XCTAssertEqual(todos["issue-312.ada@swiftweekly.example"], [], "a newsletter's \"Please share\" is not a to-do")
    }

    func testToDosOfTheMboxSamplesAndChineseTexts() throws {
        let run = try Fixtures.triage(Fixtures.mbox)
        let todos = run.messages.flatMap { ToDoExtractor.todos($0, language: .zh) }
        XCTAssertEqual(todos, [
            ToDo(text: "明天下午三点之前请把合同发给我。", kind: .deadline, due: CivilDay(year: 2026, month: 11, day: 25)),
            ToDo(text: "Please book the big room by Thursday.", kind: .request, due: CivilDay(year: 2026, month: 11, day: 26)),
        ], "the receipt (already paid) gives no payment to-do")
        let zhInvoice = try Fixtures.triage(Fixtures.maildir).message("bill-202611-88012345@cloud.example.cn")
        XCTAssertEqual(ToDoExtractor.todos(zhInvoice, language: .zh).map(\.text), ["支付发票 CN-88012345（¥1,280.00，截止 2026-12-05）"])
    }

    func testRequestDetection() {
        for yes in ["Please review the draft.", "Send me the file", "Can you call Anna?", "麻烦把表格填一下", "务必周五前提交", "别忘了带电脑"] {
            XCTAssertTrue(ToDoExtractor.isRequest(yes), yes)
        }
        for no in ["Thanks for the great session today!", "Are we still on for coffee?", "诚邀您参加会议。", "会议邀请", "他请假了"] {
            XCTAssertFalse(ToDoExtractor.isRequest(no), no)
        }
    }
}
