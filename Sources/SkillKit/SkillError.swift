/// An error a skill throws to say *how* a call failed. The bridge maps each case to an ABI status:
///
/// | case              | status                      | host error kind  |
/// |-------------------|-----------------------------|------------------|
/// | `.invalidInput`   | `SKH_STATUS_INVALID_INPUT`  | `invalid_input`  |
/// | `.unavailable`    | `SKH_STATUS_UNAVAILABLE`    | `unavailable`    |
/// | `.cancelled`      | `SKH_STATUS_CANCELLED`      | `cancelled`      |
/// | `.failed`         | `SKH_STATUS_FAILED`         | `internal`       |
///
/// Any other error thrown from `execute` completes the call with `SKH_STATUS_FAILED` and
/// `String(describing: error)` as the message. The associated string is the message the caller sees:
/// say which field or resource is at fault and, where possible, what would fix it.
public enum SkillError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is wrong in a way the schema could not express. Name the field.
    case invalidInput(String)
    /// Something the skill depends on is missing (file, server, credential, configuration).
    case unavailable(String)
    /// The skill stopped because `SkillContext.isCancelled` became true.
    case cancelled(String)
    /// Any other failure inside the skill.
    case failed(String)

    /// The message carried by the error.
    public var message: String {
        switch self {
        case .invalidInput(let m), .unavailable(let m), .cancelled(let m), .failed(let m): m
        }
    }

    /// The host's error-kind spelling for this case (`invalid_input`, `unavailable`, `cancelled`, `internal`).
    public var kind: String {
        switch self {
        case .invalidInput: "invalid_input"
        case .unavailable: "unavailable"
        case .cancelled: "cancelled"
        case .failed: "internal"
        }
    }

    public var description: String { "\(kind): \(message)" }
}
