import Foundation
import SkillKit
import Synchronization
import XCTest
@testable import ReminderSkill

final class ReminderStoreTests: XCTestCase {
    private var directory = ""
    private let utc = TimeZone(secondsFromGMT: 0)!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "reminder-store-tests-" + UUID().uuidString.lowercased()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func date(_ text: String) -> Date { SkillDates.parseInstant(text)! }

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    // MARK: Store

    func testCreateListCompleteAndRestart() throws {
        let path = directory + "/nested/dir/reminders.jsonl"   // the directories do not exist yet
        let store = ReminderStore(path: path)
        let now = date("2025-03-01T09:00:00Z")
        let late = try store.create(title: "Late", due: "2025-03-05T09:00:00+08:00", notes: nil, now: now, timeZone: utc)
        let undated = try store.create(title: "Undated", due: nil, notes: "whenever", now: now, timeZone: utc)
        let soon = try store.create(title: "Soon", due: "2025-03-02T00:00:00Z", notes: nil, now: now.addingTimeInterval(1), timeZone: utc)
        let undated2 = try store.create(title: "Undated 2", due: nil, notes: nil, now: now.addingTimeInterval(-5), timeZone: utc)

        XCTAssertEqual(late.createdAt, "2025-03-01T09:00:00Z")
        XCTAssertFalse(late.completed)
        XCTAssertEqual(undated.notes, "whenever")
        XCTAssertNotNil(late.id.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", options: .regularExpression))
        XCTAssertEqual(Set([late.id, undated.id, soon.id, undated2.id]).count, 4)

        // Sorted by due (none last), then createdAt.
        XCTAssertEqual(try store.list(includeCompleted: false).map(\.title), ["Soon", "Late", "Undated 2", "Undated"])

        let done = try store.complete(id: soon.id, now: now.addingTimeInterval(60), timeZone: utc)
        XCTAssertTrue(done.completed)
        XCTAssertEqual(done.completedAt, "2025-03-01T09:01:00Z")
        let again = try store.complete(id: soon.id, now: now.addingTimeInterval(120), timeZone: utc)
        XCTAssertEqual(again, done, "completing twice changes nothing")
        XCTAssertEqual(try lines(path).filter { $0.contains(#""op":"complete""#) }.count, 1)

        XCTAssertThrowsError(try store.complete(id: "no-such-id", now: now, timeZone: utc)) { error in
            XCTAssertEqual(error as? ReminderStoreError, .notFound(id: "no-such-id"))
        }

        // A new instance (a restarted process) folds the same log to the same state.
        let reopened = ReminderStore(path: path)
        XCTAssertEqual(try reopened.list(includeCompleted: false).map(\.title), ["Late", "Undated 2", "Undated"])
        XCTAssertEqual(try reopened.list(includeCompleted: true).map(\.title), ["Soon", "Late", "Undated 2", "Undated"])
        XCTAssertEqual(try reopened.all().first { $0.id == soon.id }, done)
    }

    func testListOfAMissingStoreIsEmpty() throws {
        XCTAssertEqual(try ReminderStore(path: directory + "/absent.jsonl").list(includeCompleted: true), [])
    }

    func testConcurrentWritersWithSeparateDescriptorsLoseNothing() throws {
        let path = directory + "/reminders.jsonl"
        let writers = 2, perWriter = 200
        let errors = Mutex<[String]>([])
        let group = DispatchGroup()
        for writer in 0..<writers {
            let thread = Thread {
                let store = ReminderStore(path: path)   // every append opens its own descriptor
                for i in 0..<perWriter {
                    do {
                        _ = try store.create(title: "w\(writer)-\(i)", due: nil, notes: String(repeating: "x", count: 300),
                                             now: Date(), timeZone: TimeZone(secondsFromGMT: 0)!)
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                }
                group.leave()
            }
            group.enter()
            thread.start()
        }
        // A reader running at the same time must never see a torn line.
        var readerWarnings: [String] = []
        let reader = ReminderStore(path: path)
        while group.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
            _ = try? reader.all(warn: { readerWarnings.append($0) })
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        XCTAssertEqual(readerWarnings, [])
        var warnings: [String] = []
        let all = try reader.all(warn: { warnings.append($0) })
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(all.count, writers * perWriter)
        XCTAssertEqual(Set(all.map(\.title)).count, writers * perWriter)
        XCTAssertEqual(Set(all.map(\.id)).count, writers * perWriter)
        XCTAssertEqual(try lines(path).count, writers * perWriter)
    }

    func testCorruptLinesAreSkippedWithTheirLineNumbers() throws {
        let path = directory + "/reminders.jsonl"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = """
        {"createdAt":"2025-03-01T09:00:00Z","id":"a","op":"create","title":"First"}
        this is not json
        {"createdAt":"2025-03-01T09:00:00Z","id":"b","op":"cre
        {"id":"zzz","op":"complete","at":"2025-03-01T10:00:00Z"}
        {"createdAt":"2025-03-01T09:00:01Z","id":"c","op":"create","title":"Second"}
        {"id":"a","op":"explode"}

        """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var warnings: [String] = []
        let all = try ReminderStore(path: path).all(warn: { warnings.append($0) })
        XCTAssertEqual(all.map(\.title), ["First", "Second"])
        XCTAssertEqual(warnings.count, 4)
        for (warning, line) in zip(warnings, [2, 3, 4, 6]) {
            XCTAssertTrue(warning.contains(path), warning)
            XCTAssertTrue(warning.contains("line \(line):"), warning)
        }
    }

    func testAppendAfterATornLastLineKeepsTheNewLineWhole() throws {
        let path = directory + "/reminders.jsonl"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try #"{"createdAt":"2025-03-01T09:00:00Z","id":"a","op":"create","title":"Fir"#.write(toFile: path, atomically: true, encoding: .utf8)
        let store = ReminderStore(path: path)
        let created = try store.create(title: "After the tear", due: nil, notes: nil, now: Date(), timeZone: utc)
        var warnings: [String] = []
        XCTAssertEqual(try store.all(warn: { warnings.append($0) }), [created])
        XCTAssertEqual(warnings.count, 1)
    }

    // MARK: Through the skill

    private func context(store: String) -> SkillContext {
        SkillContext(configJSON: Array(#"{"store":"\#(store)"}"#.utf8), dataDirectory: directory,
                     timeZone: TimeZone(identifier: "Asia/Shanghai")!, now: date("2025-03-01T01:30:00Z"))
    }

    private func run(_ intent: String, _ json: String, store: String) async throws -> [String: Any] {
        let result = try await RemindersSkill().execute(input: SkillInput(intent: intent, json: json), context: context(store: store))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.json)) as? [String: Any])
    }

    private func invalidInputMessage(_ intent: String, _ json: String, store: String) async -> String? {
        do {
            _ = try await run(intent, json, store: store)
            return nil
        } catch let SkillError.invalidInput(message) {
            return message
        } catch {
            return "unexpected \(error)"
        }
    }

    func testSkillIntents() async throws {
        let store = directory + "/skill.jsonl"
        let created = try await run("reminder.create", #"{"title":"Call mom","due":"2025-03-02T09:00:00+08:00"}"#, store: store)
        XCTAssertEqual(created["title"] as? String, "Call mom")
        XCTAssertEqual(created["due"] as? String, "2025-03-02T09:00:00+08:00")
        XCTAssertEqual(created["createdAt"] as? String, "2025-03-01T09:30:00+08:00")
        XCTAssertEqual(created["completed"] as? Bool, false)
        XCTAssertNil(created["notes"])
        let id = try XCTUnwrap(created["id"] as? String)

        let listed = try await run("reminder.list", "{}", store: store)
        XCTAssertEqual((listed["reminders"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, [id])
        let completed = try await run("reminder.complete", #"{"id":"\#(id)"}"#, store: store)
        XCTAssertEqual(completed["completed"] as? Bool, true)
        let open = try await run("reminder.list", "{}", store: store)
        XCTAssertEqual((open["reminders"] as? [Any])?.count, 0)
        let everything = try await run("reminder.list", #"{"includeCompleted":true}"#, store: store)
        XCTAssertEqual((everything["reminders"] as? [Any])?.count, 1)

        let blank = await invalidInputMessage("reminder.create", #"{"title":"  "}"#, store: store)
        XCTAssertEqual(blank, #"field "title" must not be blank"#)
        let badDue = await invalidInputMessage("reminder.create", #"{"title":"x","due":"tomorrow 9am"}"#, store: store)
        XCTAssertTrue(badDue?.hasPrefix(#"field "due": expected an RFC 3339 date-time"#) ?? false, badDue ?? "nil")
        let unknown = await invalidInputMessage("reminder.complete", #"{"id":"nope"}"#, store: store)
        XCTAssertEqual(unknown, #"field "id": no reminder with id "nope""#)
    }

    func testDefaultStoreIsInTheDataDirectory() async throws {
        let context = SkillContext(dataDirectory: directory + "/data")
        _ = try await RemindersSkill().execute(input: SkillInput(intent: "reminder.create", json: #"{"title":"x"}"#), context: context)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/data/reminders.jsonl"))
    }

    func testHealth() async throws {
        let ok = await RemindersSkill().healthCheck(context: context(store: directory + "/h/reminders.jsonl"))
        XCTAssertEqual(ok.status, .ok)
        // A regular file where the store's directory should be.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/blocker", contents: Data()))
        let bad = await RemindersSkill().healthCheck(context: context(store: directory + "/blocker/sub/reminders.jsonl"))
        XCTAssertEqual(bad.status, .unavailable)
        XCTAssertTrue(bad.message.contains(directory + "/blocker"), bad.message)
    }
}
