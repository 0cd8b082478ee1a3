import Foundation
import XCTest

/// `skillhost ask`, `traces` and `replay` through the real binaries, deterministic: "now" is Monday
/// 2026-11-30 08:00 in Asia/Shanghai; calendars come from the calendar skill's samples, the forecast
/// from a loopback server serving the weather skill's sample (or from nowhere, to see a partial answer).
final class AskTests: EndToEndTestCase {
    static let now = "2026-11-30T08:00:00+08:00"
    var forecastServer: Process?

    override func tearDownWithError() throws {
        forecastServer?.terminate()
        forecastServer?.waitUntilExit()
        try super.tearDownWithError()
    }

    /// Serves Plugins/WeatherSkill/Samples on a free loopback port; returns the base URL.
    func startForecastServer() throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = "import http.server,functools,sys\n"
            + "h=functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])\n"
            + "s=http.server.ThreadingHTTPServer(('127.0.0.1',0),h)\nprint(s.server_address[1],flush=True)\ns.serve_forever()\n"
        p.arguments = ["python3", "-c", script, E2E.packageRoot + "/Plugins/WeatherSkill/Samples"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        forecastServer = p
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let port = try XCTUnwrap(Int(String(decoding: line, as: UTF8.self)), "the forecast server did not start")
        return "http://127.0.0.1:\(port)"
    }

    /// Installs calendar, weather and reminders (plus `extra` fixtures) and writes the config.
    @discardableResult
    func setUpSkills(weather baseURL: String = "http://127.0.0.1:1", extra: [String] = [], sleepMs: Int = 300) throws -> String {
        for s in ["libCalendarSkill.so", "libWeatherSkill.so", "libReminderSkill.so"] { try addBundledSkill(s) }
        for f in extra { try addSkill(f) }
        let calendars = E2E.packageRoot + "/Plugins/CalendarSkill/Samples"
        let config = work + "/config.json"
        try Data("""
        {"timeZone":"Asia/Shanghai",
         "skills":{"dev.skillhost.calendar":{"calendars":["\(calendars)"]},
                   "dev.skillhost.weather":{"baseURL":"\(baseURL)","places":{"home":{"latitude":31.23,"longitude":121.47}},"timeoutMs":2000},
                   "test.fixture.alpha":{"sleepMs":\(sleepMs)},"test.fixture.beta":{"sleepMs":\(sleepMs)}},
         "agent":{"defaults":{"weather.forecast":{"place":"home"}}},
         "grants":{"dev.skillhost.calendar":{"read":["{config:calendars}"]},"dev.skillhost.weather":{"network":["{config:baseURL}"]}}}
        """.utf8).write(to: URL(fileURLWithPath: config))
        extraEnvironment["SKILLHOST_CONFIG"] = config
        return config
    }

    func ask(_ text: String, json: Bool = true, _ extra: [String] = []) -> CommandResult {
        skillhost(["ask", text, "--now", Self.now] + (json ? ["--json"] : []) + extra, timeout: 60)
    }

    func response(_ r: CommandResult, exitCode: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        XCTAssertEqual(r.exitCode, exitCode, r.summary, file: file, line: line)
        return try r.jsonObject(file: file, line: line)
    }

    func steps(_ o: [String: Any]) -> [[String: Any]] { o["steps"] as? [[String: Any]] ?? [] }

    func intents(_ o: [String: Any]) -> [String: [String: Any]] {
        Dictionary((o["intents"] as? [[String: Any]] ?? []).map { ($0["intent"] as? String ?? "?", $0["parameters"] as? [String: Any] ?? [:]) },
                   uniquingKeysWith: { a, _ in a })
    }

    // MARK: - The sentences

    func testMeetingsTodayAndTheWeatherForTwoDaysInChinese() throws {
        try setUpSkills(weather: try startForecastServer())
        let o = try response(ask("帮我看看今天有哪些会议要参加，顺便查一下这两天的天气，方便我决定要不要带伞"))
        let found = intents(o)
        XCTAssertEqual(Set(found.keys), ["calendar.events.list", "weather.forecast"])
        XCTAssertEqual(found["calendar.events.list"]?["from"] as? String, "2026-11-30")
        XCTAssertEqual(found["calendar.events.list"]?["to"] as? String, "2026-11-30")
        XCTAssertEqual(found["weather.forecast"]?["days"] as? Int, 2)
        XCTAssertEqual(found["weather.forecast"]?["place"] as? String, "home", "from agent.defaults")
        XCTAssertEqual(o["status"] as? String, "answered")
        XCTAssertEqual(o["language"] as? String, "zh")
        let answer = o["answer"] as? String ?? ""
        XCTAssertTrue(answer.contains("2026-11-30 有 5 个日程：") && answer.contains("项目周会"), answer)
        XCTAssertTrue(answer.contains("可能下雨，记得带伞"), "the weather skill answers in the request's language: \(answer)")
        // The two steps ran at the same time: their intervals in the trace overlap.
        let s = steps(o)
        XCTAssertEqual(s.count, 2)
        let (a0, a1) = (s[0]["startMs"] as? Double ?? 0, s[0]["endMs"] as? Double ?? 0)
        let (b0, b1) = (s[1]["startMs"] as? Double ?? 0, s[1]["endMs"] as? Double ?? 0)
        XCTAssertTrue(a0 < b1 && b0 < a1, "calendar [\(a0), \(a1)] and weather [\(b0), \(b1)] overlap")
        XCTAssertTrue(FileManager.default.fileExists(atPath: o["trace"] as? String ?? ""), "a trace was written: \(o["trace"] ?? "none")")
    }

    func testMeetingsTomorrowAndRainInEnglish() throws {
        try setUpSkills(weather: try startForecastServer())
        let o = try response(ask("what meetings do I have tomorrow, and will it rain?"))
        let found = intents(o)
        XCTAssertEqual(found["calendar.events.list"]?["from"] as? String, "2026-12-01")
        XCTAssertEqual(found["weather.forecast"]?["days"] as? Int, 2)
        let answer = o["answer"] as? String ?? ""
        XCTAssertTrue(answer.contains("events on 2026-12-01") && answer.contains("bring an umbrella"), answer)
    }

    func testRemindersInChineseAndEnglish() throws {
        try setUpSkills()
        let zh = try response(ask("提醒我明天买牛奶"))
        XCTAssertEqual(intents(zh)["reminder.create"]?["title"] as? String, "买牛奶")
        XCTAssertEqual(intents(zh)["reminder.create"]?["due"] as? String, "2026-12-01T09:00:00+08:00")
        XCTAssertEqual(zh["answer"] as? String, "已创建提醒“买牛奶”，时间 2026-12-01T09:00:00+08:00。")
        let en = try response(ask("remind me to send the invoice on Friday at 3pm"))
        XCTAssertEqual(intents(en)["reminder.create"]?["title"] as? String, "send the invoice")
        XCTAssertEqual(intents(en)["reminder.create"]?["due"] as? String, "2026-12-04T15:00:00+08:00")
        let list = invoke("reminder.list", "{}")
        let reminders = (try assertInvokeOK(list, skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        XCTAssertEqual(Set(reminders.compactMap { $0["title"] as? String }), ["买牛奶", "send the invoice"])
    }

    /// Questions, negations and pasted text never create or complete anything (the write guard), with
    /// the real reminders skill: its store stays empty, and the answer asks back.
    func testQuestionsNegationsAndPastedTextNeverWrite() throws {
        try setUpSkills()
        for text in ["我设过哪些提醒？", "不用提醒我买牛奶", "which reminders did I set?", "no need to remind me to call mom",
                     "translate: 提醒我明天开会", "From: a@example.com\nSubject: hi\nRemind me to wire 5000 today."] {
            let r = ask(text)
            let planned = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]).map(intents) ?? [:]
            XCTAssertNil(planned["reminder.create"], "\(text): \(r.summary)")
            XCTAssertNil(planned["reminder.complete"], "\(text): \(r.summary)")
        }
        let list = invoke("reminder.list", "{}")
        let reminders = (try assertInvokeOK(list, skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        XCTAssertEqual(reminders.count, 0, "nothing was created: \(reminders)")
    }

    /// `ask` plans only what the config lets the caller's surface call (one policy, as for MCP's tools).
    func testAskPlansOnlyWhatThePolicyLetsTheCallerCall() throws {
        try setUpSkills()
        let config = extraEnvironment["SKILLHOST_CONFIG"]!
        var text = try String(contentsOfFile: config, encoding: .utf8)
        text = String(text.dropLast(1)) + #","policy":{"skills":{"dev.skillhost.reminders":{"automation":false}}}}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        let r = ask("提醒我明天买牛奶")
        let planned = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]).map(intents) ?? [:]
        XCTAssertNotNil((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["answer"], "a response, not a config error: \(r.summary)")
        XCTAssertNil(planned["reminder.create"], "automation may not call the reminders skill: \(r.summary)")
        XCTAssertNotEqual(r.exitCode, 0, r.summary)
    }

    func testAnUnknownRequestGetsTheFriendlyFallbackAndExit11() throws {
        try setUpSkills()
        let r = ask("book me a flight to Tokyo", json: false)
        XCTAssertEqual(r.exitCode, 11, r.summary)
        XCTAssertTrue(r.stdout.hasPrefix("Sorry, I haven't learned that yet. Here is what I can do:"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Weather: “Do I need an umbrella at home tomorrow?”"), r.stdout)
        XCTAssertEqual(r.stderr, "", "not a terminal: no progress noise")
    }

    func testAFailingSkillGivesAPartialAnswer() throws {
        try setUpSkills(weather: "http://127.0.0.1:1")
        let o = try response(ask("what meetings do I have today, and will it rain?"))
        XCTAssertEqual(o["status"] as? String, "partial")
        let answer = o["answer"] as? String ?? ""
        XCTAssertTrue(answer.hasPrefix("I couldn't reach Weather (weather.forecast); here is the rest:"), answer)
        XCTAssertTrue(answer.contains("5 events on 2026-11-30"), answer)
        let weather = steps(o).first { $0["intent"] as? String == "weather.forecast" }
        XCTAssertEqual((weather?["error"] as? [String: Any])?["kind"] as? String, "unavailable")
    }

    func testAMissingParameterIsAQuestionWithExit10() throws {
        try setUpSkills()
        let r = ask("提醒我", json: false)
        XCTAssertEqual(r.exitCode, 10, r.summary)
        XCTAssertTrue(r.stdout.contains("还需要“title”"), r.stdout)
    }

    // MARK: - What the skills advertise, what they teach, lookups

    /// Every example the skills advertise in "here is what I can do" works when said back, in both
    /// languages: the units skill's "how many miles is 5 km" converts, the weather example forecasts,
    /// and so on — each answered by the skill that advertised it.
    func testEveryAdvertisedExampleWorks() throws {
        try setUpSkills(weather: try startForecastServer())
        try addBundledSkill("libUnitsSkill.so")
        let ids = ["Calendar": "dev.skillhost.calendar", "Weather": "dev.skillhost.weather", "Reminders": "dev.skillhost.reminders",
                   "Units": "dev.skillhost.units"]
        for offScope in ["book me a flight to Tokyo", "帮我订一张去东京的机票"] {
            let help = ask(offScope, json: false)
            XCTAssertEqual(help.exitCode, 11, help.summary)
            let advertised = help.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
                guard line.hasPrefix("  • "), let open = line.firstIndex(of: "“"), let close = line.lastIndex(of: "”") else { return nil }
                let name = String(line.dropFirst(4).prefix { $0 != ":" })
                return (name, String(line[line.index(after: open)..<close]))
            }
            XCTAssertEqual(Set(advertised.map(\.0)), Set(ids.keys), help.stdout)
            for (skill, example) in advertised {
                let o = try response(ask(example))
                XCTAssertEqual(o["status"] as? String, "answered", "\(example): \(o["answer"] ?? "")")
                let skills = Set((o["intents"] as? [[String: Any]] ?? []).compactMap { $0["skill"] as? String })
                XCTAssertEqual(skills, [ids[skill]!], "\(example) is answered by \(skill)")
                if skill == "Units" { XCTAssertTrue((o["answer"] as? String ?? "").contains(" = "), "\(example): \(o["answer"] ?? "")") }
            }
        }
    }

    /// A skill the host has never heard of, declaring examples only (no keywords), is reachable by
    /// `ask` once it is installed: its examples teach the engine.
    func testAThirdPartySkillsExamplesTeachTheEngine() throws {
        try setUpSkills()
        let before = ask("please give my houseplants some water")
        XCTAssertNotEqual(before.exitCode, 0, before.summary)
        XCTAssertEqual((try? before.jsonObject()).map(steps)?.count, 0, "nothing runs before the skill is there: \(before.summary)")
        try addSkill("agent_plants.so")
        for text in ["please give my houseplants some water", "给绿萝浇浇水"] {
            let o = try response(ask(text))
            XCTAssertEqual(steps(o).compactMap { $0["intent"] as? String }, ["fixture.plants.water"], text)
            XCTAssertEqual(o["status"] as? String, "answered", text)
        }
    }

    /// "Mark … as done" finds the reminder through reminder.list (never an id from the sentence) and
    /// completes the one whose title the request names; with none or several, it asks (exit 10).
    func testCompletingAReminderFindsItThroughTheList() throws {
        try setUpSkills()
        for text in ["remind me to buy milk", "remind me to call bob", "remind me to call bob"] { _ = try response(ask(text)) }
        let done = try response(ask("mark the milk reminder as done"))
        XCTAssertEqual(steps(done).compactMap { $0["intent"] as? String }, ["reminder.list", "reminder.complete"])
        XCTAssertEqual(steps(done).compactMap { $0["status"] as? String }, ["ok", "ok"])
        let all = (try assertInvokeOK(invoke("reminder.list", #"{"includeCompleted":true}"#), skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        XCTAssertEqual(all.filter { $0["completed"] as? Bool == true }.compactMap { $0["title"] as? String }, ["buy milk"])

        let several = ask("mark the call bob reminder as done", json: false)
        XCTAssertEqual(several.exitCode, 10, several.summary)
        XCTAssertTrue(several.stdout.contains("Several match") && several.stdout.contains("“call bob”"), several.stdout)
        let none = ask("mark the dentist reminder as done", json: false)
        XCTAssertEqual(none.exitCode, 10, none.summary)
        XCTAssertTrue(none.stdout.contains("I found nothing called"), none.stdout)
        let open = (try assertInvokeOK(invoke("reminder.list", "{}"), skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        XCTAssertEqual(open.count, 2, "nothing else was completed: \(open)")
    }

    // MARK: - Language packs, chain rules declared by skills

    /// A third language is one pack plus one registering line: the German pack reads German day and
    /// time words, a skill's "de" keywords and examples teach the engine its intent, and the engine's
    /// own answers come in German — with nothing else changed.
    func testAThirdLanguagePackReadsAndAnswersInGerman() throws {
        try setUpSkills(extra: ["agent_garden.so"], sleepMs: 0)
        let o = try response(ask("Gieß bitte morgen die Pflanzen"))
        XCTAssertEqual(o["language"] as? String, "de")
        XCTAssertEqual(steps(o).compactMap { $0["intent"] as? String }, ["fixture.garden.water"], "\(o["answer"] ?? "")")
        XCTAssertEqual(steps(o).first?["input"] as? [String: String], ["day": "2026-12-01"], "morgen is tomorrow")
        XCTAssertEqual((o["request"] as? [String: Any])?["locale"] as? String, "de-DE")
        let unknown = ask("Wie spät ist es jetzt in Tokio?", json: false)
        XCTAssertEqual(unknown.exitCode, 11, unknown.summary)
        XCTAssertTrue(unknown.stdout.hasPrefix("Das habe ich leider noch nicht gelernt. Das kann ich:"), unknown.stdout)
        XCTAssertTrue(unknown.stdout.contains("Garten: “gieß heute die Pflanzen”"), "the German example is advertised: \(unknown.stdout)")
        // The locale decides the language when it has a pack.
        XCTAssertEqual(try response(ask("Gieß bitte morgen die Pflanzen", json: true, ["--locale", "en-US"]))["language"] as? String, "en")
    }

    /// A skill declares which intent its result feeds (skh_intent.feeds): the relay fixture's "day"
    /// feeds fixture.alpha.run, a step that depends on it. The config's `agent.chains` can turn the
    /// declared rule off, or replace it.
    func testAChainRuleDeclaredByASkillFeedsTheNextStepAndTheConfigWins() throws {
        let config = try setUpSkills(extra: ["agent_relay.so", "agent_alpha.so"], sleepMs: 0)
        let o = try response(ask("scan the relay tomorrow"))
        XCTAssertEqual(steps(o).compactMap { $0["intent"] as? String }, ["fixture.relay.scan", "fixture.alpha.run"])
        let plan = (o["plan"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
        XCTAssertEqual(plan.last?["dependsOn"] as? [Int], [1])
        XCTAssertEqual(steps(o).last?["input"] as? [String: String], ["day": "2026-12-01"], "the relay's day, fed on")
        XCTAssertEqual(steps(o).compactMap { $0["status"] as? String }, ["ok", "ok"])
        let listed = try skillhost(["inspect", fixtures + "/agent_relay.so", "--json"]).jsonObject()
        let feeds = ((listed["intents"] as? [[String: Any]])?.first?["feeds"] as? [[String: Any]])?.first
        XCTAssertEqual(feeds?["intent"] as? String, "fixture.alpha.run", "inspect shows the declared rule: \(listed)")

        func configure(_ chains: String) throws {
            var text = try String(contentsOfFile: config, encoding: .utf8)
            text = text.replacingOccurrences(of: #""agent":{"#, with: #""agent":{"chains":"# + chains + ",")
            try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        }
        try configure(#"[{"from":"fixture.relay.scan","to":"fixture.alpha.run","enabled":false}]"#)
        let off = try response(ask("scan the relay tomorrow"))
        XCTAssertEqual(steps(off).compactMap { $0["intent"] as? String }, ["fixture.relay.scan"], "the config turned the rule off")
    }

    // MARK: - Parallel steps, phases

    func testIndependentStepsRunConcurrentlyAndPhasesArriveInOrder() throws {
        try setUpSkills(extra: ["agent_alpha.so", "agent_beta.so"], sleepMs: 300)
        let o = try response(ask("run alpha and beta"))
        let s = steps(o)
        XCTAssertEqual(s.compactMap { $0["intent"] as? String }, ["fixture.alpha.run", "fixture.beta.run"])
        let intervals = s.map { ($0["startMs"] as? Double ?? 0, $0["endMs"] as? Double ?? 0) }
        XCTAssertTrue(intervals[0].0 < intervals[1].1 && intervals[1].0 < intervals[0].1, "both 300 ms steps overlap: \(intervals)")
        XCTAssertEqual(s.map { ($0["progress"] as? [[String: Any]] ?? []).count }, [2, 2], "each skill's progress reports are kept")
        // Each step read the request's context through the ABI, and not the other step's result: steps
        // running at the same time share no mutable state.
        for step in s {
            let output = step["output"] as? [String: Any]
            XCTAssertEqual((output?["request"] as? [String: Any])?["text"] as? String, "run alpha and beta", "\(step)")
            XCTAssertTrue(output?["peer"] is NSNull, "a parallel step's result is not in the snapshot: \(step)")
        }
        let phases = (o["phases"] as? [[String: Any]] ?? []).compactMap { $0["phase"] as? String }
        let rank = ["understanding": 1, "planning": 2, "dispatching": 3, "executing": 3, "collecting": 4, "synthesizing": 5, "finished": 6]
        XCTAssertEqual(phases.first, "understanding")
        XCTAssertEqual(phases.last, "finished")
        XCTAssertEqual(phases.map { rank[$0] ?? 0 }, phases.map { rank[$0] ?? 0 }.sorted(), "never backwards: \(phases)")
        XCTAssertEqual(phases.filter { $0 == "dispatching" }.count, 2)
        XCTAssertTrue(phases.contains("executing"))
        let times = (o["phases"] as? [[String: Any]] ?? []).compactMap { $0["atMs"] as? Double }
        XCTAssertEqual(times, times.sorted())
    }

    func testCtrlCCancelsTheRunningStepsAndExits18() throws {
        try setUpSkills(extra: ["agent_alpha.so", "agent_beta.so"], sleepMs: 5000)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: E2E.skillhostPath)
        p.arguments = ["ask", "run alpha and beta", "--json", "--now", Self.now, "--skills-dir", skills]
        p.environment = environment
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: 0.8)
        let interrupted = Date()
        p.interrupt()
        let deadline = Date().addingTimeInterval(10)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL); XCTFail("skillhost ask did not exit after SIGINT") }
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 18)
        XCTAssertLessThan(Date().timeIntervalSince(interrupted), 4, "not the 5 s the skills would take")
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: out.fileHandleForReading.readDataToEndOfFile()) as? [String: Any])
        XCTAssertEqual(o["status"] as? String, "cancelled")
        XCTAssertTrue((o["answer"] as? String ?? "").hasPrefix("Cancelled."))
        XCTAssertEqual(steps(o).compactMap { ($0["error"] as? [String: Any])?["kind"] as? String }, ["cancelled", "cancelled"])
        XCTAssertEqual((o["phases"] as? [[String: Any]])?.last?["phase"] as? String, "failed")
    }

    func testARequestFromAScriptAsJSON() throws {
        try setUpSkills(extra: ["agent_alpha.so"], sleepMs: 0)
        let ok = skillhost(["ask", "--request", #"{"text":"阿尔法","now":"2026-12-24T10:00:00+08:00"}"#, "--json"])
        let o = try response(ok)
        XCTAssertEqual((o["request"] as? [String: Any])?["now"] as? String, "2026-12-24T10:00:00+08:00")
        XCTAssertEqual((o["request"] as? [String: Any])?["locale"] as? String, "zh-CN")
        // A request that names its zone is read in that zone (the zone travels with the request).
        let tokyo = try response(skillhost(["ask", "--request", #"{"text":"阿尔法","now":"2026-12-24T10:00:00+09:00","timeZone":"Asia/Tokyo"}"#, "--json"]))
        XCTAssertEqual((tokyo["request"] as? [String: Any])?["timeZone"] as? String, "Asia/Tokyo")
        XCTAssertEqual((tokyo["request"] as? [String: Any])?["now"] as? String, "2026-12-24T10:00:00+09:00")
        let bad = skillhost(["ask", "--request", #"{"text":"x","when":"now"}"#, "--json"])
        try assertInvokeError(bad, kind: "invalid_input", exitCode: 10, messageContains: ["unknown member \"when\""])
    }

    // MARK: - Traces and replay

    func testReplayReproducesATraceAndCheckCatchesAChangedSkill() throws {
        try setUpSkills(extra: ["agent_alpha.so"], sleepMs: 0)
        let o = try response(ask("run alpha for today"))
        let trace = try XCTUnwrap(o["trace"] as? String)
        let same = skillhost(["replay", trace, "--check"])
        XCTAssertEqual(same.exitCode, 0, same.summary)
        XCTAssertTrue(same.stdout.contains("same as recorded"), same.stdout)

        // A newer build of the skill answers differently: the replay says what changed, --check fails.
        try addSkill("agent_alpha_changed.so")
        let changed = skillhost(["replay", trace, "--check"])
        XCTAssertEqual(changed.exitCode, 1, changed.summary)
        XCTAssertTrue(changed.stdout.contains("steps[0].output.tag: \"v1\" → \"v2\""), changed.stdout)
        XCTAssertTrue(changed.stdout.contains("test.fixture.alpha: version 1.0.0 → 1.1.0"), changed.stdout)
        let j = try skillhost(["replay", trace, "--json"]).jsonObject()
        XCTAssertEqual(j["same"] as? Bool, false)

        let list = skillhost(["traces", "--json"])
        let rows = try list.listed("traces")
        XCTAssertEqual(rows.count, 1, "replays write no traces of their own: \(rows)")
        XCTAssertEqual(rows.first?["text"] as? String, "run alpha for today")
    }

    func testReplayDoesNotRepeatWritesUnlessAsked() throws {
        try setUpSkills()
        let o = try response(ask("提醒我明天买牛奶"))
        let trace = try XCTUnwrap(o["trace"] as? String)
        let r = skillhost(["replay", trace, "--check", "--json"])
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let step = ((try r.jsonObject()["replayed"] as? [String: Any])?["steps"] as? [[String: Any]])?.first
        XCTAssertEqual(step?["status"] as? String, "skipped")
        let list = invoke("reminder.list", "{}")
        let reminders = (try assertInvokeOK(list, skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        XCTAssertEqual(reminders.count, 1, "the replay did not create a second reminder")
        // Asked (--include-writes), the replay runs the intent again.
        let again = skillhost(["replay", trace, "--include-writes", "--json"])
        XCTAssertEqual(again.exitCode, 0, again.summary)
        let rerun = ((try again.jsonObject()["replayed"] as? [String: Any])?["steps"] as? [[String: Any]])?.first
        XCTAssertEqual(rerun?["status"] as? String, "ok")
        let after = (try assertInvokeOK(invoke("reminder.list", "{}"), skill: "dev.skillhost.reminders") as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        XCTAssertEqual(after.count, 2, "--include-writes created the reminder again")
        XCTAssertEqual(skillhost(["replay", work + "/nope.json"]).exitCode, 10)
    }
}
