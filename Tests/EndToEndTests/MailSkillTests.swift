import Foundation
import XCTest

/// The mail skill, built from its own package (Plugins/MailSkill) the way an outside team ships a skill,
/// installed with `skillhost install` and called through the real host and worker on the sample mailbox.
/// `make test` builds the release .so and sets SKILLHOST_MAIL_SKILL; without it these tests fail.
final class MailSkillTests: EndToEndTestCase {
    let samples = E2E.packageRoot + "/Plugins/MailSkill/Samples"

    override func setUpWithError() throws {
        try super.setUpWithError()
        let so = ProcessInfo.processInfo.environment["SKILLHOST_MAIL_SKILL"] ?? ""
        guard !so.isEmpty else {
            XCTFail("SKILLHOST_MAIL_SKILL is not set: run these tests with `make test`, which builds Plugins/MailSkill "
                    + "(swift build -c release --package-path Plugins/MailSkill) and points SKILLHOST_MAIL_SKILL at libMailSkill.so")
            throw HarnessError("SKILLHOST_MAIL_SKILL not set")
        }
        guard FileManager.default.fileExists(atPath: so) else {
            XCTFail("SKILLHOST_MAIL_SKILL=\(so) does not exist: run `make mail-skill` (or `make test`)")
            throw HarnessError("missing \(so)")
        }
        // Consent as a script gives it: what the skill asks for, plus the sample mailboxes the calls name.
        let r = skillhost("install", so, "--json", "--grant", "all", "--grant", "read=\(E2E.packageRoot)/Plugins/MailSkill/Samples")
        XCTAssertEqual(r.exitCode, 0, "skillhost install of the mail skill: \(r.summary)")
    }

    /// `invoke INTENT --input JSON --json` → the result object, checked for ok and the skill id.
    func result(_ intent: String, _ input: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = invoke(intent, input)
        return try XCTUnwrap(try assertInvokeOK(r, skill: "dev.skillhost.mail", file: file, line: line) as? [String: Any],
                             r.summary, file: file, line: line)
    }

    func labels(_ result: [String: Any]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for m in result["messages"] as? [[String: Any]] ?? [] {
            out[m["id"] as? String ?? "?"] = m["labels"] as? [String]
        }
        return out
    }

    func testListedWithVersionCategoryAndBothIntents() throws {
        let list = skillhost("list", "--json")
        XCTAssertEqual(list.exitCode, 0, list.summary)
        let skill = try XCTUnwrap(try list.listedSkills().first("id", "dev.skillhost.mail"), list.summary)
        XCTAssertEqual(skill["version"] as? String, "1.0.0")
        XCTAssertEqual(skill["category"] as? String, "communication")
        XCTAssertEqual(skill["isolation"] as? String, "process")
        let intents = (skill["intents"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertEqual(intents, ["mail.triage", "mail.todos"])
    }

    func testTriageLabelsEveryMaildirSample() throws {
        let r = try result("mail.triage", #"{"path":"\#(samples)/Maildir"}"#)
        XCTAssertEqual(labels(r), [
            "inv-2026-1142@acme-hosting.example": ["invoice"],
            "q1-planning-2026.invite@example.com": ["meeting"],
            "issue-312.ada@swiftweekly.example": ["newsletter"],
            "5f2c9a01.anna@example.org": ["personal"],
            "20261126102000.4711@example.cn": ["meeting"],
            "bill-202611-88012345@cloud.example.cn": ["invoice"],
            "a81c7d2e-li.na@example.cn": ["personal"],
            "CAF-renee-20261126@example.fr": ["personal"],
        ])
        XCTAssertEqual(r["counts"] as? [String: Int], ["invoice": 2, "meeting": 2, "newsletter": 1, "personal": 3, "unread": 3])
        let messages = r["messages"] as? [[String: Any]] ?? []
        let zh = try XCTUnwrap(messages.first("id", "20261126102000.4711@example.cn"))
        XCTAssertEqual(zh["subject"] as? String, "会议邀请：2027年产品规划评审", "GB2312 encoded words decoded")
        XCTAssertEqual((zh["event"] as? [String: Any])?["start"] as? String, "2026-12-01T14:00:00+08:00")
        XCTAssertEqual(zh["seen"] as? Bool, false)
    }

    func testTriageOfTheMboxWithChineseLocaleFromConfig() throws {
        try writeConfig(#"{"locale":"zh-CN","skills":{"dev.skillhost.mail":{"mailbox":"\#(samples)/archive.mbox"}},"grants":{"dev.skillhost.mail":{"read":["{config:mailbox}"]}}}"#)
        let r = try result("mail.triage", "{}")
        XCTAssertEqual(r["format"] as? String, "mbox")
        XCTAssertEqual(labels(r), [
            "agenda-reply.anna@example.org": ["personal"], "bf-2026@deals.example": ["newsletter"],
            "archive.mbox#3": ["invoice"], "contract.wang.lei@example.cn": ["personal"],
        ])
        XCTAssertEqual(r["message"] as? String, "共 4 封邮件：发票 1 封，订阅邮件 1 封，私人邮件 2 封；未读 1 封。")
    }

    func testToDosWithDueDays() throws {
        let r = try result("mail.todos", #"{"path":"\#(samples)/Maildir","unreadOnly":true}"#)
        let todos = (r["todos"] as? [[String: Any]] ?? []).map { "\($0["due"] as? String ?? "-") \($0["kind"] as? String ?? "") \($0["text"] as? String ?? "")" }
        XCTAssertEqual(todos, [
            "2026-11-27 request Could you please send me the slides by Friday?",
            "2026-11-30 deadline 请在周一之前确认是否参加，并准备好各自团队的需求清单。",
            "2026-12-01 invitation Reply to invitation: 2027年产品规划评审 (2026-12-01 14:00, 北京办公室 3号会议室)",
            "2026-12-04 deadline Also, the deadline for the conference talk proposal is December 4 — don't forget to submit yours.",
            "2026-12-10 payment Pay invoice INV-2026-1142 (EUR 240.00, due 2026-12-10)",
        ])
    }

    func testMissingOrWrongPathNamesIt() throws {
        let missing = work + "/no/such/Maildir"
        try assertInvokeError(invoke("mail.triage", #"{"path":"\#(missing)"}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["\"path\"", missing])
        try assertInvokeError(invoke("mail.todos", #"{"path":"\#(samples)/make-samples.py"}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["make-samples.py", "not a Maildir nor an mbox"])
        try assertInvokeError(invoke("mail.triage", "{}"), kind: "unavailable", exitCode: 12, messageContains: ["\"mailbox\""])
        try assertInvokeError(invoke("mail.triage", #"{"path":"\#(samples)/Maildir","limit":0}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["limit"])
    }

    func testUnreadableMessagesAreSkippedAndCounted() throws {
        let box = work + "/Maildir"
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: box + "/" + sub, withIntermediateDirectories: true) }
        let sample = try FileManager.default.contentsOfDirectory(atPath: samples + "/Maildir/new").sorted()[0]
        try copy(samples + "/Maildir/new/" + sample, into: box + "/new", as: sample)
        try Data().write(to: URL(fileURLWithPath: box + "/cur/empty:2,S"))
        try Data("no header here\n\njust bytes".utf8).write(to: URL(fileURLWithPath: box + "/cur/garbage:2,S"))
        try writeConfig(#"{"grants":{"dev.skillhost.mail":{"read":["\#(box)"]}}}"#)  // the sandbox: this mailbox is granted
        let r = try result("mail.triage", #"{"path":"\#(box)"}"#)
        XCTAssertEqual((r["messages"] as? [Any])?.count, 1)
        let skipped = (r["skipped"] as? [[String: Any]] ?? []).map { "\($0["source"] as? String ?? ""): \($0["reason"] as? String ?? "")" }
        XCTAssertEqual(skipped.count, 2, "\(skipped)")
        XCTAssertTrue(skipped.contains("cur/empty:2,S: empty file"), "\(skipped)")
        XCTAssertTrue((r["message"] as? String ?? "").contains("2 skipped"), "\(r)")
    }

    /// The agent engine chains the mail skill into the calendar: the meeting invitations `mail.triage`
    /// finds feed a `calendar.events.list` for those days (a step that depends on another), by the chain
    /// rule the mail skill declares (`feeds` on mail.triage; the engine names no intent, the config none).
    func testAskAboutTheInboxChecksTheCalendarForTheInvitations() throws {
        try addBundledSkill("libCalendarSkill.so")
        _ = try writeConfig(#"{"timeZone":"Europe/Warsaw","skills":{"dev.skillhost.mail":{"mailbox":"\#(samples)/Maildir"},"dev.skillhost.calendar":{"calendars":["\#(E2E.packageRoot)/Plugins/CalendarSkill/Samples"]}},"grants":{"dev.skillhost.mail":{"read":["{config:mailbox}"]},"dev.skillhost.calendar":{"read":["{config:calendars}"]}}}"#)
        let r = skillhost(["ask", "what's in my inbox?", "--now", "2026-11-30T08:00:00+01:00", "--json"], timeout: 60)
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let o = try r.jsonObject()
        let steps = o["steps"] as? [[String: Any]] ?? []
        XCTAssertEqual(steps.compactMap { $0["intent"] as? String }, ["mail.triage", "calendar.events.list"])
        let plan = (o["plan"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
        XCTAssertEqual(plan.last?["dependsOn"] as? [Int], [1])
        let input = steps.last?["input"] as? [String: Any]
        XCTAssertEqual(input?["from"] as? String, "2026-12-01", "the earliest invitation")
        XCTAssertEqual(input?["to"] as? String, "2026-12-02", "the latest invitation")
        XCTAssertGreaterThanOrEqual(steps.last?["startMs"] as? Double ?? 0, steps.first?["endMs"] as? Double ?? .infinity,
                                    "the calendar step starts after the mail step it depends on")
        XCTAssertTrue((o["answer"] as? String ?? "").contains("2 meeting invitations"), o["answer"] as? String ?? "")
    }
}
