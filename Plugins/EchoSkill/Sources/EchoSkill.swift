import SkillKit

/// A diagnostic skill: `echo.say` returns its input text, `echo.fail` fails on request with the chosen
/// status. Used by the host's tests and by the in-process invoke benchmark, so `echo.say` does as little
/// as it can: one decoding pass over the input and one small encoding pass for the result, on the
/// host's thread with no task per call (a `SynchronousSkill`: nothing here waits).
struct EchoSkill: SynchronousSkill {
    let id = "dev.skillhost.echo"
    let name = "Echo"
    let version = "1.0.0"
    let category = "diagnostics"
    let vendor = "skillhost"
    let description = "Returns its input text, or fails on request; for testing a host."

    let supportedIntents = [
        SkillIntent(
            name: "echo.say",
            description: "Echo the text back, optionally repeated (joined by single spaces).",
            inputSchema: #"""
            {"type":"object","properties":{"text":{"type":"string","description":"The text to echo."},"repeat":{"type":"integer","minimum":1,"maximum":10,"default":1,"description":"How many times to repeat it."}},"required":["text"],"additionalProperties":false}
            """#,
            outputSchema: #"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#,
            flags: [.readOnly, .idempotent],
            keywords: ["en": ["echo", "say back", "repeat after me"], "zh": ["回声", "复述"]],
            examples: [SkillExample(lang: "en", text: "echo hello", input: #"{"text":"hello"}"#),
                       SkillExample(lang: "zh", text: "复述：你好", input: #"{"text":"你好"}"#)]),
        SkillIntent(
            name: "echo.fail",
            description: "Fail on purpose with the given kind of error, for testing error handling.",
            inputSchema: #"""
            {"type":"object","properties":{"kind":{"type":"string","enum":["invalid_input","unavailable","failed","throw","fatal"],"description":"Which error: a SkillError case, \"throw\" for a plain Swift error, or \"fatal\" for a Swift fatalError (the process dies)."},"message":{"type":"string","description":"The error message."}},"required":["kind"],"additionalProperties":false}
            """#,
            flags: [.readOnly, .idempotent]),
    ]

    func run(input: SkillInput, context: SkillContext) throws -> SkillResult {
        switch input.intent {
        case "echo.say":
            let params = try input.decode(SayInput.self)
            let count = params.repeat ?? 1
            try input.check((1...10).contains(count), "field \"repeat\": expected 1 to 10, found \(count)")
            let text = count == 1 ? params.text : Array(repeating: params.text, count: count).joined(separator: " ")
            return try SkillResult(SayOutput(text: text))
        case "echo.fail":
            let params = try input.decode(FailInput.self)
            let message = params.message ?? "echo.fail with kind \(params.kind.rawValue)"
            switch params.kind {
            case .invalidInput: throw SkillError.invalidInput(message)
            case .unavailable: throw SkillError.unavailable(message)
            case .failed: throw SkillError.failed(message)
            case .throw: throw EchoFailure(message: message)
            case .fatal: fatalError(message)  // for hosts' fault tests: kills the process running the skill
            }
        default:
            throw SkillError.invalidInput("unknown intent \(input.intent)")
        }
    }
}

struct SayInput: Decodable {
    let text: String
    let `repeat`: Int?
}

struct SayOutput: Encodable {
    let text: String
}

struct FailInput: Decodable {
    enum Kind: String, Decodable {
        case invalidInput = "invalid_input", unavailable, failed, `throw`, fatal
    }
    let kind: Kind
    let message: String?
}

/// The plain Swift error `echo.fail` throws for kind "throw"; the host sees its description.
struct EchoFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

@_cdecl("skillhost_entry")
public func skillhost_entry() -> UnsafeRawPointer {
    exportSkill(EchoSkill())
}
