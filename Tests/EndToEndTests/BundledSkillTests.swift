import Foundation
import XCTest

/// The bundled Swift skills (built by SwiftPM into the bin directory), loaded by the real host through
/// the C ABI, next to the C echo fixture. `make test` builds them first; a missing one fails the test.
final class BundledSkillTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try addSkill("echo_c.so")
    }

    /// Adds a bundled skill and checks it registers (any refusal is a failure).
    func addRegisteredBundledSkill(_ name: String, id: String) throws {
        let path = try addBundledSkill(name)
        let list = try listAll()
        if let r = list.refused.first("file", path) {
            XCTFail("\(name) was refused: \(r)")
            throw HarnessError("refused")
        }
        XCTAssertNotNil(list.skills.first("id", id), "\(name) should register as \(id): \(list.result.summary)")
        XCTAssertEqual(list.skills.first("id", id)?["isolation"] as? String, "process", "not trusted: runs in a worker process")
    }

    // MARK: - Echo (Swift)

    func testSwiftEchoSayAnswers() throws {
        try addRegisteredBundledSkill("libEchoSkill.so", id: "dev.skillhost.echo")
        let r = invoke("echo.say", #"{"text":"hi","repeat":2}"#)
        let result = try assertInvokeOK(r, skill: "dev.skillhost.echo")
        XCTAssertEqual(result as? [String: String], ["text": "hi hi"])
        try assertEchoStillServes()
    }

    func testSwiftEchoFailKindsMapToErrorKindsAndExitCodes() throws {
        try addRegisteredBundledSkill("libEchoSkill.so", id: "dev.skillhost.echo")
        let cases: [(kind: String, expected: String, exit: Int32)] = [
            ("invalid_input", "invalid_input", 10),
            ("unavailable", "unavailable", 12),
            ("failed", "internal", 19),
        ]
        for c in cases {
            let message = "echo failure of kind \(c.kind)"
            let r = invoke("echo.fail", #"{"kind":"\#(c.kind)","message":"\#(message)"}"#)
            let e = try assertInvokeError(r, kind: c.expected, exitCode: c.exit, messageContains: [message])
            XCTAssertEqual(e["skill"] as? String, "dev.skillhost.echo", r.summary)
        }
        try assertEchoStillServes()
    }

    func testSwiftSkillThrowingAPlainErrorIsInternalWithItsMessage() throws {
        try addRegisteredBundledSkill("libEchoSkill.so", id: "dev.skillhost.echo")
        let r = invoke("echo.fail", #"{"kind":"throw","message":"a plain Swift error, thrown"}"#)
        try assertInvokeError(r, kind: "internal", exitCode: 19, messageContains: ["a plain Swift error, thrown"])
        try assertEchoStillServes()
    }

    func testSwiftFatalErrorKillsOnlyTheWorkerAndIsCrashedWithItsMessage() throws {
        try addRegisteredBundledSkill("libEchoSkill.so", id: "dev.skillhost.echo")
        let r = invoke("echo.fail", #"{"kind":"fatal","message":"invariant broken on purpose"}"#)
        let e = try assertInvokeError(r, kind: "crashed", exitCode: 14, messageContains: ["killed by SIG"])
        XCTAssertTrue((e["message"] as? String ?? "").contains("invariant broken on purpose"),
                      "the crash message carries what the Swift runtime printed: \(e)")
        assertNoWorkersLeft()
        let again = invoke("echo.say", #"{"text":"back"}"#)
        XCTAssertEqual(try assertInvokeOK(again, skill: "dev.skillhost.echo") as? [String: String], ["text": "back"])
        try assertEchoStillServes()
    }

    func testSwiftEchoRepeatOutOfRangeIsInvalidInput() throws {
        try addRegisteredBundledSkill("libEchoSkill.so", id: "dev.skillhost.echo")
        try assertInvokeError(invoke("echo.say", #"{"text":"hi","repeat":11}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["\"repeat\""])
    }

    // MARK: - Reminders

    func testReminderCreatedInOneProcessIsListedByALaterOne() throws {
        try addRegisteredBundledSkill("libReminderSkill.so", id: "dev.skillhost.reminders")
        let created = invoke("reminder.create", #"{"title":"Buy oat milk","due":"2026-12-01T09:00:00+01:00"}"#)
        let reminder = try XCTUnwrap(try assertInvokeOK(created, skill: "dev.skillhost.reminders") as? [String: Any])
        XCTAssertEqual(reminder["title"] as? String, "Buy oat milk")
        let id = try XCTUnwrap(reminder["id"] as? String, created.summary)

        let listed = invoke("reminder.list", "{}")
        let result = try XCTUnwrap(try assertInvokeOK(listed, skill: "dev.skillhost.reminders") as? [String: Any])
        let reminders = try XCTUnwrap(result["reminders"] as? [[String: Any]], listed.summary)
        let found = try XCTUnwrap(reminders.first("id", id), "the reminder persists across processes: \(listed.summary)")
        XCTAssertEqual(found["title"] as? String, "Buy oat milk")
        XCTAssertEqual(found["completed"] as? Bool, false)
        // Kept in the test's XDG data folder, not the user's.
        let dataDir = home + "/.local/share/skillhost/dev.skillhost.reminders"
        XCTAssertFalse((try? FileManager.default.contentsOfDirectory(atPath: dataDir))?.isEmpty ?? true,
                       "reminders live under $XDG_DATA_HOME/skillhost/<skill id>")
    }

    func testReminderCreateWithoutTitleIsInvalidInputNamingTitle() throws {
        try addRegisteredBundledSkill("libReminderSkill.so", id: "dev.skillhost.reminders")
        try assertInvokeError(invoke("reminder.create", #"{"due":"2026-12-01T09:00:00+01:00"}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["\"title\""])
    }

    func testReminderCreateWithBlankTitleIsInvalidInput() throws {
        try addRegisteredBundledSkill("libReminderSkill.so", id: "dev.skillhost.reminders")
        try assertInvokeError(invoke("reminder.create", #"{"title":"   "}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["title"])
    }

    func testHealthReportsUnusableReminderStoreAndListShowsIt() throws {
        try addRegisteredBundledSkill("libReminderSkill.so", id: "dev.skillhost.reminders")
        // The skill's default data folder ($XDG_DATA_HOME/skillhost/<id>) is a regular file: the store
        // cannot be created there (not even by root).
        let dataRoot = home + "/.local/share/skillhost"
        try FileManager.default.createDirectory(atPath: dataRoot, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dataRoot + "/dev.skillhost.reminders"))

        let health = skillhost("health", "--json")
        XCTAssertEqual(health.exitCode, 1, "a skill that is not ok makes health exit 1: \(health.summary)")
        let entries = try health.listed("skills")
        let reminders = try XCTUnwrap(entries.first("id", "dev.skillhost.reminders"), health.summary)
        XCTAssertEqual(reminders["health"] as? String, "unavailable", health.summary)
        XCTAssertFalse((reminders["message"] as? String ?? "").isEmpty, health.summary)
        XCTAssertEqual(entries.first("id", "test.fixture.echo")?["health"] as? String, "ok", health.summary)

        let list = skillhost("list", "--json")
        XCTAssertEqual(list.exitCode, 0, list.summary)
        let skills = try list.listedSkills()
        XCTAssertEqual(skills.first("id", "dev.skillhost.reminders")?["health"] as? String, "unavailable",
                       "list shows the recorded probe: \(list.summary)")
        XCTAssertEqual(skills.first("id", "test.fixture.echo")?["health"] as? String, "ok", list.summary)
        try assertEchoStillServes()
    }

    /// The probe must check what calls will use: with the store configured in an unusable place, calls
    /// fail `unavailable`, so health must not say "ok".
    func testHealthProbeChecksTheStoreTheSkillIsConfiguredWith() throws {
        try addRegisteredBundledSkill("libReminderSkill.so", id: "dev.skillhost.reminders")
        let blocker = work + "/not-a-folder"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let config = work + "/config.json"
        try Data(#"{"skills":{"dev.skillhost.reminders":{"store":"\#(blocker)/reminders.jsonl"}}}"#.utf8)
            .write(to: URL(fileURLWithPath: config))

        // Calls see the configured store and fail.
        try assertInvokeError(invoke("reminder.list", "{}", ["--config", config]), kind: "unavailable", exitCode: 12,
                              messageContains: [blocker])
        // So must the probe.
        let health = skillhost("health", "--json", "--config", config)
        XCTAssertEqual(health.exitCode, 1, health.summary)
        XCTAssertEqual(try health.listed("skills").first("id", "dev.skillhost.reminders")?["health"] as? String, "unavailable", health.summary)
    }

    // MARK: - Calendar

    var samples: String { E2E.packageRoot + "/Plugins/CalendarSkill/Samples" }

    func writeCalendarConfig() throws -> String {
        let config = work + "/calendar-config.json"
        let text = #"{"skills":{"dev.skillhost.calendar":{"calendars":["\#(samples)"]}},"timeZone":"Europe/Warsaw","locale":"en-US","grants":{"dev.skillhost.calendar":{"read":["{config:calendars}"]}}}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        return config
    }

    func testCalendarEventsListReadsTheSampleCalendarsForOneDay() throws {
        try addRegisteredBundledSkill("libCalendarSkill.so", id: "dev.skillhost.calendar")
        let config = try writeCalendarConfig()
        let r = invoke("calendar.events.list", #"{"from":"2026-11-30","to":"2026-11-30"}"#, ["--config", config])
        let result = try XCTUnwrap(try assertInvokeOK(r, skill: "dev.skillhost.calendar") as? [String: Any])
        let events = try XCTUnwrap(result["events"] as? [[String: Any]], r.summary)
        let summaries = Set(events.compactMap { $0["summary"] as? String })
        // From Samples/work.ics and Samples/personal.ics: events on Monday 2026-11-30.
        for expected in ["Design review: calendar skill", "1:1 with Anna", "Standup", "项目周会", "妈妈生日 (Mom's birthday)"] {
            XCTAssertTrue(summaries.contains(expected), "\"\(expected)\" missing from \(summaries.sorted())")
        }
        XCTAssertFalse(summaries.contains("Dentist"), "Dentist is on 2026-12-01: \(summaries.sorted())")
    }

    func testCalendarWithFromAfterToIsInvalidInput() throws {
        try addRegisteredBundledSkill("libCalendarSkill.so", id: "dev.skillhost.calendar")
        let config = try writeCalendarConfig()
        try assertInvokeError(invoke("calendar.events.list", #"{"from":"2026-12-02","to":"2026-11-30"}"#, ["--config", config]),
                              kind: "invalid_input", exitCode: 10, messageContains: ["from"])
    }
}
