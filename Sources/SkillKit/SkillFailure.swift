import Foundation

/// A `SkillError` together with a JSON object of details a program can act on, e.g. the candidates of
/// an ambiguous name: `throw SkillFailure(.invalidInput("…"), details: ["candidates": […]])`.
///
/// The bridge completes the call with the error's status, its message, and the details as the ABI's
/// failure `result_json`; the host shows them as `error.details` (`skillhost invoke --json`, MCP results,
/// the audit log). Throwing a plain `SkillError` is the same failure without details.
public struct SkillFailure: Error, Sendable, CustomStringConvertible {
    /// How the call failed; its message is what a person reads.
    public let error: SkillError
    /// A UTF-8 JSON object.
    public let detailsJSON: [UInt8]

    /// `details` must encode to a JSON object (a struct or a dictionary); anything else, or a value that
    /// cannot be encoded, leaves the failure without details rather than hiding `error`.
    public init<Details: Encodable>(_ error: SkillError, details: Details) {
        self.error = error
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(details), data.first == UInt8(ascii: "{") {
            detailsJSON = Array(data)
        } else {
            detailsJSON = Array("{}".utf8)
        }
    }

    public var description: String { error.description }
}
