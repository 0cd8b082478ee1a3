/// Perception: one request to the engine, whatever surface it came from — a sentence at the terminal,
/// a JSON request from a script, a tool call of an LLM agent, or a replayed trace.
public struct AgentRequest: Sendable {
    public enum Source: String, Sendable { case terminal, script, agent, replay }

    public var text: String
    public var source: Source
    public var caller: Caller
    /// BCP 47 tag skills get as `locale` ("zh-CN", "en-US").
    public var locale: String
    /// The zone "today" and times are read in, and that the request's calls carry in their context:
    /// the request's own (a script's `timeZone`, `ask --time-zone`, a replayed trace's), else the host's.
    public var zone: ZoneRules
    /// Its IANA name.
    public var timeZone: String { zone.name }
    /// The instant the request counts as "now", in seconds since the epoch (injectable, for tests and replays).
    public var now: Int

    public init(text: String, source: Source, caller: Caller, locale: String? = nil, zone: ZoneRules, now: Int) {
        self.text = text
        self.source = source
        self.caller = caller
        self.locale = locale ?? LanguagePacks.detect(text).locale
        self.zone = zone
        self.now = now
    }

    /// A request in the zone named `timeZone`, which the caller has checked (`ZoneRules.load`); an
    /// unknown name reads as UTC.
    public init(text: String, source: Source, caller: Caller, locale: String? = nil, timeZone: String, now: Int) {
        self.init(text: text, source: source, caller: caller, locale: locale, zone: ZoneRules.load(timeZone) ?? .utc, now: now)
    }

    /// The language the request is read and answered in: the locale's, when there is a language pack
    /// for it (`LanguagePacks`), else the pack that claims the text (see `languageNote`).
    public var language: String { pack.code }
    /// The language pack of `language`: the one whose sentences answer the request.
    var pack: any LanguagePack { LanguagePacks.pack(for: locale) ?? LanguagePacks.detect(text) }
    var sentences: any EngineSentences { pack.sentences }
    /// Why the language is not the locale's, when there is no pack for it.
    public var languageNote: String? {
        LanguagePacks.pack(for: locale) == nil ? "no language pack for locale \"\(locale)\" (there are: \(LanguagePacks.all.map(\.code).joined(separator: ", "))): read and answered as \(language)" : nil
    }
    /// Today, in the request's zone.
    public var today: CivilDate { zone.civil(now).date }
    /// "now" as RFC 3339 with the zone's offset.
    public var nowText: String { zone.rfc3339(now) }

    public var json: JSON {
        .object(JSONObject([("text", .string(text)), ("source", .string(source.rawValue)), ("caller", .string(caller.kind)),
                            ("locale", .string(locale)), ("timeZone", .string(timeZone)), ("now", .string(nowText))]))
    }

    /// A request from a script: `{"text": "…", "now": "RFC 3339", "locale": "zh-CN", "timeZone": "Asia/Tokyo"}`
    /// (only text required; `timeZone` defaults to the host's). Errors name the member and what was expected.
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
        // The request's own zone, passed with it (never through the process environment), or the host's.
        var zone = ZoneRules.load(timeZone) ?? .utc
        if let z = o["timeZone"] {
            guard let name = z.stringValue, let rules = ZoneRules.load(name) else {
                return .failure(SkillError(.invalidInput, "request: member \"timeZone\": expected an IANA time zone like \"Asia/Shanghai\", found \(z.serialized)",
                                           hint: "the names are those under \(ZoneRules.zoneinfo)"))
            }
            zone = rules
        }
        return .success(AgentRequest(text: text, source: source, caller: caller, locale: o["locale"]?.stringValue, zone: zone, now: instant))
    }
}
