import Foundation
import XCTest

/// Mail from real clients through the real host and a sandboxed worker: raw GBK/Big5 headers decoded by
/// the charset guess (iconv's gconv modules must be readable inside the sandbox), forwarded messages
/// opened, and an mbox with quoted `From ` lines and CRLF line ends read by both mail intents.
/// Uses the release libMailSkill.so that `make test` builds (SKILLHOST_MAIL_SKILL).
final class MailRealClientTests: EndToEndTestCase {
    let mailFixtures = E2E.packageRoot + "/Plugins/MailSkill/Tests/Fixtures"
    var mail = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        let so = ProcessInfo.processInfo.environment["SKILLHOST_MAIL_SKILL"] ?? ""
        guard !so.isEmpty, FileManager.default.fileExists(atPath: so) else {
            XCTFail("SKILLHOST_MAIL_SKILL is not set or missing (\(so)): run these tests with `make test`")
            throw HarnessError("SKILLHOST_MAIL_SKILL not usable")
        }
        mail = work + "/mail"
        for d in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: mail + "/Maildir/" + d, withIntermediateDirectories: true) }
        for (n, name) in ["raw-gbk.eml", "raw-big5.eml", "forwarded.eml"].enumerated() {
            try FileManager.default.copyItem(atPath: mailFixtures + "/" + name, toPath: mail + "/Maildir/new/17956\(n)0000.M\(n)P1.fixture")
        }
        // An mbox as a POSIX mailer writes it: CRLF lines, a quoted ">From " body line, no final newline.
        let mbox = "From ada@example.com Tue Nov 24 09:00:00 2026\r\nFrom: Ada <ada@example.com>\r\nSubject: first\r\n"
            + "Message-ID: <m1@example.com>\r\nDate: Tue, 24 Nov 2026 09:00:00 +0100\r\n\r\nPlease send the report by Friday.\r\n"
            + ">From the desk of Ada\r\n\r\nFrom bob@example.org Tue Nov 24 10:00:00 2026\r\nFrom: Bob <bob@example.org>\r\n"
            + "Subject: second\r\nMessage-ID: <m2@example.org>\r\nDate: Tue, 24 Nov 2026 10:00:00 +0100\r\n\r\nLunch?"
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: mail + "/inbox.mbox"))
        let r = skillhost("install", so, "--json", "--grant", "all", "--grant", "read=\(mail)")
        XCTAssertEqual(r.exitCode, 0, "skillhost install of the mail skill: \(r.summary)")
    }

    func triage(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(try assertInvokeOK(invoke("mail.triage", #"{"path":"\#(path)"}"#), skill: "dev.skillhost.mail", file: file, line: line)
                      as? [String: Any], file: file, line: line)
    }

    func testRawChineseHeadersAreGuessedInsideTheSandbox() throws {
        let list = try skillhost("list", "--json").jsonArray()
        XCTAssertEqual(list.first("id", "dev.skillhost.mail")?["sandbox"] as? String, "full")
        let r = try triage(mail + "/Maildir")
        let messages = r["messages"] as? [[String: Any]] ?? []
        let gbk = try XCTUnwrap(messages.first("id", "raw-gbk.eml@fixtures.example"), "\(messages)")
        XCTAssertEqual(gbk["subject"] as? String, "关于下周项目会议的通知")
        XCTAssertEqual(gbk["from"] as? String, "张伟 <zhang.wei@example.cn>")
        XCTAssertEqual(gbk["problems"] as? [String], ["From: raw 8-bit bytes read as GB18030 (guessed)",
                                                      "Subject: raw 8-bit bytes read as GB18030 (guessed)",
                                                      "text/plain part: 8-bit bytes without a charset label read as GB18030 (guessed)"])
        let big5 = try XCTUnwrap(messages.first("id", "raw-big5.eml@fixtures.example"))
        XCTAssertEqual(big5["subject"] as? String, "請確認本週的會議時間")
        XCTAssertEqual(big5["from"] as? String, "陳美玲 <chen.meiling@example.tw>")
    }

    func testForwardedMessagesAreShownInTheAttachments() throws {
        let r = try triage(mail + "/Maildir")
        let fwd = try XCTUnwrap((r["messages"] as? [[String: Any]] ?? []).first("id", "fwd-fwd@example.org"))
        let attachment = try XCTUnwrap((fwd["attachments"] as? [[String: Any]])?.first)
        XCTAssertEqual(attachment["type"] as? String, "message/rfc822")
        let middle = try XCTUnwrap(attachment["message"] as? [String: Any], "\(attachment)")
        XCTAssertEqual(middle["subject"] as? String, "Fwd: 预算草案")
        XCTAssertEqual(middle["from"] as? String, "Zhang Wei <zhang.wei@example.cn>")
        XCTAssertEqual(middle["date"] as? String, "2026-11-23T18:00:00+08:00")
        let inner = try XCTUnwrap((middle["attachments"] as? [[String: Any]])?.first?["message"] as? [String: Any])
        XCTAssertEqual(inner["subject"] as? String, "预算草案")
        XCTAssertEqual(inner["text"] as? String, "Budget draft attached in the shared folder. 请审阅。")
    }

    func testBothIntentsReadACRLFMboxWithQuotedFromLines() throws {
        let r = try triage(mail + "/inbox.mbox")
        XCTAssertEqual(r["format"] as? String, "mbox")
        let subjects = (r["messages"] as? [[String: Any]] ?? []).compactMap { $0["subject"] as? String }
        XCTAssertEqual(subjects, ["second", "first"])
        let todos = try XCTUnwrap(try assertInvokeOK(invoke("mail.todos", #"{"path":"\#(mail)/inbox.mbox"}"#), skill: "dev.skillhost.mail") as? [String: Any])
        let texts = (todos["todos"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        XCTAssertTrue(texts.contains { $0.contains("send the report") }, "\(todos)")
    }
}
