/// Builds an intent's input from a clause, following the intent's input schema — never a list of
/// intents known to the host. For each property:
///   format "date"        the day range the clause names: start for names like from/start/since, end
///                        for to/end/until; when required and nothing is said, today (an assumption)
///   format "date-time"   the day and time the clause names (09:00 when only a day is said; the next
///                        day when only a time is said and it has passed today)
///   integer "days"       the number of days from today through the end of the named range
///   number + unit enums  a quantity with its unit ("5 km", "72°F", "3公里", "半斤" = 250 g): the first
///                        required number gets the amount, the unit enum property named like to/target/
///                        into gets the other unit the clause names, the other one the amount's unit
///                        (units and their words come from the language packs, see `Quantities`)
///   string with "enum"   a value of the enum that the clause contains
///   string named place, location, city
///                        the place the clause names ("weather in Tokyo", "东京天气": before one of the
///                        intent's keywords, its `topics`), as written
///   string named title, text, subject, name, note, content, query, message — or the only required
///                        free-text string of the intent (no format, no enum)
///                        the clause without the words that asked for the intent and without the
///                        time expressions ("提醒我明天买牛奶" → "买牛奶"); a quoted part wins
/// Then the configured defaults (`agent.defaults`) fill what is still open. Required fields that stay
/// open are returned as missing: the engine asks instead of guessing.
enum ParameterFiller {
    struct Filled {
        var parameters = JSONObject()
        var missing: [String] = []
        var assumptions: [String] = []
    }

    static let titleNames: Set<String> = ["title", "text", "subject", "name", "note", "content", "query", "message"]
    static let placeNames: Set<String> = ["place", "location", "city", "where"]

    static func fill(schema: JSON, clause: String, time: TimeSpec?, matched: [String], topics: [String] = [], request: AgentRequest,
                     defaults: JSONObject?) -> Filled {
        var out = Filled()
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let lowerClause = clause.lowercased()
        let properties = schema["properties"]?.objectValue ?? JSONObject()
        let freeText = properties.filter { m in
            required.contains(m.key) && m.value["type"]?.stringValue == "string" && m.value["format"] == nil && m.value["enum"] == nil
                && !WriteGuard.isIdentifier(m.key)
        }.map(\.key)
        let quantity = Quantities.fill(properties: properties, required: required, clause: clause)
        for (name, value) in quantity { out.parameters[name] = value }
        for (name, property) in properties where quantity[name] == nil {
            let type = property["type"]?.stringValue ?? ""
            let format = property["format"]?.stringValue ?? ""
            let lname = name.lowercased()
            if format == "date" {
                let isEnd = ["to", "end", "until", "till"].contains { lname.hasPrefix($0) || lname.hasSuffix($0.capitalized) }
                if let time {
                    out.parameters[name] = .string((isEnd ? time.end : time.start).description)
                } else if required.contains(name) {
                    out.parameters[name] = .string(request.today.description)
                    out.assumptions.append("\(name): today (no day was named)")
                }
            } else if format == "date-time" {
                guard let time else { continue }
                var day = time.start
                let hour = time.hour ?? 9, minute = time.minute ?? 0
                if time.hour == nil { out.assumptions.append("\(name): 09:00 (no time of day was named)") }
                var instant = request.zone.instant(day, hour: hour, minute: minute)
                if !time.dayGiven, instant < request.now {
                    day = day.adding(days: 1)
                    instant = request.zone.instant(day, hour: hour, minute: minute)
                    out.assumptions.append("\(name): tomorrow (that time has passed today)")
                }
                out.parameters[name] = .string(request.zone.rfc3339(instant))
            } else if type == "integer", lname == "days" || lname.hasSuffix("days") {
                guard let time else { continue }
                var n = time.end.dayNumber - request.today.dayNumber + 1
                if let min = property["minimum"]?.intValue { n = max(n, Int(min)) }
                if let max = property["maximum"]?.intValue { n = min(n, Int(max)) }
                out.parameters[name] = .int(Int64(max(n, 1)))
            } else if type == "string", property["enum"] == nil, property["format"] == nil, Self.placeNames.contains(lname) {
                if let place = LanguagePacks.all.lazy.compactMap({ $0.place(in: clause, removing: time?.phrases ?? [], topics: topics) }).first {
                    out.parameters[name] = .string(place)
                    out.assumptions.append("\(name): \(place) (named in the request)")
                }
            } else if type == "string", let options = property["enum"]?.arrayValue?.compactMap(\.stringValue) {
                // Latin values as whole words ("m" is not in "meetings"); unit enums are `Quantities`' job.
                let words = Set(TextMatching.words(lowerClause))
                let units = options.contains { o in LanguagePacks.unitWords.contains { $0.unit == o } }
                if !units, let hit = options.first(where: { o in
                    !o.isEmpty && (TextMatching.hasCJK(o) ? lowerClause.contains(o.lowercased()) : words.contains(TextMatching.stem(o.lowercased())))
                }) {
                    out.parameters[name] = .string(hit)
                }
            } else if type == "string", titleNames.contains(lname) || freeText == [name], required.contains(name) || defaults?[name] == nil {
                if let title = title(from: clause, removing: matched + (time?.phrases ?? [])) {
                    out.parameters[name] = .string(title)
                }
            }
        }
        for (name, value) in defaults ?? JSONObject() where out.parameters[name] == nil {
            out.parameters[name] = value
            out.assumptions.append("\(name): \(value.serialized) (agent.defaults)")
        }
        out.missing = required.sorted().filter { out.parameters[$0] == nil }
        return out
    }

    /// The thing a clause talks about: a quoted part, else the clause without `words` and the usual
    /// request phrasing around them (the language packs' `titleLeading` and `titleTrailing`).
    static func title(from clause: String, removing words: [String]) -> String? {
        for (open, close) in [("“", "”"), ("「", "」"), ("\"", "\""), ("‘", "’"), ("'", "'")] {
            let parts = clause.split(separator: Character(open), maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, let end = parts[1].firstIndex(of: Character(close)) {
                let inner = String(parts[1][..<end]).trimmingWhitespace()
                if !inner.isEmpty { return inner }
            }
        }
        var text = " " + clause + " "
        for w in words.sorted(by: { $0.count > $1.count }) where !w.isEmpty {
            text = TextMatching.removing(w, from: text)
        }
        let leading = LanguagePacks.titleLeading, trailing = LanguagePacks.titleTrailing
        var s = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var changed = true
        while changed {
            changed = false
            for p in leading where s.lowercased().hasPrefix(p) {
                s = String(s.dropFirst(p.count)).trimmingWhitespace()
                changed = true
            }
            for p in trailing where s.lowercased().hasSuffix(p) {
                s = String(s.dropLast(p.count)).trimmingWhitespace()
                changed = true
            }
        }
        return s.isEmpty ? nil : s
    }
}
