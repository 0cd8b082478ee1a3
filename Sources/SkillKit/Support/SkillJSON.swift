import Foundation

/// The SDK's JSON conventions, in one place.
enum SkillJSON {
    /// `T` from `json`: the quick path (`QuickDecoding`) when it is sure, else `decoder`, whose
    /// `DecodingError` the caller turns into a message.
    static func decode<T: Decodable>(_ type: T.Type, from json: [UInt8]) throws -> T {
        do { return try QuickDecoding.decode(T.self, from: json) } catch {}
        return try decoder.decode(T.self, from: Data(json))
    }

    /// Decoder for inputs and configuration: `Date` from an RFC 3339 string (see `SkillDates`). One
    /// instance for every call (JSONDecoder is thread-safe; its options never change after this).
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = SkillDates.parseInstant(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an RFC 3339 date-time such as 2025-03-01T09:30:00+08:00")
            }
            return date
        }
        return decoder
    }()

    /// Encoder for results: sorted keys, unescaped slashes, `Date` as RFC 3339 in `timeZone`. The one
    /// for UTC (the default of `SkillResult`) is made once and shared (JSONEncoder is thread-safe).
    static func encoder(timeZone: TimeZone) -> JSONEncoder {
        timeZone == SkillDates.utc ? utcEncoder : makeEncoder(timeZone: timeZone)
    }

    private static let utcEncoder = makeEncoder(timeZone: SkillDates.utc)

    private static func makeEncoder(timeZone: TimeZone) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(SkillDates.format(date, timeZone: timeZone))
        }
        return encoder
    }

    /// Parses JSON text into Foundation objects, or `nil`.
    static func object(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// "a string", "a number", "null", … for a value from `JSONSerialization`.
    static func kind(of value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case let n as NSNumber:
            // JSONSerialization yields booleans as NSNumber too; they are the ones of Objective-C type "c".
            if n.objCType.pointee == CChar(UInt8(ascii: "c")) { return "a boolean" }
            return "a number"
        default: return "a value"
        }
    }

    /// `s` as a JSON string literal (quotes, backslashes and control characters escaped).
    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if ch.value < 0x20 {
                    let hex = String(ch.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out + "\""
    }
}
