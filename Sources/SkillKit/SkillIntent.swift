internal import SkillABI

/// One thing a skill can do, as the host and callers see it. Mirrors `skh_intent` in `skillhost.h`.
///
/// Strings are copied into the exported C struct once, by `exportSkill`, and never change afterwards.
public struct SkillIntent: Sendable {
    /// Dotted lowercase name, unique within the skill, at least two segments: `"calendar.events.list"`.
    public var name: String
    /// One or two sentences, for people and for LLMs choosing a tool.
    public var description: String
    /// JSON Schema (text) for the input; the root must be `{"type":"object", …}`. The host validates
    /// every input against it before `execute` sees it.
    public var inputSchema: String
    /// JSON Schema (text) the result matches, or `nil` for "any JSON value".
    public var outputSchema: String?
    public var flags: IntentFlags
    public var surfaces: Surfaces
    /// When several skills serve one intent, higher priority is tried first (0 = normal).
    public var priority: Int32
    /// 0.0–1.0: how well this skill serves the intent; orders equal priorities.
    public var confidence: Double
    /// Words and phrases that signal this intent, per BCP 47 language: `["en": ["meeting"], "zh": ["会议"]]`.
    public var keywords: [String: [String]]
    /// Example requests, for intent recognition and documentation.
    public var examples: [SkillExample]
    /// The version of this intent's contract (ABI 1.1, `skh_intent.version`). A breaking change to the
    /// schemas or the meaning ships as a second `SkillIntent` with the same name and `version + 1`, the
    /// old one kept; callers address `"name@2"`, and a bare `"name"` reaches the highest version.
    public var version: Int
    /// Intents this one's result can feed, for the agent engine (ABI 1.3, `skh_intent.feeds`): after
    /// this intent runs, `skillhost ask` may run each with input fields taken from this result.
    public var feeds: [SkillFeed]
    /// How the host addresses this intent, and what `SkillInput.intent` holds for it: `"name"` for
    /// version 1, `"name@N"` after.
    public var address: String { version <= 1 ? name : "\(name)@\(version)" }

    public init(name: String, description: String, inputSchema: String, outputSchema: String? = nil,
                flags: IntentFlags = [], surfaces: Surfaces = .all, priority: Int32 = 0,
                confidence: Double = 1.0, keywords: [String: [String]] = [:], examples: [SkillExample] = [],
                version: Int = 1, feeds: [SkillFeed] = []) {
        self.name = name
        self.feeds = feeds
        self.version = version
        self.description = description
        self.inputSchema = inputSchema
        self.outputSchema = outputSchema
        self.flags = flags
        self.surfaces = surfaces
        self.priority = priority
        self.confidence = confidence
        self.keywords = keywords
        self.examples = examples
    }
}

/// An example request: `SkillExample(lang: "en", text: "what's on today", input: #"{"from":"2025-03-01"}"#)`.
public struct SkillExample: Sendable, Equatable {
    /// BCP 47 language of `text`.
    public var lang: String
    /// What a person would say.
    public var text: String
    /// A valid input for the intent, as JSON text, or `nil`. Invalid JSON is left out of the manifest
    /// (and reported through the host log at `init`).
    public var input: String?

    public init(lang: String, text: String, input: String? = nil) {
        self.lang = lang
        self.text = text
        self.input = input
    }
}

/// A chain rule an intent declares: after it, the agent engine may run `intent` with each input field
/// taken from this intent's result — the values at `path` (dotted, `[*]` for every array element)
/// reduced to one day:
///
///     SkillFeed(intent: "calendar.events.list", fields: [
///         "from": .init(path: "messages[*].event.start", pick: .earliestDay),
///         "to": .init(path: "messages[*].event.start", pick: .latestDay)])
public struct SkillFeed: Sendable, Equatable {
    public enum Pick: String, Sendable { case earliestDay, latestDay }
    public struct Field: Sendable, Equatable {
        public var path: String
        public var pick: Pick
        public init(path: String, pick: Pick) { (self.path, self.pick) = (path, pick) }
    }
    /// The intent fed (a name, or "name@N").
    public var intent: String
    /// Its input fields, by name.
    public var fields: [String: Field]

    public init(intent: String, fields: [String: Field]) { (self.intent, self.fields) = (intent, fields) }
}

/// `SKH_INTENT_*` bits.
public struct IntentFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Only reads; calling it any number of times changes nothing.
    public static let readOnly = IntentFlags(rawValue: UInt32(SKH_INTENT_READ_ONLY))
    /// Deletes or overwrites something a person would miss; policy may ask for confirmation.
    public static let destructive = IntentFlags(rawValue: UInt32(SKH_INTENT_DESTRUCTIVE))
    /// Calling it twice with the same input has the same effect as calling it once.
    public static let idempotent = IntentFlags(rawValue: UInt32(SKH_INTENT_IDEMPOTENT))
    /// Reaches outside this machine (a web API): answers depend on the world, not only on the input.
    public static let openWorld = IntentFlags(rawValue: UInt32(SKH_INTENT_OPEN_WORLD))
}

/// `SKH_SURFACE_*` bits: who may call an intent. The host may narrow this, never widen it.
/// Note: the ABI reads an empty set (0) as `.all`.
public struct Surfaces: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A person at a terminal.
    public static let human = Surfaces(rawValue: UInt32(SKH_SURFACE_HUMAN))
    /// Scripts and non-interactive callers.
    public static let automation = Surfaces(rawValue: UInt32(SKH_SURFACE_AUTOMATION))
    /// Outside LLM agents (MCP).
    public static let agent = Surfaces(rawValue: UInt32(SKH_SURFACE_AGENT))
    /// Everyone.
    public static let all: Surfaces = [.human, .automation, .agent]
}
