/// One intent as `skillhost describe INTENT` shows it — the way a person (or a model reading an
/// error hint) needs it to write a call: each input with its type, whether it is required, its
/// allowed values, default, limits and description; the example inputs; the flags; the surfaces
/// allowed to call it; the skill that serves it, and the skills calls fall back to.
public struct IntentDescription: Sendable {
    /// One top-level member of the input schema's `properties`.
    public struct Input: Sendable {
        public var name: String
        /// "string", "integer", "number or string", "array of string", … ("any" when the schema says nothing).
        public var type: String
        public var required: Bool
        /// The allowed values (`enum`, or `const` as a single value); nil when any value of the type goes.
        public var allowed: [JSON]?
        public var defaultValue: JSON?
        public var description: String?
        /// Limits in words: "format date", "1 to 16", "at most 200 characters", "pattern ^…$".
        public var limits: [String]
    }

    public var intent: IntentManifest
    public var skill: RegisteredSkill
    public var manifest: SkillManifest
    public var inputs: [Input]
    /// Groups of inputs of which at least one group must be given in full (from `anyOf`/`oneOf`),
    /// e.g. [["latitude","longitude"],["place"]].
    public var alternatives: [[String]]
    /// Other skills declaring the intent, in the order calls fall back to them.
    public var fallbacks: [String]

    /// `describe --json`: {"intent","name","version","description","flags","surfaces","skill":{id,
    /// name,version,path,isolation},"inputs":[…],"requiresOneOf","inputSchema","outputSchema",
    /// "examples","fallbacks"}. Surfaces add their own members (the MCP tool name).
    public var json: JSON {
        .object(JSONObject([
            ("intent", .string(intent.address)), ("name", .string(intent.name)), ("intentVersion", .int(Int64(intent.version))),
            ("description", .string(intent.description)),
            ("flags", .array(intent.flags.names.map(JSON.string))),
            ("surfaces", .array(intent.surfaces.names.map(JSON.string))),
            ("skill", .object(JSONObject([("id", .string(skill.id)), ("name", .string(manifest.name)),
                                          ("version", .string(manifest.version.description)), ("path", .string(skill.file.path)),
                                          ("isolation", .string(skill.isolation.rawValue))]))),
            ("inputs", .array(inputs.map { i in
                var o = JSONObject([("name", .string(i.name)), ("type", .string(i.type)), ("required", .bool(i.required))])
                if let a = i.allowed { o["enum"] = .array(a) }
                if let d = i.defaultValue { o["default"] = d }
                if let d = i.description { o["description"] = .string(d) }
                if !i.limits.isEmpty { o["limits"] = .array(i.limits.map(JSON.string)) }
                return .object(o)
            })),
            ("requiresOneOf", .array(alternatives.map { .array($0.map(JSON.string)) })),
            ("inputSchema", intent.inputSchema), ("outputSchema", intent.outputSchema ?? .null),
            ("examples", .array(intent.examples.map { e in
                .object(JSONObject([("lang", .string(e.lang)), ("text", .string(e.text)), ("input", e.input ?? .null)]))
            })),
            ("fallbacks", .array(fallbacks.map(JSON.string))),
        ]))
    }

    init(intent: IntentManifest, skill: RegisteredSkill, manifest: SkillManifest, fallbacks: [String]) {
        self.intent = intent
        self.skill = skill
        self.manifest = manifest
        self.fallbacks = fallbacks
        let schema = intent.inputSchema
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let properties = schema["properties"]?.objectValue ?? JSONObject()
        inputs = properties.map { member in
            Self.input(member.key, member.value, required: required.contains(member.key))
        }
        alternatives = (schema["anyOf"]?.arrayValue ?? schema["oneOf"]?.arrayValue ?? []).compactMap { branch in
            branch["required"]?.arrayValue?.compactMap(\.stringValue)
        }.filter { !$0.isEmpty }
    }

    static func input(_ name: String, _ s: JSON, required: Bool) -> Input {
        var limits: [String] = []
        if let f = s["format"]?.stringValue { limits.append("format \(f)") }
        let low = s["minimum"]?.doubleValue, high = s["maximum"]?.doubleValue
        if let low, let high { limits.append("\(number(low)) to \(number(high))") }
        else if let low { limits.append("at least \(number(low))") }
        else if let high { limits.append("at most \(number(high))") }
        if let n = s["minLength"]?.doubleValue, n > 0 { limits.append(n == 1 ? "not empty" : "at least \(number(n)) characters") }
        if let n = s["maxLength"]?.doubleValue { limits.append("at most \(number(n)) characters") }
        if let n = s["minItems"]?.doubleValue, n > 0 { limits.append(n == 1 ? "at least one item" : "at least \(number(n)) items") }
        if let n = s["maxItems"]?.doubleValue { limits.append("at most \(number(n)) items") }
        if let p = s["pattern"]?.stringValue { limits.append("pattern \(p)") }
        let allowed = s["enum"]?.arrayValue ?? s["const"].map { [$0] }
        return Input(name: name, type: typeName(s), required: required, allowed: allowed, defaultValue: s["default"],
                     description: s["description"]?.stringValue, limits: limits)
    }

    /// The schema's type in words.
    static func typeName(_ s: JSON) -> String {
        let types = s["type"]?.stringValue.map { [$0] } ?? s["type"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let words = types.map { t -> String in
            t == "array" ? (s["items"].map { "array of " + typeName($0) } ?? "array") : t
        }
        if words.isEmpty { return s["enum"] != nil ? "one of the values" : "any" }
        return words.joined(separator: " or ")
    }

    private static func number(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }
}

extension SkillHost {
    /// The intent `name` ("name" or "name@N") as the first skill that serves it declares it; no_skill
    /// (with near names) when no registered skill does.
    public func describe(intent name: String) -> Result<IntentDescription, SkillError> {
        let bindings = registry.bindings(for: name)
        guard let b = bindings.first else {
            let near = registry.suggestions(for: name)
            return .failure(SkillError(.noSkill, "no skill declares the intent \"\(name)\"",
                                       hint: near.isEmpty ? "run `skillhost list` to see the intents on offer" : "did you mean \(near.prefix(5).joined(separator: ", "))?"))
        }
        guard let m = registry.manifest(of: b.skill), let intent = m.intents.first(where: { $0.address == b.intent.address }) else {
            return .failure(SkillError(.internal, "the manifest of \(b.skill.id) (\(b.skill.file.path)) cannot be read back from the scan",
                                       hint: "run `skillhost doctor`; remove the scan cache in \(paths.stateDir) if it persists"))
        }
        return .success(IntentDescription(intent: intent, skill: b.skill, manifest: m, fallbacks: bindings.dropFirst().map(\.skill.id)))
    }
}
