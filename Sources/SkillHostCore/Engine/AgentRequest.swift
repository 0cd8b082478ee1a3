/// Perception: one request to the engine, whatever surface it came from — a sentence at the terminal,
/// a JSON request from a script, a tool call of an LLM agent, or a replayed trace.
public struct AgentRequest: Sendable {
    public enum Source: String, Sendable { case terminal, script, agent, replay }

    public var text: String
    public var source: Source
    public var caller: Caller
    /// BCP 47 tag skills get as `locale` ("zh-CN", "en-US").
    public var locale: String
    /// IANA name of the zone "today" and times are read in (the host process's zone).
    public var timeZone: String
    /// The instant the request counts as "now", in seconds since the epoch (injectable, for tests and replays).
    public var now: Int

    public init(text: String, source: Source, caller: Caller, locale: String? = nil, timeZone: String, now: Int) {
        self.text = text
        self.source = source
        self.caller = caller
        self.locale = locale ?? (TextMatching.hasCJK(text) ? "zh-CN" : "en-US")
        self.timeZone = timeZone
        self.now = now
    }

    /// The language answers are written in: "zh" or "en".
    public var language: String { locale.lowercased().hasPrefix("zh") ? "zh" : "en" }
    /// Today, in the request's zone.
    public var today: CivilDate { LocalClock.civil(now).date }
    /// "now" as RFC 3339 with the zone's offset.
    public var nowText: String { LocalClock.rfc3339(now) }

    public var json: JSON {
        .object(JSONObject([("text", .string(text)), ("source", .string(source.rawValue)), ("caller", .string(caller.kind)),
                            ("locale", .string(locale)), ("timeZone", .string(timeZone)), ("now", .string(nowText))]))
    }

    /// A request from a script: `{"text": "…", "now": "RFC 3339", "locale": "zh-CN"}` (only text required).
    /// Errors name the member and what was expected.
    public static func from(json: JSON, source: Source, caller: Caller, timeZone: String, now: Int) -> Result<AgentRequest, SkillError> {
        guard case .object(let o) = json else {
            return .failure(SkillError(.invalidInput, "request: expected a JSON object like {\"text\":\"…\"}, found \(json.typeDescription)"))
        }
        guard let text = o["text"]?.stringValue, !text.trimmingWhitespace().isEmpty else {
            return .failure(SkillError(.invalidInput, "request: member \"text\": expected a non-empty string, found \(o["text"].map(\.typeDescription) ?? "nothing")"))
        }
        var instant = now
        if let n = o["now"] {
            guard let s = n.stringValue, let t = LocalClock.parseInstant(s) else {
                return .failure(SkillError(.invalidInput, "request: member \"now\": expected an RFC 3339 date-time like 2026-11-29T09:00:00+08:00, found \(n.serialized)"))
            }
            instant = t
        }
        if let l = o["locale"], l.stringValue == nil {
            return .failure(SkillError(.invalidInput, "request: member \"locale\": expected a BCP 47 tag like \"zh-CN\", found \(l.serialized)"))
        }
        for key in o.keys where !["text", "now", "locale", "timeZone"].contains(key) {
            return .failure(SkillError(.invalidInput, "request: unknown member \"\(key)\" (expected text, now, locale, timeZone)"))
        }
        // Times are read in the host process's zone; a request in another zone is refused, never misread.
        if let zone = o["timeZone"], zone.stringValue != timeZone {
            return .failure(SkillError(.invalidInput, "request: member \"timeZone\" is \(zone.serialized), but this host reads times in \"\(timeZone)\"",
                                       hint: "leave it out, or run the host in that zone (skillhost ask takes the request's timeZone, or --time-zone)"))
        }
        return .success(AgentRequest(text: text, source: source, caller: caller, locale: o["locale"]?.stringValue, timeZone: timeZone, now: instant))
    }
}
