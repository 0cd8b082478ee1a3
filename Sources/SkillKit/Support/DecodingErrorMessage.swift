import Foundation

/// Turns a `DecodingError` into one sentence that names the field path and what was expected.
enum DecodingErrorMessage {
    static func describe(_ error: DecodingError, json: [UInt8]) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            let codingPath: [any CodingKey] = context.codingPath + [key]
            return "missing required field \(SkillJSON.quote(path(codingPath)))"
        case .typeMismatch(let type, let context):
            return "\(subject(context.codingPath)): expected \(expected(type)), found \(found(context.codingPath, json))"
        case .valueNotFound(let type, let context):
            return "\(subject(context.codingPath)): expected \(expected(type)), found null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                guard let root = SkillJSON.object(json) else {
                    return "input is not valid JSON: \(context.debugDescription)"
                }
                // Foundation's JSONDecoder reports a number that does not fit the property's type (1.5 for an
                // Int, 1e30 for an Int64) as "not valid JSON" without a path. Find the likely culprit.
                if let (codingPath, number) = nonIntegerNumbers(root, "").first {
                    return "field \(SkillJSON.quote(codingPath)): expected an integer, found \(number)"
                }
                return "input: a number does not fit the type the skill expects (\(context.debugDescription))"
            }
            let value = foundValue(context.codingPath, json)
            let detail = context.debugDescription
            if detail.contains("fit in") || detail.contains("representable") {
                return "\(subject(context.codingPath)): expected an integer in range, found \(value.map(render) ?? "another value")"
            }
            if detail.hasPrefix("Cannot initialize") {
                return "\(subject(context.codingPath)): \(value.map(render) ?? "the value") is not one of the allowed values"
            }
            return "\(subject(context.codingPath)): \(detail)\(value.map { ", found \(render($0))" } ?? "")"
        @unknown default:
            return String(describing: error)
        }
    }

    /// `field "a.b[2].c"`, or `input` for the root.
    static func subject(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "input" : "field \(SkillJSON.quote(path(codingPath)))"
    }

    /// `a.b[2].c`
    static func path(_ codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out
    }

    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type, is Character.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
             is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type: return "an integer"
        case is Double.Type, is Float.Type, is Decimal.Type: return "a number"
        case is Date.Type: return "an RFC 3339 date-time string"
        case is URL.Type: return "a URL string"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") || (name.hasPrefix("[") && !name.contains(":")) { return "an array" }
            return "an object"
        }
    }

    static func found(_ codingPath: [any CodingKey], _ json: [UInt8]) -> String {
        guard let value = foundValue(codingPath, json) else { return "another type" }
        return SkillJSON.kind(of: value)
    }

    /// The JSON value at `codingPath` in the input, if it can be followed.
    static func foundValue(_ codingPath: [any CodingKey], _ json: [UInt8]) -> Any? {
        guard var value = SkillJSON.object(json) else { return nil }
        for key in codingPath {
            if let object = value as? [String: Any], let next = object[key.stringValue] {
                value = next
            } else if let array = value as? [Any], let index = key.intValue, array.indices.contains(index) {
                value = array[index]
            } else {
                return nil
            }
        }
        return value
    }

    /// Numbers with a fraction or beyond the 64-bit integer range, with their paths, in key order.
    static func nonIntegerNumbers(_ value: Any, _ path: String) -> [(String, String)] {
        switch value {
        case let object as [String: Any]:
            return object.keys.sorted().flatMap { key in
                nonIntegerNumbers(object[key]!, path.isEmpty ? key : path + "." + key)
            }
        case let array as [Any]:
            return array.enumerated().flatMap { nonIntegerNumbers($1, path + "[\($0)]") }
        case let n as NSNumber where SkillJSON.kind(of: n) == "a number":
            let d = n.doubleValue
            return d.rounded() != d || abs(d) >= 9.2e18 ? [(path, n.stringValue)] : []
        default:
            return []
        }
    }

    /// A short rendering of a found value: strings quoted, numbers as written, others by kind.
    static func render(_ value: Any) -> String {
        if let s = value as? String { return SkillJSON.quote(s.count > 60 ? String(s.prefix(60)) + "…" : s) }
        if let n = value as? NSNumber, SkillJSON.kind(of: n) == "a number" { return n.stringValue }
        return SkillJSON.kind(of: value)
    }
}
