import Foundation

/// The input of one call: the intent name and the raw UTF-8 JSON object the caller sent (already
/// validated by the host against the intent's input schema). A value copied out of the `skh_call`, so it
/// stays valid after the call completes.
public struct SkillInput: Sendable {
    /// The intent being invoked, as `SkillIntent.address`: its name for version 1 (`"echo.say"`),
    /// `"name@N"` for later versions (`"echo.say@2"`). Switch on this.
    public let intent: String
    /// The raw UTF-8 JSON object.
    public let json: [UInt8]

    public init(intent: String, json: [UInt8]) {
        self.intent = intent
        self.json = json
    }

    /// Convenience for tests: `SkillInput(intent: "echo.say", json: #"{"text":"hi"}"#)`.
    public init(intent: String, json: String) {
        self.init(intent: intent, json: Array(json.utf8))
    }

    /// Decodes the input as `JSONDecoder` does (the same values, the same errors; plain input takes a
    /// quicker path that gives the same result). `Date` properties decode from RFC 3339 strings.
    ///
    /// - Throws: `SkillError.invalidInput` with a message that names the field path and what was
    ///   expected, e.g. `field "from": expected a string, found a number`,
    ///   `missing required field "title"`, `field "items[2].name": expected a string, found null`.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try SkillJSON.decode(T.self, from: json)
        } catch let error as DecodingError {
            throw SkillError.invalidInput(DecodingErrorMessage.describe(error, json: json))
        }
    }

    /// Refuses a member of the input object that is not in `fields`, as an input schema with
    /// `"additionalProperties": false` says (the host checks the schema first; `skillhost validate`
    /// sends such input straight to the skill and warns when it is accepted).
    ///
    /// - Throws: `SkillError.invalidInput` naming the first unknown field and the accepted ones.
    public func checkFields(_ fields: Set<String>) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw SkillError.invalidInput("unknown field \"\(unknown)\": this intent accepts \(fields.sorted().map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }

    /// Rule validation the schema cannot express: throws `SkillError.invalidInput(message())` when
    /// `condition` is false. Example: `try input.check(from <= to, "field \"from\" must not be after \"to\"")`.
    public func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw SkillError.invalidInput(message()) }
    }

    /// Parses `YYYY-MM-DD`; same as `SkillDates.day(_:field:)`.
    public static func parseDate(_ text: String, field: String) throws -> (year: Int, month: Int, day: Int) {
        try SkillDates.day(text, field: field)
    }

    /// Parses an RFC 3339 date-time; same as `SkillDates.instant(_:field:)`.
    public static func parseDateTime(_ text: String, field: String) throws -> Date {
        try SkillDates.instant(text, field: field)
    }
}
