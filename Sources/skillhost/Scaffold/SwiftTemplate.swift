/// The files of a new Swift skill project (`skillhost new NAME`): a SwiftPM package whose only
/// dependency is the SDK, one `.dynamic` product, an example intent with schemas, keywords and
/// examples, a unit test, and a README. Placeholders: see `ScaffoldNames.fill`.
enum SwiftTemplate {
    static let files: [(path: String, text: String)] = [
        ("Package.swift", package),
        ("Sources/{{MODULE}}/{{MODULE}}.swift", skill),
        ("Tests/{{MODULE}}Tests/{{MODULE}}Tests.swift", tests),
        ("README.md", readme),
        (".gitignore", ".build/\n.swiftpm/\n*.so\n"),
    ]

    static let package = #"""
    // swift-tools-version:6.0
    import PackageDescription

    // {{TITLE}}: a skill for skillhost, built as a shared library (lib{{PRODUCT}}.so). Its only
    // dependency is the skillhost SDK, SkillKit. Build it with the same Swift toolchain as the host
    // (Swift has no stable ABI on Linux; the host refuses a skill built by another toolchain).
    let package = Package(
        name: "{{PRODUCT}}",
        products: [
            // .dynamic: skillhost loads skills as .so files. Do not add -static-stdlib.
            .library(name: "{{PRODUCT}}", type: .dynamic, targets: ["{{MODULE}}"]),
        ],
        dependencies: [
            // The SDK from a skillhost checkout on this machine. From a git server instead:
            //     .package(url: "https://git.example.com/skillhost.git", from: "1.1.0"),
            .package(name: "skillhost", path: "{{SDK}}"),
        ],
        targets: [
            .target(name: "{{MODULE}}", dependencies: [.product(name: "SkillKit", package: "skillhost")]),
            .testTarget(name: "{{MODULE}}Tests", dependencies: ["{{MODULE}}", .product(name: "SkillKit", package: "skillhost")]),
        ]
    )

    """#

    static let skill = ##"""
    import SkillKit

    /// {{TITLE}}: greets people by name. A starting point — replace the intent with what your skill does.
    ///
    /// Everything a host, a person or an LLM agent learns about the skill comes from these declarations:
    /// the id and version identify it, each intent's schemas are enforced by the host before and after
    /// `execute`, and its keywords and examples let `skillhost ask` recognize requests for it.
    struct {{MODULE}}: AgentSkill {
        let id = "{{ID}}"
        let name = "{{TITLE}}"
        let version = "0.1.0"
        let category = "utilities"
        let vendor = "{{VENDOR}}"
        let description = "Greets people by name, in English or Chinese."

        let supportedIntents = [
            SkillIntent(
                name: "{{NS}}.greet",
                description: "Greet a person by name, in English or Chinese.",
                inputSchema: #"""
                {"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":200,"description":"Who to greet."},"language":{"type":"string","enum":["en","zh"],"description":"Language of the greeting; default: the caller's locale."}},"required":["name"],"additionalProperties":false}
                """#,
                outputSchema: #"{"type":"object","properties":{"greeting":{"type":"string"}},"required":["greeting"]}"#,
                flags: [.readOnly, .idempotent],
                keywords: ["en": ["greet", "say hello"], "zh": ["问候", "打招呼"]],
                examples: [SkillExample(lang: "en", text: "greet Ada", input: #"{"name":"Ada"}"#),
                           SkillExample(lang: "zh", text: "跟小明打个招呼", input: #"{"name":"小明","language":"zh"}"#)]),
        ]

        struct GreetInput: Decodable {
            enum Language: String, Decodable { case en, zh }
            let name: String
            let language: Language?  // another value is refused, naming the field
        }

        struct GreetOutput: Encodable {
            let greeting: String
        }

        func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
            switch input.intent {
            case "{{NS}}.greet":
                try input.checkFields(["name", "language"])  // the schema's additionalProperties: false
                let params = try input.decode(GreetInput.self)  // wrong input → SkillError.invalidInput naming the field
                // The host checks the schema first; the skill checks it too (`skillhost validate` sends
                // input that breaks it), plus the rules a schema cannot say.
                try input.check(!params.name.allSatisfy(\.isWhitespace), "field \"name\": expected a name, found only spaces")
                try input.check(params.name.count <= 200, "field \"name\": expected at most 200 characters, found \(params.name.count)")
                let chinese = params.language.map { $0 == .zh } ?? context.locale.hasPrefix("zh")
                let greeting = chinese ? "你好，\(params.name)！" : "Hello, \(params.name)!"
                return try SkillResult(GreetOutput(greeting: greeting), message: greeting)
            default:
                throw SkillError.invalidInput("unknown intent \(input.intent)")
            }
        }
    }

    /// The one symbol skillhost looks for. It must stay `public` (check with `nm -D lib{{PRODUCT}}.so`).
    @_cdecl("skillhost_entry")
    public func skillhost_entry() -> UnsafeRawPointer {
        exportSkill({{MODULE}}())
    }

    """##

    static let tests = ##"""
    import Foundation
    import SkillKit
    import XCTest
    @testable import {{MODULE}}

    /// Calls `execute` directly, without a host. `skillhost validate` checks the built .so through a
    /// real host (schemas, examples, wrong input, concurrency, memory).
    final class {{MODULE}}Tests: XCTestCase {
        let skill = {{MODULE}}()

        func context(locale: String = "en") -> SkillContext {
            SkillContext(dataDirectory: NSTemporaryDirectory() + "{{ID}}", locale: locale)
        }

        func testGreetsInTheCallersLanguage() async throws {
            let english = try await skill.execute(input: SkillInput(intent: "{{NS}}.greet", json: #"{"name":"Ada"}"#), context: context())
            XCTAssertEqual(english.message, "Hello, Ada!")
            XCTAssertEqual(english.jsonString, #"{"greeting":"Hello, Ada!"}"#)
            let chinese = try await skill.execute(input: SkillInput(intent: "{{NS}}.greet", json: #"{"name":"小明"}"#), context: context(locale: "zh-CN"))
            XCTAssertEqual(chinese.message, "你好，小明！")
        }

        func testWrongInputIsInvalidInputNamingTheField() async {
            for json in [#"{}"#, #"{"name":42}"#, #"{"name":"   "}"#, #"{"name":"Ada","language":"fr"}"#] {
                do {
                    _ = try await skill.execute(input: SkillInput(intent: "{{NS}}.greet", json: json), context: context())
                    XCTFail("\(json) should be refused")
                } catch let error as SkillError {
                    XCTAssertEqual(error.kind, "invalid_input", "\(json)")
                    XCTAssertTrue(error.message.contains("name") || error.message.contains("language"), error.message)
                } catch {
                    XCTFail("\(json): unexpected \(error)")
                }
            }
        }
    }

    """##

    static let readme = #"""
    # {{TITLE}}

    A skill for [skillhost](https://git.example.com/skillhost), in Swift: `{{ID}}`, intent `{{NS}}.greet`.

    ## Build, test, check, install

        swift build -c release                  # → .build/release/lib{{PRODUCT}}.so
        swift test                              # unit tests of execute()
        skillhost validate .build/release/lib{{PRODUCT}}.so    # conformance: manifest, examples, wrong input, concurrency, memory
        skillhost install .build/release/lib{{PRODUCT}}.so     # validates, then moves it into the skill folder atomically
        skillhost invoke {{NS}}.greet --input '{"name":"Ada"}' --json

    Build with the same Swift toolchain as the host (`swift --version`, and `skillhost --version` shows
    the host's); a skill built by another Swift version is refused with a message naming both.

    ## Make it yours

    - `Sources/{{MODULE}}/{{MODULE}}.swift`: the id, version (semantic versioning: raise it with every
      release — when two files hold the same id, the newest version wins), and the intents.
    - Each intent: a dotted name, JSON Schemas for input and output (the host validates both), flags
      (read-only, idempotent, destructive, open-world), keywords and examples per language.
    - A change that would break callers (a new required field, a renamed one) ships as a second
      `SkillIntent` with the same name and `version: 2`, keeping the first; callers pin `{{NS}}.greet@1`.
    - `SkillContext` gives you the caller's locale, time zone and "now", your config section, a data
      folder, progress reports, cancellation and `timeLeft` before the host's deadline.

    The SDK dependency points at a skillhost checkout (`Package.swift`); switch it to the git URL to
    build elsewhere.

    """#
}
