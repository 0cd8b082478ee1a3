import Foundation
import SkillKit
import XCTest
@testable import MailCore
@testable import MailSkill

/// The skill through SkillKit: input and config handling, errors, locales, manifest.
final class SkillTests: XCTestCase {
    func run(_ intent: String, _ json: String, config: String = "{}", locale: String = "en") async throws -> [String: Any] {
        let context = SkillContext(configJSON: Array(config.utf8), dataDirectory: NSTemporaryDirectory(), locale: locale,
                                   timeZone: Fixtures.warsaw)
        let result = try await MailSkill().execute(input: SkillInput(intent: intent, json: json), context: context)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.json)) as? [String: Any])
        XCTAssertEqual(object["message"] as? String, result.message)
        return object
    }

    func error(_ intent: String, _ json: String, config: String = "{}") async -> SkillError? {
        do {
            _ = try await run(intent, json, config: config)
            return nil
        } catch {
            return error as? SkillError
        }
    }

    func testTriageResultShape() async throws {
        let r = try await run("mail.triage", #"{"path":"\#(Fixtures.maildir)"}"#)
        XCTAssertEqual(r["format"] as? String, "maildir")
        XCTAssertEqual(r["counts"] as? [String: Int], ["invoice": 2, "meeting": 2, "newsletter": 1, "personal": 3, "unread": 3])
        XCTAssertEqual(r["message"] as? String, "8 messages: 2 invoices, 2 meeting invitations, 1 newsletter, 3 personal messages; 3 unread.")
        let messages = try XCTUnwrap(r["messages"] as? [[String: Any]])
        let invite = try XCTUnwrap(messages.first { $0["id"] as? String == "q1-planning-2026.invite@example.com" })
        XCTAssertEqual(invite["event"] as? [String: String], ["summary": "Q1 planning", "start": "2026-12-02T10:00:00+01:00",
                                                              "end": "2026-12-02T11:30:00+01:00", "location": "Room Wisła, 3rd floor"])
        XCTAssertEqual(invite["date"] as? String, "2026-11-24T16:12:00+01:00")
    }

    func testChineseLocaleMessages() async throws {
        let triage = try await run("mail.triage", #"{"path":"\#(Fixtures.maildir)","limit":5}"#, locale: "zh-CN")
        XCTAssertEqual(triage["message"] as? String, "共 5 封邮件（最新的 5 封，共 8 封）：发票 2 封，会议邀请 1 封，私人邮件 2 封；未读 3 封。")
        let todos = try await run("mail.todos", #"{"path":"\#(Fixtures.mbox)"}"#, locale: "zh-CN")
        XCTAssertEqual(todos["message"] as? String, "从 4 封邮件中找到 2 项待办；最早截止（2026-11-25）：明天下午三点之前请把合同发给我。")
    }

    func testToDosAreSortedByDue() async throws {
        let r = try await run("mail.todos", #"{"path":"\#(Fixtures.maildir)"}"#)
        let todos = try XCTUnwrap(r["todos"] as? [[String: Any]])
        XCTAssertEqual(r["count"] as? Int, 11)
        let dues = todos.compactMap { $0["due"] as? String }
        XCTAssertEqual(dues, dues.sorted())
        XCTAssertEqual((todos.last?["source"] as? [String: Any])?["id"] as? String, "inv-2026-1142@acme-hosting.example")
    }

    func testMailboxFromConfigAndHowToConfigureIt() async throws {
        let r = try await run("mail.triage", #"{"unreadOnly":true}"#, config: #"{"mailbox":"\#(Fixtures.mbox)"}"#)
        XCTAssertEqual(r["mailbox"] as? String, Fixtures.mbox)
        XCTAssertEqual((r["messages"] as? [Any])?.count, 1)
        let missing = await error("mail.triage", "{}")
        XCTAssertEqual(missing?.kind, "unavailable")
        XCTAssertTrue(missing?.message.contains("\"path\"") == true && missing?.message.contains("\"mailbox\"") == true, "\(String(describing: missing))")
        let badConfig = await error("mail.todos", "{}", config: #"{"mailbox":"/nonexistent/Maildir"}"#)
        XCTAssertEqual(badConfig?.kind, "unavailable")
        XCTAssertTrue(badConfig?.message.contains("/nonexistent/Maildir") == true, "\(String(describing: badConfig))")
    }

    func testBadInputNamesTheField() async {
        let missing = await error("mail.triage", #"{"path":"/nonexistent/Mail"}"#)
        XCTAssertEqual(missing?.kind, "invalid_input")
        XCTAssertTrue(missing?.message.hasPrefix("field \"path\": \"/nonexistent/Mail\" does not exist") == true, "\(String(describing: missing))")
        let notMailbox = await error("mail.triage", #"{"path":"\#(Fixtures.packageRoot)/Package.swift"}"#)
        XCTAssertEqual(notMailbox?.kind, "invalid_input")
        XCTAssertTrue(notMailbox?.message.contains("not a Maildir nor an mbox") == true, "\(String(describing: notMailbox))")
        let since = await error("mail.triage", #"{"path":"\#(Fixtures.mbox)","since":"last week"}"#)
        XCTAssertEqual(since?.message, "field \"since\": expected a date YYYY-MM-DD or an RFC 3339 date-time, found \"last week\"")
        let limit = await error("mail.todos", #"{"path":"\#(Fixtures.mbox)","limit":0}"#)
        XCTAssertTrue(limit?.message.contains("\"limit\"") == true)
        let type = await error("mail.todos", #"{"path":42}"#)
        XCTAssertTrue(type?.message.contains("\"path\"") == true, "\(String(describing: type))")
    }

    func testSinceAcceptsADayOrAnInstant() async throws {
        let day = try await run("mail.triage", #"{"path":"\#(Fixtures.maildir)","since":"2026-11-26"}"#)
        XCTAssertEqual(day["matched"] as? Int, 4)
        let instant = try await run("mail.triage", #"{"path":"\#(Fixtures.maildir)","since":"2026-11-26T12:00:00+01:00"}"#)
        XCTAssertEqual(instant["matched"] as? Int, 2)
    }

    func testManifest() throws {
        let skill = MailSkill()
        XCTAssertEqual(skill.category, "communication")
        XCTAssertEqual(skill.supportedIntents.map(\.name), ["mail.triage", "mail.todos"])
        for intent in skill.supportedIntents {
            XCTAssertEqual(Set(intent.keywords.keys), ["en", "zh"])
            for schema in [intent.inputSchema, intent.outputSchema ?? ""] {
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(schema.utf8)), "\(intent.name): \(schema.prefix(80))")
            }
            for example in intent.examples {
                let input = try XCTUnwrap(example.input)
                XCTAssertNoThrow(try SkillInput(intent: intent.name, json: input).decode(MailRequest.Input.self))
            }
        }
    }

    func testHealth() async {
        let none = await MailSkill().healthCheck(context: SkillContext(dataDirectory: "/tmp"))
        XCTAssertEqual(none.status, .ok)
        let good = await MailSkill().healthCheck(context: SkillContext(configJSON: Array(#"{"mailbox":"\#(Fixtures.maildir)"}"#.utf8), dataDirectory: "/tmp"))
        XCTAssertEqual(good.message, "maildir \(Fixtures.maildir): 8 messages")
        let bad = await MailSkill().healthCheck(context: SkillContext(configJSON: Array(#"{"mailbox":"/nope"}"#.utf8), dataDirectory: "/tmp"))
        XCTAssertEqual(bad.status, .unavailable)
    }
}
