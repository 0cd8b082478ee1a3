import Synchronization

/// What an `ask` response — and so its trace, `ask --json`, `traces`, `replay` and MCP's
/// `skillhost_ask` — never holds in clear text: every value an intent's schema marks secret
/// (`"secret": true` or `"writeOnly": true`, at any depth: `SecretScope`, the rule the audit log
/// follows too). Such values become "[redacted]" in the recognized parameters, the plan's inputs,
/// each step's input (fed values included) and each step's output (under the intent's output
/// schema); and the text of every secret string met is cut from every other text the response
/// carries (`SecretTexts`): the request's sentence, the clauses, lookups, skills' messages and
/// progress, error messages and details, skip reasons, questions, the phases and the answer.
///
/// An intent whose schema is unknown or does not compile is treated as secret as a whole (its input
/// and output are redacted entirely): fail closed. The engine redacts the response once, before the
/// trace is written and before any surface sees it; the phases are scrubbed as they are published.
struct TraceRedaction: Sendable {
    let catalog: IntentCatalog
    /// The secret texts met so far (shared with the request's `PhaseChannel`).
    let texts: SecretTexts
    private let compiled = Compiled()

    init(catalog: IntentCatalog, texts: SecretTexts) {
        (self.catalog, self.texts) = (catalog, texts)
    }

    // MARK: - Values under their schemas

    /// `input` of `intent` with its secrets redacted (and learned); `{"[redacted]":"[redacted]"}` when
    /// the whole input is secret (its schema is marked so, or the intent is unknown).
    func input(_ intent: String, _ input: JSONObject) -> JSONObject {
        guard case .object(let o) = scopes(intent).input.redacting(.object(input), found: { texts.learn($1) }) else {
            return JSONObject([(key: SecretScope.marker, value: .string(SecretScope.marker))])
        }
        return o
    }

    /// `output` of `intent` with what its output schema marks secret redacted (and learned).
    func output(_ intent: String, _ output: JSON) -> JSON {
        scopes(intent).output.redacting(output, found: { texts.learn($1) })
    }

    /// The paths of the secret values in `input` of `intent` ("password", "auth.token"; "" when the
    /// whole input is secret), learning them.
    func secretFields(_ intent: String, _ input: JSONObject) -> [String] {
        var paths: [String] = []
        _ = scopes(intent).input.redacting(.object(input), found: { path, value in
            paths.append(path)
            texts.learn(value)
        })
        return paths
    }

    private func scopes(_ intent: String) -> Compiled.Scopes {
        if let hit = compiled.scopes.withLock({ $0[intent] }) { return hit }
        var s: Compiled.Scopes = (.secret, .secret)
        if let e = catalog.entries.first(where: { $0.intent == intent }), let input = try? JSONSchema(e.inputSchema) {
            s.input = SecretScope(input)
            if let j = e.outputSchema {
                if let output = try? JSONSchema(j) { s.output = SecretScope(output) }
            } else {
                s.output = .plain  // no output schema: nothing is declared secret in the result
            }
        }
        compiled.scopes.withLock { $0[intent] = s }
        return s
    }

    /// The compiled scopes of the intents this request met, by address.
    private final class Compiled: Sendable {
        typealias Scopes = (input: SecretScope, output: SecretScope)
        let scopes = Mutex<[String: Scopes]>([:])
    }

    // MARK: - A whole response

    /// `response` with every secret redacted (see the type's comment). First every schema-described
    /// value (which learns the secret texts), then every text.
    func redact(_ response: AgentResponse) -> AgentResponse {
        var r = response
        for i in r.recognition.intents.indices {
            r.recognition.intents[i].parameters = input(r.recognition.intents[i].intent, r.recognition.intents[i].parameters)
        }
        for i in r.plan.steps.indices { r.plan.steps[i].input = input(r.plan.steps[i].intent, r.plan.steps[i].input) }
        for i in r.steps.indices {
            let intent = r.steps[i].step.intent
            r.steps[i].step.input = input(intent, r.steps[i].step.input)
            r.steps[i].input = input(intent, r.steps[i].input)
            r.steps[i].result = r.steps[i].result.map { output(intent, $0) }
        }
        guard !texts.isEmpty else { return r }
        r.request.text = scrubbedRequest(r.request.text)
        for i in r.recognition.intents.indices {
            var x = r.recognition.intents[i]
            x.clause = texts.scrub(x.clause)
            x.matched = x.matched.map(texts.scrub)
            x.assumptions = x.assumptions.map(texts.scrub)
            x.parameters = scrub(x.parameters)
            if let l = x.lookup { x.lookup?.reference = texts.scrub(l.reference) }
            r.recognition.intents[i] = x
        }
        r.recognition.text = r.recognition.text.map(texts.scrub)
        for i in r.recognition.questions.indices { r.recognition.questions[i].question = texts.scrub(r.recognition.questions[i].question) }
        for i in r.plan.steps.indices { r.plan.steps[i] = scrub(r.plan.steps[i]) }
        for i in r.steps.indices {
            var x = r.steps[i]
            x.step = scrub(x.step)
            x.input = scrub(x.input)
            x.result = x.result.map(texts.scrub)
            x.message = x.message.map(texts.scrub)
            x.skipped = x.skipped.map(texts.scrub)
            x.question = x.question.map(texts.scrub)
            x.progress = x.progress.map(texts.scrub)
            if var e = x.error {
                e.message = texts.scrub(e.message)
                e.hint = e.hint.map(texts.scrub)
                e.details = e.details.map(texts.scrub)
                x.error = e
            }
            r.steps[i] = x
        }
        r.phases = r.phases.map { PhaseEvent(phase: texts.scrub($0.phase), atMs: $0.atMs) }
        r.answer = texts.scrub(r.answer)
        return r
    }

    /// `trace` (a trace file's JSON) redacted as `redact` redacts a response, under the schemas served
    /// now: a trace written before traces were redacted, or edited by hand, shows no secret through
    /// `traces` or `replay` either. A step or intent without its intent's name is redacted whole.
    func redact(trace: JSON) -> JSON {
        guard case .object(var o) = trace else { return trace }
        func mapped(_ list: JSON?, _ body: (JSONObject) -> JSONObject) -> JSON? {
            guard let items = list?.arrayValue else { return list }
            return .array(items.map { item in if case .object(let x) = item { .object(body(x)) } else { item } })
        }
        func redacted(_ x: JSONObject, _ key: String) -> JSONObject {
            var x = x
            let intent = x["intent"]?.stringValue ?? ""
            if let v = x[key] { x[key] = v.objectValue.map { .object(input(intent, $0)) } ?? .string(SecretScope.marker) }
            if key == "input", let out = x["output"] { x["output"] = output(intent, out) }
            return x
        }
        o["intents"] = mapped(o["intents"]) { redacted($0, "parameters") }
        if case .object(var plan)? = o["plan"] {
            plan["steps"] = mapped(plan["steps"]) { redacted($0, "input") }
            o["plan"] = .object(plan)
        }
        o["steps"] = mapped(o["steps"]) { redacted($0, "input") }
        guard !texts.isEmpty, case .object(var all) = texts.scrub(.object(o)) else { return .object(o) }
        if let text = o["request"]?["text"]?.stringValue, case .object(var request)? = all["request"] {
            request["text"] = .string(scrubbedRequest(text))
            all["request"] = .object(request)
        }
        return .object(all)
    }

    /// The request's sentence with the secret texts cut; the marker alone when a secret is still in it
    /// in another form (full-width, traditional characters, spelled-out numerals: what the recognizer
    /// reads is the normalized sentence, where the secret was found).
    func scrubbedRequest(_ text: String) -> String {
        let cut = texts.scrub(text)
        return texts.occurs(in: IntentModel.model(for: catalog).normalizer.normalize(cut)) ? SecretScope.marker : cut
    }

    private func scrub(_ o: JSONObject) -> JSONObject {
        guard case .object(let s) = texts.scrub(.object(o)) else { return o }
        return s
    }

    private func scrub(_ step: PlanStep) -> PlanStep {
        var s = step
        s.input = scrub(s.input)
        for i in s.feeds.indices { s.feeds[i].reference = s.feeds[i].reference.map(texts.scrub) }
        return s
    }
}
