/// One intent found in a request, with the parameters extracted for it.
public struct RecognizedIntent: Sendable {
    public var intent: String
    public var skillID: String
    /// 0–1: how sure the recognizer is.
    public var confidence: Double
    /// The part of the request it came from.
    public var clause: String
    /// Keywords (as declared by the skill) found in the clause.
    public var matched: [String]
    /// The input built for the intent's schema (an object).
    public var parameters: JSONObject
    /// Required input fields the request did not give.
    public var missing: [String]
    /// How parameters were decided where the request did not say ("from: today (no date given)").
    public var assumptions: [String]
    /// An identifier to look up before the call (see `Lookups`).
    public var lookup: Lookup? = nil

    public var json: JSON {
        .object(JSONObject([
            ("intent", .string(intent)), ("skill", .string(skillID)), ("confidence", .double((confidence * 1000).rounded() / 1000)),
            ("clause", .string(clause)), ("matched", .array(matched.map(JSON.string))), ("parameters", .object(parameters)),
            ("missing", .array(missing.map(JSON.string))), ("assumptions", .array(assumptions.map(JSON.string))),
            ("lookup", lookup?.json ?? .null),
        ]))
    }
}

/// A question back to the person instead of a guess.
public struct Clarification: Sendable {
    public var intent: String?
    public var question: String
    public var json: JSON {
        .object(JSONObject([("intent", intent.map(JSON.string) ?? .null), ("question", .string(question))]))
    }
}

/// What a recognizer made of a request.
public struct Recognition: Sendable {
    public var intents: [RecognizedIntent] = []
    /// Asked instead of acting: low confidence, or a required parameter missing.
    public var questions: [Clarification] = []
    /// The request's text as the recognizer read it (normalized), which `clause`s are parts of.
    public var text: String?
    public init(intents: [RecognizedIntent] = [], questions: [Clarification] = [], text: String? = nil) {
        self.intents = intents
        self.questions = questions
        self.text = text
    }
}

/// Turns a request into intents. `KeywordRecognizer` is the built-in one; a better one (a skill that
/// wraps a local model, say) can replace it without touching the rest of the engine.
public protocol IntentRecognizer: Sendable {
    func recognize(_ request: AgentRequest, catalog: IntentCatalog, defaults: [String: JSONObject]) -> Recognition
}
