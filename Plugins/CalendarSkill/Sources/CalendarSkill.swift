import Foundation
import SkillKit

/// The SkillKit face of the calendar: decodes input and config, maps domain errors to `SkillError`, logs
/// file problems. Everything else lives in the SDK-free types (`ICSParser`, `RecurrenceExpander`,
/// `CalendarQuery`, `CalendarLoader`).
struct CalendarSkill: AgentSkill {
    let id = "dev.skillhost.calendar"
    let name = "Calendar"
    let version = "1.0.0"
    let category = "productivity"
    let vendor = "skillhost"
    let description = "Reads iCalendar (.ics) files and lists or summarizes the events of a range of days, recurring events included."

    var supportedIntents: [SkillIntent] { CalendarIntents.all }
    /// The calendar files and folders a person configures (`"calendars"` in its config section), read-only.
    var permissions: SkillPermissions { SkillPermissions(read: [.config("calendars")]) }

    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        // Reading files can take long: off the host's thread that called invoke() (see AgentSkill.execute).
        await Task.yield()
        switch input.intent {
        case CalendarIntents.list:
            let (range, occurrences, query, calendars) = try events(input: input, context: context)
            var list = query.list(occurrences)
            (list.problems, list.problemsTotal) = CalendarProblem.of(calendars)
            // The sentence names the events per day ("5 events on 2026-11-30: 10:00 Standup, …"), in the caller's language.
            return try SkillResult(list, message: query.summary(occurrences, range: range).text)
        case CalendarIntents.summary:
            let (range, occurrences, query, calendars) = try events(input: input, context: context)
            var summary = query.summary(occurrences, range: range)
            (summary.problems, summary.problemsTotal) = CalendarProblem.of(calendars)
            return try SkillResult(summary, message: summary.text)
        default:
            throw SkillError.invalidInput("unknown intent \"\(input.intent)\"")
        }
    }

    func healthCheck(context: SkillContext) async -> SkillHealth {
        do {
            let calendars = try loadCalendars(context: context)
            let events = calendars.reduce(0) { $0 + $1.events.count }
            let counts = "\(calendars.count) calendar\(calendars.count == 1 ? "" : "s"), \(events) event\(events == 1 ? "" : "s")"
            let broken = calendars.flatMap(\.diagnostics).filter { $0.severity == .error }
            if let first = broken.first {
                return .degraded("\(counts); \(broken.count) broken event\(broken.count == 1 ? "" : "s") skipped, first at \(first)")
            }
            return SkillHealth(status: .ok, message: counts)
        } catch {
            return .unavailable((error as? SkillError)?.message ?? String(describing: error))
        }
    }

    /// Input → day range; config → calendars → occurrences in the range.
    private func events(input: SkillInput, context: SkillContext) throws -> (DayRange, [EventOccurrence], CalendarQuery, [ICSCalendar]) {
        struct RangeInput: Decodable {
            let from: String
            let to: String
        }
        let params = try input.decode(RangeInput.self)
        let range: DayRange
        do {
            range = try DayRange.parse(from: params.from, to: params.to)
        } catch {
            throw SkillError.invalidInput(error.message)
        }
        let calendars = try loadCalendars(context: context)
        // The log gets the first problems and a count; the answer carries them (`problems`).
        let diagnostics = calendars.flatMap(\.diagnostics)
        for diagnostic in diagnostics.prefix(Self.loggedProblems) {
            context.log(diagnostic.severity == .error ? .warning : .info, diagnostic.description)
        }
        if diagnostics.count > Self.loggedProblems {
            context.log(.info, "\(diagnostics.count - Self.loggedProblems) more problems in the calendar files not logged")
        }
        if context.isCancelled { throw SkillError.cancelled("cancelled after reading the calendars") }
        let query = CalendarQuery(timeZone: context.timeZone, locale: context.locale)
        return (range, query.occurrences(of: calendars, in: range), query, calendars)
    }

    /// Problems logged per call; a file with thousands of broken lines must not flood the host's log.
    static let loggedProblems = 20

    private func loadCalendars(context: SkillContext) throws -> [ICSCalendar] {
        let config: CalendarConfig = try context.config()
        do {
            let files = try CalendarLoader.calendarFiles(config: config, dataDirectory: context.dataDirectory)
            return try CalendarLoader.load(files: files)
        } catch {
            throw SkillError.unavailable(error.description)
        }
    }
}

/// Names, schemas, keywords and examples of the two intents.
enum CalendarIntents {
    static let list = "calendar.events.list"
    static let summary = "calendar.events.summary"

    static let rangeSchema = #"""
    {"type":"object","properties":{"from":{"type":"string","format":"date","description":"First day, YYYY-MM-DD, in the caller's time zone."},"to":{"type":"string","format":"date","description":"Last day (inclusive), YYYY-MM-DD, not before from and at most 366 days in all."}},"required":["from","to"],"additionalProperties":false}
    """#

    static let listOutput = #"""
    {"type":"object","properties":{"events":{"type":"array","description":"Sorted by start.","items":{"type":"object","properties":{"uid":{"type":"string"},"summary":{"type":"string"},"start":{"type":"string","description":"RFC 3339 with the caller's offset; YYYY-MM-DD for all-day events."},"end":{"type":"string","description":"Exclusive end, same form as start (for all-day events the day after the last day)."},"allDay":{"type":"boolean"},"location":{"type":"string"},"description":{"type":"string"},"calendar":{"type":"string","description":"Calendar name (X-WR-CALNAME or file name)."}},"required":["uid","summary","start","end","allDay","calendar"]}},"problems":{"type":"array","description":"Problems met while reading the calendar files (first 50): a skipped line or event, a value read with a guess.","items":{"type":"object","properties":{"file":{"type":"string"},"line":{"type":"integer","minimum":0},"severity":{"type":"string","enum":["error","warning"]},"message":{"type":"string"}},"required":["file","line","severity","message"]}},"problemsTotal":{"type":"integer","minimum":0,"description":"Total number of problems, present when problems was cut."}},"required":["events"]}
    """#

    static let summaryOutput = #"""
    {"type":"object","properties":{"count":{"type":"integer","minimum":0,"description":"Events in the range."},"days":{"type":"array","items":{"type":"object","properties":{"date":{"type":"string","format":"date"},"count":{"type":"integer","minimum":0,"description":"Events on that day, all-day ones included."},"busyMinutes":{"type":"integer","minimum":0,"description":"Minutes covered by timed, busy events (overlaps counted once)."},"first":{"type":"object","description":"The first timed event starting that day.","properties":{"start":{"type":"string","format":"date-time"},"summary":{"type":"string"}},"required":["start","summary"]}},"required":["date","count","busyMinutes"]}},"text":{"type":"string","description":"The same, in one line per busy day."},"problems":{"type":"array","description":"Problems met while reading the calendar files (first 50): a skipped line or event, a value read with a guess.","items":{"type":"object","properties":{"file":{"type":"string"},"line":{"type":"integer","minimum":0},"severity":{"type":"string","enum":["error","warning"]},"message":{"type":"string"}},"required":["file","line","severity","message"]}},"problemsTotal":{"type":"integer","minimum":0,"description":"Total number of problems, present when problems was cut."}},"required":["count","days","text"]}
    """#

    static let all: [SkillIntent] = [
        SkillIntent(
            name: list,
            description: "List the calendar events (meetings, appointments, all-day events) between two days, inclusive, with times in the caller's time zone.",
            inputSchema: rangeSchema,
            outputSchema: listOutput,
            flags: [.readOnly, .idempotent],
            keywords: ["en": ["meeting", "meetings", "calendar", "schedule", "appointment", "event", "agenda", "free", "what's on", "plans", "anything on"],
                       "zh": ["会议", "日程", "安排", "开会", "日历", "行程", "有空", "空闲", "有会", "会吗", "什么会", "啥会", "几个会", "议程"]],
            examples: [
                SkillExample(lang: "en", text: "What's on my calendar on November 30?", input: #"{"from":"2026-11-30","to":"2026-11-30"}"#),
                SkillExample(lang: "en", text: "List my meetings from Nov 30 to Dec 1", input: #"{"from":"2026-11-30","to":"2026-12-01"}"#),
                SkillExample(lang: "zh", text: "11月30日有什么会议？", input: #"{"from":"2026-11-30","to":"2026-11-30"}"#),
                SkillExample(lang: "zh", text: "看看12月1日到12月7日的日程安排", input: #"{"from":"2026-12-01","to":"2026-12-07"}"#),
                SkillExample(lang: "en", text: "What meetings do I have tomorrow?"),
                SkillExample(lang: "en", text: "Do I have anything on Thursday?"),
                SkillExample(lang: "en", text: "Am I free this afternoon?"),
                SkillExample(lang: "en", text: "Show my appointments for next week"),
                SkillExample(lang: "en", text: "What's my schedule today?"),
                SkillExample(lang: "en", text: "Anything planned for the weekend?"),
                SkillExample(lang: "zh", text: "明天有什么会？"),
                SkillExample(lang: "zh", text: "我下周三有空吗"),
                SkillExample(lang: "zh", text: "今天的行程是什么"),
                SkillExample(lang: "zh", text: "周四有没有会"),
                SkillExample(lang: "zh", text: "看一下我下周的日程"),
            ]),
        SkillIntent(
            name: summary,
            description: "Summarize how busy each day between two days is: number of events, busy minutes, the first meeting, and a one-line overview per day.",
            inputSchema: rangeSchema,
            outputSchema: summaryOutput,
            flags: [.readOnly, .idempotent],
            keywords: ["en": ["busy", "summary", "overview", "how many meetings", "my day", "schedule", "agenda", "packed", "a lot going on"],
                       "zh": ["忙不忙", "概要", "总结", "几个会", "日程", "安排", "忙吗", "多不多"]],
            examples: [
                SkillExample(lang: "en", text: "How busy am I on November 30?", input: #"{"from":"2026-11-30","to":"2026-11-30"}"#),
                SkillExample(lang: "en", text: "Give me an overview of my week", input: #"{"from":"2026-11-30","to":"2026-12-06"}"#),
                SkillExample(lang: "zh", text: "12月1日忙不忙？", input: #"{"from":"2026-12-01","to":"2026-12-01"}"#),
                SkillExample(lang: "zh", text: "总结一下这周的日程", input: #"{"from":"2026-11-30","to":"2026-12-06"}"#),
                SkillExample(lang: "en", text: "How busy is my week?"),
                SkillExample(lang: "en", text: "How many meetings do I have on Friday?"),
                SkillExample(lang: "en", text: "Is tomorrow a packed day?"),
                SkillExample(lang: "en", text: "Give me a summary of next week's calendar"),
                SkillExample(lang: "zh", text: "这周忙吗"),
                SkillExample(lang: "zh", text: "明天有几个会"),
                SkillExample(lang: "zh", text: "下周的日程多不多"),
                SkillExample(lang: "zh", text: "帮我总结一下明天的安排"),
            ]),
    ]
}

@_cdecl("skillhost_entry")
public func skillhost_entry() -> UnsafeRawPointer {
    exportSkill(CalendarSkill())
}
