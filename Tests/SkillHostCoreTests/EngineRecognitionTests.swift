import XCTest
@testable import SkillHostCore

/// The engine's decision layer, deterministic: a fixed "now" (Monday 2026-11-30 08:00 in the process
/// zone) and a catalog built by hand from what the bundled skills declare.
final class EngineRecognitionTests: XCTestCase {
    let today = CivilDate(year: 2026, month: 11, day: 30)  // a Monday

    func day(_ offset: Int) -> String { today.adding(days: offset).description }

    func request(_ text: String) -> AgentRequest {
        AgentRequest(text: text, source: .script, caller: .automation, timeZone: "UTC",
                     now: ZoneRules.utc.instant(today, hour: 8, minute: 0))
    }

    static func entry(_ intent: String, _ skill: String, schema: String, keywords: [String: [String]], examples: [(String, String)] = [],
                      flags: IntentFlags = [.readOnly, .idempotent]) -> IntentCatalog.Entry {
        IntentCatalog.Entry(intent: intent, name: intent, skillID: skill, skillName: skill, description: intent, keywords: keywords,
                            examples: examples.map { IntentManifest.Example(lang: $0.0, text: $0.1, input: nil) },
                            inputSchema: try! JSON.parse(schema), flags: flags)
    }

    let catalog = IntentCatalog(entries: [
        entry("calendar.events.list", "Calendar",
              schema: #"{"type":"object","properties":{"from":{"type":"string","format":"date"},"to":{"type":"string","format":"date"}},"required":["from","to"]}"#,
              keywords: ["en": ["meeting", "meetings", "calendar", "schedule"], "zh": ["会议", "日程", "开会"]],
              examples: [("en", "What's on my calendar on November 30?"), ("zh", "11月30日有什么会议？")]),
        entry("calendar.events.summary", "Calendar",
              schema: #"{"type":"object","properties":{"from":{"type":"string","format":"date"},"to":{"type":"string","format":"date"}},"required":["from","to"]}"#,
              keywords: ["en": ["busy", "summary", "overview"], "zh": ["忙不忙", "总结"]]),
        entry("weather.forecast", "Weather",
              schema: #"{"type":"object","properties":{"place":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":16}}}"#,
              keywords: ["en": ["weather", "rain", "umbrella", "forecast"], "zh": ["天气", "下雨", "带伞", "雨"]],
              examples: [("en", "Do I need an umbrella at home tomorrow?"), ("zh", "明天要带伞吗？")], flags: [.readOnly, .idempotent, .openWorld]),
        entry("reminder.create", "Reminders",
              schema: #"{"type":"object","properties":{"title":{"type":"string","minLength":1},"due":{"type":"string","format":"date-time"}},"required":["title"]}"#,
              keywords: ["en": ["remind", "reminder", "todo"], "zh": ["提醒", "记得", "别忘了"]],
              // "Set a reminder…": an intent is asked for with the verbs its examples use (see ActionVerbs).
              examples: [("en", "Remind me to call mom tomorrow at 9am"), ("en", "Set a reminder to pay the bills on Friday"),
                         ("zh", "提醒我明天下午三点开会")], flags: []),
        entry("mail.triage", "Mail",
              schema: #"{"type":"object","properties":{"path":{"type":"string"}}}"#,
              keywords: ["en": ["mail", "email", "inbox", "invoice"], "zh": ["邮件", "收件箱", "发票"]]),
    ])

    func recognize(_ text: String, defaults: [String: JSONObject] = ["weather.forecast": JSONObject([("place", "home")])]) -> Recognition {
        KeywordRecognizer().recognize(request(text), catalog: catalog, defaults: defaults)
    }

    func only(_ r: Recognition, _ intent: String, file: StaticString = #filePath, line: UInt = #line) throws -> RecognizedIntent {
        try XCTUnwrap(r.intents.first { $0.intent == intent }, "\(intent) not in \(r.intents.map(\.intent))", file: file, line: line)
    }

    // MARK: - Time expressions

    func testTimeExpressionsInChineseAndEnglish() {
        func spec(_ s: String) -> TimeSpec? { TimeExpressions.find(in: s, today: today) }
        XCTAssertEqual(spec("今天有什么会")?.start, today)
        XCTAssertEqual(spec("明天")?.start, today.adding(days: 1))
        XCTAssertEqual(spec("后天")?.start, today.adding(days: 2))
        XCTAssertEqual(spec("这两天的天气").map { [$0.start, $0.end] }, [today, today.adding(days: 1)])
        XCTAssertEqual(spec("未来三天").map { [$0.start, $0.end] }, [today, today.adding(days: 2)])
        let friday = spec("周五下午3点")
        XCTAssertEqual(friday?.start, CivilDate(year: 2026, month: 12, day: 4))
        XCTAssertEqual(friday?.hour, 15)
        XCTAssertEqual(friday?.minute, 0)
        XCTAssertEqual(spec("下周一上午十点半").map { [$0.start.description, "\($0.hour!):\($0.minute!)"] }, ["2026-12-07", "10:30"])
        XCTAssertEqual(spec("12月3日")?.start, CivilDate(year: 2026, month: 12, day: 3))
        XCTAssertEqual(spec("what's on today")?.start, today)
        XCTAssertEqual(spec("will it rain tomorrow?")?.start, today.adding(days: 1))
        XCTAssertEqual(spec("the next two days").map { [$0.start, $0.end] }, [today, today.adding(days: 1)])
        XCTAssertEqual(spec("next 5 days")?.end, today.adding(days: 4))
        let en = spec("send it on Friday at 3pm")
        XCTAssertEqual(en?.start, CivilDate(year: 2026, month: 12, day: 4))
        XCTAssertEqual(en?.hour, 15)
        XCTAssertEqual(spec("at 9:45 am")?.hour, 9)
        XCTAssertEqual(spec("at 9:45 am")?.minute, 45)
        XCTAssertEqual(spec("December 1")?.start, CivilDate(year: 2026, month: 12, day: 1))
        XCTAssertEqual(spec("this weekend").map { [$0.start.description, $0.end.description] }, ["2026-12-05", "2026-12-06"])
        XCTAssertEqual(spec("Monday")?.start, today, "a weekday that is today means today")
        XCTAssertEqual(spec("next monday")?.start, today.adding(days: 7))
        XCTAssertNil(spec("book me a flight to Tokyo"))
    }

    func testCivilDateArithmetic() {
        XCTAssertEqual(CivilDate(year: 2026, month: 12, day: 31).adding(days: 1), CivilDate(year: 2027, month: 1, day: 1))
        XCTAssertEqual(CivilDate(year: 2028, month: 2, day: 28).adding(days: 1), CivilDate(year: 2028, month: 2, day: 29))
        XCTAssertEqual(today.weekday, 1)
        XCTAssertEqual(CivilDate("2026-12-06")?.weekday, 7)
        XCTAssertEqual(LocalClock.parseInstant("2026-11-30T08:00:00+08:00"), LocalClock.parseInstant("2026-11-30T00:00:00Z"))
        XCTAssertNil(LocalClock.parseInstant("2026-11-30 08:00"))
    }

    // MARK: - The sentences of the issue

    func testMeetingsTodayAndWeatherForTwoDaysInChinese() throws {
        let r = recognize("帮我看看今天有哪些会议要参加，顺便查一下这两天的天气，方便我决定要不要带伞")
        XCTAssertEqual(r.intents.map(\.intent), ["calendar.events.list", "weather.forecast"])
        let cal = try only(r, "calendar.events.list")
        XCTAssertEqual(JSON.object(cal.parameters), ["from": .string(day(0)), "to": .string(day(0))])
        let weather = try only(r, "weather.forecast")
        XCTAssertEqual(JSON.object(weather.parameters), ["days": 2, "place": "home"])
        XCTAssertEqual(Set(weather.matched), ["天气", "带伞"], "both clauses that ask about the weather are one intent")
        XCTAssertGreaterThanOrEqual(cal.confidence, 0.5)
        XCTAssertTrue(r.questions.isEmpty)
        let plan = Planner.plan(r, catalog: catalog)
        XCTAssertEqual(plan.steps.map(\.intent), ["calendar.events.list", "weather.forecast"])
        XCTAssertTrue(plan.steps.allSatisfy(\.dependsOn.isEmpty), "independent: they run in parallel")
    }

    func testMeetingsTomorrowAndRainInEnglishShareTheDay() throws {
        let r = recognize("what meetings do I have tomorrow, and will it rain?")
        XCTAssertEqual(r.intents.map(\.intent), ["calendar.events.list", "weather.forecast"])
        XCTAssertEqual(JSON.object(try only(r, "calendar.events.list").parameters), ["from": .string(day(1)), "to": .string(day(1))])
        XCTAssertEqual(try only(r, "weather.forecast").parameters["days"], 2, "will it rain — tomorrow, from the clause before")
    }

    func testReminderInChineseWithADayAndATitle() throws {
        let r = recognize("提醒我明天买牛奶")
        XCTAssertEqual(r.intents.map(\.intent), ["reminder.create"])
        let p = try only(r, "reminder.create").parameters
        XCTAssertEqual(p["title"], "买牛奶")
        XCTAssertEqual(p["due"]?.stringValue.flatMap(LocalClock.parseInstant), ZoneRules.utc.instant(today.adding(days: 1), hour: 9, minute: 0))
    }

    func testReminderInEnglishWithWeekdayAndTimeAndNoMailIntentForTheWordInvoice() throws {
        let r = recognize("remind me to send the invoice on Friday at 3pm")
        XCTAssertEqual(r.intents.map(\.intent), ["reminder.create"], "\"invoice\" is the reminder's subject, not a mail request")
        let p = try only(r, "reminder.create").parameters
        XCTAssertEqual(p["title"], "send the invoice")
        XCTAssertEqual(p["due"]?.stringValue.flatMap(LocalClock.parseInstant),
                       ZoneRules.utc.instant(CivilDate(year: 2026, month: 12, day: 4), hour: 15, minute: 0))
    }

    func testQuotedTitlesWin() throws {
        let r = recognize("提醒我周五下午3点“交周报”")
        XCTAssertEqual(try only(r, "reminder.create").parameters["title"], "交周报")
    }

    func testUnknownRequestsAreNotGuessed() {
        let r = recognize("book me a flight to Tokyo")
        XCTAssertTrue(r.intents.isEmpty, "\(r.intents.map(\.intent))")
        XCTAssertTrue(Planner.plan(r, catalog: catalog).steps.isEmpty)
        let answer = Synthesizer.answer(request("book me a flight to Tokyo"), recognition: r, records: [], catalog: catalog)
        XCTAssertEqual(answer.status, .notUnderstood)
        XCTAssertTrue(answer.text.hasPrefix("Sorry, I haven't learned that yet. Here is what I can do:"), answer.text)
        XCTAssertTrue(answer.text.contains("“Do I need an umbrella at home tomorrow?”"), answer.text)
    }

    func testAMissingRequiredParameterIsAQuestionNotAGuess() throws {
        let r = recognize("提醒我")
        let reminder = try only(r, "reminder.create")
        XCTAssertEqual(reminder.missing, ["title"])
        XCTAssertTrue(Planner.plan(r, catalog: catalog).steps.isEmpty, "nothing runs without the title")
        let answer = Synthesizer.answer(request("提醒我"), recognition: r, records: [], catalog: catalog)
        XCTAssertEqual(answer.status, .clarify)
        XCTAssertTrue(answer.text.contains("“title”"), answer.text)
    }

    func testASkillDroppedInLaterIsRecognizedFromItsOwnKeywords() throws {
        var extended = catalog
        extended.entries.append(Self.entry("units.convert", "Units",
                                           schema: #"{"type":"object","properties":{"value":{"type":"number"}}}"#,
                                           keywords: ["en": ["convert"], "zh": ["换算"]]))
        let r = KeywordRecognizer().recognize(request("帮我换算一下"), catalog: extended, defaults: [:])
        XCTAssertEqual(r.intents.map(\.intent), ["units.convert"])
    }

    // MARK: - Phases and replay

    func testPhasesNeverGoBackwardsOrArriveAfterFinished() async {
        let channel = PhaseChannel()
        let collected = Task { () -> [String] in
            var names: [String] = []
            for await e in channel.stream { names.append(e.phase.name) }
            return names
        }
        channel.emit(.understanding)
        channel.emit(.planning)
        channel.emit(.understanding)           // backwards: dropped
        channel.emit(.dispatching(intent: "a.b"))
        channel.emit(.executing(skill: "s", intent: "a.b", step: 1, total: 1, detail: nil))
        channel.emit(.dispatching(intent: "c.d"))  // same rank: fine (steps interleave)
        channel.emit(.collecting)
        channel.emit(.synthesizing)
        channel.emit(.finished)
        channel.emit(.failed(reason: "late"))  // after finished: dropped
        let names = await collected.value
        XCTAssertEqual(names, ["understanding", "planning", "dispatching", "executing", "dispatching", "collecting", "synthesizing", "finished"])
    }

    func testTraceDiffComparesOutcomesNotTimings() throws {
        let a = try JSON.parse(#"{"intents":[{"intent":"x.y","parameters":{"d":1}}],"steps":[{"intent":"x.y","input":{},"status":"ok","output":{"n":2},"startMs":1}],"answer":"A","status":"answered"}"#)
        let sameButSlower = try JSON.parse(#"{"intents":[{"intent":"x.y","parameters":{"d":1.0}}],"steps":[{"intent":"x.y","input":{},"status":"ok","output":{"n":2},"startMs":9}],"answer":"A","status":"answered"}"#)
        XCTAssertTrue(TraceDiff.differences(recorded: a, replayed: sameButSlower).isEmpty)
        let changed = try JSON.parse(#"{"intents":[{"intent":"x.y","parameters":{"d":1}}],"steps":[{"intent":"x.y","input":{},"status":"ok","output":{"n":3}}],"answer":"B","status":"answered"}"#)
        XCTAssertEqual(TraceDiff.differences(recorded: a, replayed: changed).map(\.path), ["steps[0].output.n", "answer"])
    }
}
