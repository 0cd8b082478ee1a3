import Foundation

/// The successful outcome of a call: a UTF-8 JSON value matching the intent's output schema, and an
/// optional one-sentence summary for people.
///
/// Encoding (the `Encodable` initializer): `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes`, so equal values give byte-identical JSON; `Date` values are written as
/// RFC 3339 strings *with an offset* via `SkillDates.format` — in UTC (`2025-03-01T01:30:00Z`) unless
/// you pass `timeZone` (`2025-03-01T09:30:00+08:00`); milliseconds only when not zero.
public struct SkillResult: Sendable {
    /// The JSON value, UTF-8.
    public let json: [UInt8]
    /// One sentence for people, or `nil`.
    public let message: String?

    /// Encodes `value` as described above.
    /// - Throws: `EncodingError` (e.g. a NaN `Double`); thrown from `execute` it completes the call with
    ///   `SKH_STATUS_FAILED`.
    public init<T: Encodable>(_ value: T, message: String? = nil, timeZone: TimeZone = SkillDates.utc) throws {
        // The quick path writes the same bytes as the encoder for the common case (see QuickEncoding).
        self.json = try QuickEncoding.encode(value, timeZone: timeZone)
            ?? Array(SkillJSON.encoder(timeZone: timeZone).encode(value))
        self.message = message
    }

    /// Uses `json` as is. It must be a valid UTF-8 JSON value; the SDK does not check it.
    public init(json: [UInt8], message: String? = nil) {
        self.json = json
        self.message = message
    }

    /// The JSON as a `String` (for tests and logs).
    public var jsonString: String { String(decoding: json, as: UTF8.self) }
}
