import XCTest
@testable import SkillHostCore

/// Normalization, the language packs, quantities, relative times, places, action verbs, what skills'
/// examples teach, and lookups — deterministic: "now" is Monday 2026-11-30 08:00 in Asia/Shanghai.
final class EngineLanguageTests: XCTestCase {
    let zone = ZoneRules.load("Asia/Shanghai") ?? .utc
    let today = CivilDate(year: 2026, month: 11, day: 30)
    var now: Int { zone.instant(today, hour: 8, minute: 0) }

    func request(_ text: String) -> AgentRequest {
        AgentRequest(text: text, source: .terminal, caller: .human, zone: zone, now: now)
    }

    let normalizer = Normalizer(vocabulary: ["weather", "calendar", "remind", "reminders", "tomorrow"])

    func testFullWidthTraditionalNumeralsAndAbbreviationsAreNormalizedFirst() {
        XCTAssertEqual(normalizer.normalize("ｗｅａｔｈｅｒ　ｔｏｍｏｒｒｏｗ？"), "weather tomorrow?")
        XCTAssertEqual(normalizer.normalize("明天會下雨嗎"), "明天会下雨吗")
        XCTAssertEqual(normalizer.normalize("這週的會議"), "这周的会议")
        XCTAssertEqual(normalizer.normalize("三公里是多少英里"), "3公里是多少英里")
        XCTAssertEqual(normalizer.normalize("十五英尺"), "15英尺")
        XCTAssertEqual(normalizer.normalize("一百米"), "100米")
        XCTAssertEqual(normalizer.normalize("10千克"), "10千克", "千 alone is not a numeral")
        XCTAssertEqual(normalizer.normalize("半斤是多少克"), "0.5斤是多少克")
        XCTAssertEqual(normalizer.normalize("3点半"), "3点半", "半 after 点 is half past")
        XCTAssertEqual(normalizer.normalize("等一下，星期三"), "等一下,星期三", "一下 and weekdays stay words; the full-width comma is a comma")
        XCTAssertEqual(normalizer.normalize("两天后"), "2天后")
        XCTAssertEqual(normalizer.normalize("今晚"), "今天晚上")
        XCTAssertEqual(normalizer.normalize("mtgs tmrw"), "meetings tomorrow")
        XCTAssertEqual(normalizer.normalize("two liters in cups"), "2 liters in cups")
        XCTAssertEqual(normalizer.normalize("half a mile"), "0.5 mile")
    }

    func testTyposAreCorrectedToDeclaredWordsOnly() {
        XCTAssertEqual(normalizer.correctTypos("whats the wether"), "whats the weather")
        XCTAssertEqual(normalizer.correctTypos("my calender"), "my calendar")
        XCTAssertEqual(normalizer.correctTypos("remid me"), "remind me")
        XCTAssertEqual(normalizer.correctTypos("tomorow"), "tomorrow")
        XCTAssertEqual(normalizer.correctTypos("could you"), "could you", "a common word is left alone")
        XCTAssertEqual(normalizer.correctTypos("buy bread"), "buy bread", "far from every declared word")
    }

    func testQuantitiesWithUnitsFillTheSchema() throws {
        let schema = try JSON.parse(#"{"type":"object","properties":{"value":{"type":"number"},"from":{"type":"string","enum":["m","km","mi","ft","kg","g","lb","C","F","cup","ml"]},"to":{"type":"string","enum":["m","km","mi","ft","kg","g","lb","C","F","cup","ml"]}},"required":["value","from","to"]}"#)
        func fill(_ text: String) -> String {
            let clause = normalizer.normalize(text)
            let o = Quantities.fill(properties: schema["properties"]!.objectValue!, required: ["value", "from", "to"], clause: clause)
            return JSON.object(o).serialized
        }
        XCTAssertEqual(fill("how many miles is 5 km"), #"{"value":5,"from":"km","to":"mi"}"#)
        XCTAssertEqual(fill("what is 72°F in celsius"), #"{"value":72,"from":"F","to":"C"}"#)
        XCTAssertEqual(fill("-40 C to F"), #"{"value":-40,"from":"C","to":"F"}"#)
        XCTAssertEqual(fill("how many ounces in 1.5 pounds"), #"{"value":1.5,"from":"lb"}"#, "oz is not in this schema's enum")
        XCTAssertEqual(fill("三公里是多少英里"), #"{"value":3,"from":"km","to":"mi"}"#)
        XCTAssertEqual(fill("华氏72度是多少摄氏度"), #"{"value":72,"from":"F","to":"C"}"#)
        XCTAssertEqual(fill("半斤是多少克"), #"{"value":250,"from":"g","to":"g"}"#, "斤 is 500 g")
        XCTAssertEqual(fill("how many meetings do I have"), "{}", "no amount, nothing filled")
    }

    func testRelativeTimesInTheRequestsZone() {
        func spec(_ s: String) -> TimeSpec? { TimeExpressions.find(in: normalizer.normalize(s), now: now, zone: zone) }
        XCTAssertEqual(spec("in 3 hours").map { [$0.start.description, "\($0.hour!):\($0.minute!)"] }, ["2026-11-30", "11:0"])
        XCTAssertEqual(spec("3小时后").map { "\($0.hour!)" }, "11")
        XCTAssertEqual(spec("半小时后").map { "\($0.hour!):\($0.minute!)" }, "8:30")
        XCTAssertEqual(spec("in 2 days")?.start.description, "2026-12-02")
        XCTAssertEqual(spec("月底")?.start.description, "2026-11-30")
        XCTAssertEqual(spec("下个月").map { [$0.start.description, $0.end.description] }, ["2026-12-01", "2026-12-31"])
        XCTAssertEqual(spec("next month")?.end.description, "2026-12-31")
        XCTAssertEqual(spec("on 12/5")?.start.description, "2026-12-05")
        XCTAssertEqual(spec("tomorrow at 5")?.hour, 17, "a bare hour of 1–6 is the afternoon")
        XCTAssertEqual(spec("后天晚上").map { [$0.start.description, "\($0.hour!)"] }, ["2026-12-02", "19"])
        XCTAssertEqual(spec("今晚九点")?.hour, 21)
        XCTAssertEqual(spec("this evening")?.hour, 19)
        XCTAssertEqual(spec("next tuesday")?.start.description, "2026-12-08")
    }

    func testPlacesNamedInTheSentence() {
        // What a weather skill declares as its keywords: places stand before them, none is a place.
        let topics = ["weather", "forecast", "temperature", "rain", "天气", "气温", "下雨", "带伞", "冷", "热"]
        func place(_ s: String) -> String? {
            let text = normalizer.normalize(s)
            let phrases = TimeExpressions.find(in: text, now: now, zone: zone)?.phrases ?? []
            return LanguagePacks.all.lazy.compactMap { $0.place(in: text, removing: phrases, topics: topics) }.first
        }
        XCTAssertEqual(place("weather in Tokyo"), "Tokyo")
        XCTAssertEqual(place("forecast for New York for the next 3 days"), "New York")
        XCTAssertEqual(place("Tokyo weather tomorrow"), "Tokyo")
        XCTAssertEqual(place("how's the weather at home"), "home")
        XCTAssertNil(place("what's the weather like tomorrow"))
        XCTAssertEqual(place("东京天气"), "东京")
        XCTAssertEqual(place("明天深圳的气温"), "深圳")
        XCTAssertEqual(place("杭州这周末天气怎么样"), "杭州")
        XCTAssertNil(place("家里明天下雨吗"))
        XCTAssertNil(place("明天会下雨吗"))
        XCTAssertEqual(place("东京会下雨吗"), "东京")
        XCTAssertEqual(place("北京冷不冷"), "北京")
    }

    // MARK: - Recognition

    static func entry(_ intent: String, keywords: [String: [String]] = [:], examples: [String], schema: String = #"{"type":"object"}"#,
                      flags: IntentFlags = [.readOnly, .idempotent], output: String? = nil) -> IntentCatalog.Entry {
        IntentCatalog.Entry(intent: intent, name: intent, skillID: "skill." + intent.split(separator: ".")[0], skillName: intent,
                            description: intent, keywords: keywords,
                            examples: examples.map { IntentManifest.Example(lang: TextMatching.hasCJK($0) ? "zh" : "en", text: $0) },
                            inputSchema: try! JSON.parse(schema), flags: flags, outputSchema: output.map { try! JSON.parse($0) })
    }

    static let reminderItems = #"{"type":"object","properties":{"reminders":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"}}}}}}"#

    let catalog = IntentCatalog(entries: [
        entry("calendar.events.list", keywords: ["en": ["meeting", "meetings", "calendar"], "zh": ["会议", "日程"]],
              examples: ["What meetings do I have tomorrow?", "明天有什么会？"],
              schema: #"{"type":"object","properties":{"from":{"type":"string","format":"date"},"to":{"type":"string","format":"date"}},"required":["from","to"]}"#),
        entry("reminder.create", keywords: ["en": ["remind", "reminder"], "zh": ["提醒"]],
              examples: ["Remind me to call mom tomorrow at 9am", "Add a todo: buy milk", "提醒我明天下午三点开会"],
              schema: #"{"type":"object","properties":{"title":{"type":"string"},"due":{"type":"string","format":"date-time"}},"required":["title"]}"#, flags: []),
        entry("reminder.list", keywords: ["en": ["reminders", "my reminders"], "zh": ["我的提醒"]],
              examples: ["What are my reminders?", "我有哪些提醒？"], output: reminderItems),
        entry("reminder.complete", keywords: ["en": ["done", "mark as done"], "zh": ["完成"]],
              examples: ["Mark the milk reminder as done"],
              schema: #"{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}"#, flags: [.idempotent]),
        // A third-party skill that declares examples only.
        entry("plants.water", examples: ["water the houseplants today", "give the ficus some water", "给绿萝浇水", "花该浇水了"]),
    ])

    func recognize(_ text: String) -> Recognition {
        KeywordRecognizer().recognize(request(text), catalog: catalog, defaults: [:])
    }

    func testAnIntentIsLearnedFromItsExamplesAlone() {
        XCTAssertEqual(recognize("please give my houseplants some water").intents.map(\.intent), ["plants.water"])
        XCTAssertEqual(recognize("给绿萝浇浇水").intents.map(\.intent), ["plants.water"])
    }

    func testAnActionNoIntentDoesIsNotUnderstood() {
        XCTAssertEqual(recognize("add a meeting with Bob tomorrow").intents.map(\.intent), [], "the calendar lists, it does not add")
        XCTAssertEqual(recognize("帮我加个会议").intents.map(\.intent), [])
        XCTAssertEqual(recognize("cancel my meeting tomorrow").intents.map(\.intent), [])
        XCTAssertEqual(recognize("add a todo: buy eggs").intents.map(\.intent), ["reminder.create"], "its own example says add")
        XCTAssertEqual(recognize("what meetings do I have tomorrow").intents.map(\.intent), ["calendar.events.list"])
    }

    func testAQuestionAboutAWriteReadsInstead() {
        XCTAssertEqual(recognize("which reminders did I set?").intents.map(\.intent), ["reminder.list"])
        XCTAssertEqual(recognize("提醒我买牛奶了吗？").intents.map(\.intent), ["reminder.list"])
    }

    func testATitleKeepsNoFunctionWordsAndAMeetingInItIsNotACalendarQuestion() throws {
        let r = recognize("remind me to call mom tomorrow at 5")
        XCTAssertEqual(r.intents.first?.parameters["title"]?.stringValue, "call mom")
        XCTAssertEqual(r.intents.first?.parameters["due"]?.stringValue, "2026-12-01T17:00:00+08:00")
        XCTAssertEqual(recognize("could you remind me to check my meeting notes tonight").intents.map(\.intent), ["reminder.create"])
    }

    func testCompletingLooksTheIdentifierUpThroughTheDomainsList() throws {
        let guarded = WriteGuard.apply(recognize("mark the milk reminder as done"), request: request("mark the milk reminder as done"),
                                       catalog: catalog, minWriteConfidence: 0.6)
        let r = Lookups.attach(guarded, catalog: catalog)
        let found = try XCTUnwrap(r.intents.first { $0.intent == "reminder.complete" })
        XCTAssertEqual(found.missing, [])
        XCTAssertNil(found.parameters["id"], "never from free text")
        XCTAssertEqual(found.lookup?.intent, "reminder.list")
        let plan = Planner.plan(r, catalog: catalog)
        XCTAssertEqual(plan.steps.map(\.intent), ["reminder.list", "reminder.complete"])
        let feed = try XCTUnwrap(plan.steps.last?.feeds.first)
        let one = try JSON.parse(#"{"reminders":[{"id":"a","title":"buy milk"},{"id":"b","title":"call mom"}]}"#)
        guard case .value(let id) = feed.match(in: one) else { return XCTFail("one match") }
        XCTAssertEqual(id.stringValue, "a")
        let two = try JSON.parse(#"{"reminders":[{"id":"a","title":"milk"},{"id":"b","title":"Milk"}]}"#)
        guard case .several(let labels) = feed.match(in: two) else { return XCTFail("several match") }
        XCTAssertEqual(labels, ["milk", "Milk"])
        guard case .none = feed.match(in: try JSON.parse(#"{"reminders":[{"id":"c","title":"pay rent"}]}"#)) else { return XCTFail("none") }
    }

    func testEveryLanguagePackIsConsulted() {
        XCTAssertEqual(LanguagePacks.all.map(\.code), ["zh", "de", "en"])
        XCTAssertEqual(LanguagePacks.pack(for: "zh-TW")?.code, "zh")
        XCTAssertNil(LanguagePacks.pack(for: "fr-FR"))
        XCTAssertEqual(LanguagePacks.detect("明天的天气").code, "zh")
        XCTAssertEqual(LanguagePacks.detect("weather tomorrow").code, "en")
        XCTAssertEqual(LanguagePacks.detect("Wie wird das Wetter morgen?").code, "de")
        XCTAssertEqual(LanguagePacks.detect("remind me to call Die Hard fans").code, "en", "one German-looking word is not German")
    }

    /// The German pack, registered by one line, reads its own day and time words and answers in its own
    /// sentences; the other packs do not read them.
    func testTheGermanPackReadsDaysAndTimesAndHasItsOwnSentences() throws {
        let today = CivilDate(year: 2026, month: 11, day: 30)  // a Monday
        let spec = try XCTUnwrap(TimeExpressions.find(in: "Erinnere mich morgen um 15 Uhr an die Pflanzen", today: today))
        XCTAssertEqual(spec.start.description, "2026-12-01")
        XCTAssertEqual(spec.hour, 15)
        XCTAssertEqual(TimeExpressions.find(in: "Was habe ich am Freitag?", today: today)?.start.description, "2026-12-04")
        XCTAssertNil(TimeExpressions.find(in: "morgen is a German word", today: today), "German day words only in German text")
        let request = AgentRequest(text: "Was kannst du heute für mich tun?", source: .terminal, caller: .human, zone: .utc, now: 0)
        XCTAssertEqual(request.language, "de")
        XCTAssertEqual(request.locale, "de-DE")
        XCTAssertTrue(request.sentences.notLearned(abilities: []).hasPrefix("Das habe ich leider noch nicht gelernt"))
        XCTAssertTrue(DialogAct.isNegated("gieß die blumen heute nicht"))
    }
}
