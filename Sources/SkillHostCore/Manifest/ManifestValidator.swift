import SkillLoading
import SkillWire

/// Turns what `skillhost-scan` reported about a file into a `SkillManifest`, or into a
/// `Refusal` that says exactly which field is wrong, what was expected and what was found.
///
/// This is the one place that decides whether a skill's declaration is acceptable.
enum ManifestValidator {
    /// The host's ABI version (from skillhost.h).
    static let hostABIMajor = ABIVersion.hostMajor
    static let hostABIMinor = ABIVersion.hostMinor

    /// What the host says about a line from the scan process that is not a JSON object within
    /// `answerDepth` (or does not name the file it should).
    static func unreadable(_ file: String) -> Refusal {
        Refusal(file: file, reason: .loadFailed, message: "the scan process answered something unreadable for \"\(file)\"")
    }

    /// `texts`: the JSON texts already read in this scan, so that a text many files declare (copies of
    /// one skill, a shared schema) is parsed and compiled once; nil reads every text afresh.
    static func validate(report answer: ScanAnswer, file: String, hostToolchain: String, texts: DeclaredTexts? = nil) -> Result<SkillManifest, Refusal> {
        answer.read { validate(&$0, file: file, hostToolchain: hostToolchain, texts: texts) }
    }

    private static func validate(_ report: inout AnswerFields, file: String, hostToolchain: String, texts: DeclaredTexts?) -> Result<SkillManifest, Refusal> {
        func refuse(_ r: Refusal.Reason, _ m: String, _ h: String? = nil) -> Result<SkillManifest, Refusal> {
            .failure(Refusal(file: file, reason: r, message: m, hint: h))
        }
        switch report.string("status") {
        case "ok": break
        case "refused":
            // The scan process's loader said why (SkillLoading's SkillLoadError, reason by name).
            let reason = report.string("reason").flatMap(Refusal.Reason.init(rawValue:)) ?? .loadFailed
            let message = report.string("message") ?? "\"\(file)\" could not be loaded"
            return refuse(reason, message, report.string("hint"))
        case let s:
            return refuse(.loadFailed, "\"\(file)\": the scan process reported \(s.map { "\"\($0)\"" } ?? "nothing it understood")")
        }
        guard let skill = report.range("skill") else { return refuse(.badManifest, "\"\(file)\": no skill description in the scan report") }
        var s = report.object(at: skill)
        // A report without a readable ABI version comes from a scan process of another build (or a
        // broken one): refused, never trusted, never a trap.
        guard let major = s.int("abiMajor").flatMap(UInt32.init(exactly:)),
              let minor = s.int("abiMinor").flatMap(UInt32.init(exactly:)) else {
            return refuse(.badManifest, "\"\(file)\": the scan report has no ABI version (abiMajor and abiMinor as non-negative integers), found abiMajor \(s.json("abiMajor").map(describe) ?? "nothing") and abiMinor \(s.json("abiMinor").map(describe) ?? "nothing")",
                          "the skillhost-worker next to skillhost must come from the same build; reinstall skillhost")
        }
        // Read in the order the scan process writes (each lookup then costs a compare or two), then
        // checked in the order that decides which problem a refusal names.
        let structSize = s.int("structSize") ?? 0
        let flags = UInt32(truncatingIfNeeded: s.int("flags") ?? 0)
        let idText = s.string("id")
        let nameText = s.string("name")
        let versionText = s.string("version")
        let categoryText = s.string("category")
        let vendor = s.string("vendor") ?? ""
        let description = s.string("description") ?? ""
        let toolchain = s.string("toolchain")
        let hasInvoke = s.bool("hasInvoke") == true
        let hasHealth = s.bool("hasHealth") == true
        let required = UInt32(clamping: s.int("abiMinorRequired") ?? 0)
        let requested = s.json("permissions")
        let intentList = s.range("intents")
        // Negotiation (skillhost.h, "Versioning"): the same rules every load applies (SkillLoading).
        if case .failure(let e) = ABINegotiation.servedMinor(major: major, minor: minor, required: required, file: file, id: idText) {
            return .failure(Refusal(file: file, e))
        }
        guard let id = idText else {
            return refuse(.badManifest, "bad manifest in \"\(file)\": field \"id\": expected a reverse-DNS id like \"com.example.calendar\", found \(s.json("id").map(describe) ?? "nothing (struct_size \(structSize) is too small)")")
        }
        func bad(_ field: String, _ expected: String, _ found: JSON?) -> Result<SkillManifest, Refusal> {
            refuse(.badManifest, "bad manifest in \"\(file)\" (skill \"\(id)\"): field \"\(field)\": expected \(expected), found \(found.map(describe) ?? "nothing")")
        }
        guard isReverseDNS(id) else { return bad("id", "a lowercase reverse-DNS id like \"com.example.calendar\" (at least two dot-separated parts of a-z, 0-9, -, _)", s.json("id")) }
        guard let versionText, let version = SemanticVersion(versionText) else {
            return bad("version", "a semantic version like \"1.2.3\" (MAJOR.MINOR.PATCH)", s.json("version"))
        }
        guard let name = nameText, !name.isEmpty else { return bad("name", "a non-empty string", s.json("name")) }
        guard let category = categoryText, isWord(category) else {
            return bad("category", "one lowercase word like \"productivity\"", s.json("category"))
        }
        if let toolchain, toolchain != hostToolchain {
            return refuse(.toolchainMismatch, "incompatible skill \"\(file)\" (\(id)): Swift toolchain mismatch — host was built with \(hostToolchain), skill with \(toolchain)",
                          "Swift has no stable ABI on Linux: rebuild the skill with the same Swift toolchain as the host (\(hostToolchain)), or write it in C")
        }
        guard hasInvoke else { return bad("invoke", "a function pointer", JSON.null) }
        guard let list = intentList, let rawIntents = s.elements(at: list), !rawIntents.isEmpty else {
            return bad("intents", "at least one intent (intent_count ≥ 1 and a non-NULL intents pointer)", s.json("intentCount"))
        }
        var intents: [IntentManifest] = []
        intents.reserveCapacity(rawIntents.count)
        for (index, ri) in rawIntents.enumerated() {
            var fields = s.object(at: ri)
            switch intent(&fields, index: index, texts: texts) {
            case .success(let i):
                if let earlier = intents.firstIndex(where: { $0.name == i.name && $0.version == i.version }) {
                    return refuse(.badManifest, "bad manifest in \"\(file)\" (skill \"\(id)\"): intent \"\(i.name)\" version \(i.version) is declared twice (intents[\(earlier)] and intents[\(index)]); expected each name and version once",
                                  "a breaking change to an intent is a new entry with the same name and the next version (skh_intent.version)")
                }
                intents.append(i)
            case .failure(let where_):
                return refuse(.badManifest, "bad manifest in \"\(file)\" (skill \"\(id)\"): \(where_)", where_.hint)
            }
        }
        var permissions = Permissions.none
        switch requestedPermissions(requested) {
        case .failure(let p):
            return refuse(.badManifest, "bad manifest in \"\(file)\" (skill \"\(id)\"): field \"permissions\": \(p.description)",
                          "see skh_permissions in skillhost.h: network \"HOST:PORT\", paths absolute or starting with {home}, {data}, … or {config:KEY}")
        case .success(let p): permissions = p
        }
        var manifest = SkillManifest(
            identity: SkillIdentity(id: id, name: name, version: version, category: category, vendor: vendor,
                                    description: description, toolchain: toolchain, abiMajor: major, abiMinor: minor, abiMinorRequired: required,
                                    threadSafe: flags & 1 != 0, hasHealth: hasHealth),
            intents: intents)
        manifest.identity.permissions = permissions
        return .success(manifest)
    }

    /// How deep a scan answer line may nest: the line, `skill`, `intents`, one intent, then a JSON-text
    /// field's value as deep as `JSON.parse` allows the text alone (`JSONLimits.maxDepth`).
    static let answerDepth = JSONLimits.maxDepth + 4

    struct Problem: Error, CustomStringConvertible {
        let description: String
        var hint: String? = nil
    }

    /// skh_skill.permissions as the scan process reported it (absent or null: nothing requested).
    static func requestedPermissions(_ j: JSON?) -> Result<Permissions, Problem> {
        guard let j, j != .null else { return .success(.none) }
        if j["truncated"]?.boolValue == true {
            return .failure(Problem(description: "a list has more than 256 entries"))
        }
        for key in ["network", "read", "write", "environment"] {
            for (k, e) in (j[key]?.arrayValue ?? []).enumerated() where e.stringValue == nil {
                return .failure(Problem(description: "\(key)[\(k)]: expected UTF-8 text, found \(describe(e))"))
            }
        }
        var p = Permissions(json: j) ?? .none
        p.programs = (j["flags"]?.intValue ?? 0) & 1 != 0
        if let problem = p.problem() { return .failure(Problem(description: problem)) }
        return .success(p)
    }

    /// One intent of the answer (`j`: its fields; `index`: its place in `intents`; `texts`: see `validate`).
    static func intent(_ j: inout AnswerFields, index: Int, texts memo: DeclaredTexts? = nil) -> Result<IntentManifest, Problem> {
        // Read in the order the scan process writes (each lookup then costs one compare).
        let flagBits = j.int("flags") ?? 0
        let nameText = j.string("name")
        let label = nameText.map { "intent \"\($0)\"" } ?? "intents[\(index)]"
        func bad(_ m: String) -> Result<IntentManifest, Problem> { .failure(Problem(description: "\(label): \(m)")) }
        guard let name = nameText, isIntentName(name) else {
            return bad("field \"name\": expected a dotted lowercase name like \"calendar.events.list\", found \(j.json("name").map(describe) ?? "nothing")")
        }
        let description = j.string("description") ?? ""
        let texts = (input: j.range("inputSchema"), output: j.range("outputSchema"))
        let surfaceBits = j.int("surfaces") ?? 0
        let priority = j.int("priority") ?? 0
        let declared = j.json("confidence")?.doubleValue ?? 0
        let moreTexts = (keywords: j.range("keywords"), examples: j.range("examples"))
        let declaredVersion = j.int("version") ?? 0
        let feedsText = j.range("feeds")
        // The scan process sends a JSON-text field as the value itself when the text is one valid
        // JSON object or array (see skillhost-scan's `jsonText`), parsed here with the limits of the
        // text alone, and as the text otherwise, parsed here so that its problem is named. Its marker
        // for bytes that are not UTF-8, and any value that is neither text nor an object or array,
        // is not JSON text.
        let fields = j
        func jsonField(_ key: String, _ range: Range<Int>?) -> Result<JSON?, Problem> {
            guard let range else { return .success(nil) }
            let text: String
            switch fields.bytes[range.lowerBound] {
            case UInt8(ascii: "n"): return .success(nil)
            case UInt8(ascii: "\""): text = JSONScan.string(fields.bytes, range) ?? ""
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                switch memo?.value(fields, range) ?? fields.parse(range) {
                case .failure(let error): return .failure(Problem(description: "\(label): field \"\(cName(key))\" is not valid JSON: \(error)"))
                case .success(.object(let o)) where o.count == 1 && o.members[0].key == "invalidUTF8" && o.members[0].value == .bool(true):
                    return .failure(Problem(description: "\(label): field \"\(cName(key))\": expected JSON text"))
                case .success(let v): return .success(v)
                }
            default: return .failure(Problem(description: "\(label): field \"\(cName(key))\": expected JSON text"))
            }
            do { return .success(try JSON.parse(text)) } catch {
                return .failure(Problem(description: "\(label): field \"\(cName(key))\" is not valid JSON: \(error) in \(excerpt(text, at: error.offset))"))
            }
        }
        let input: JSON
        switch jsonField("inputSchema", texts.input) {
        case .failure(let p): return .failure(p)
        case .success(nil): return bad("field \"input_schema\": expected a JSON Schema, found NULL")
        case .success(let v?): input = v
        }
        let inputSchema: JSONSchema
        switch memo?.schema(input, fields, texts.input!) ?? compile(input) {
        case .failure(let error): return bad("input_schema is not a valid JSON Schema: \(error)")
        case .success(let compiled):
            inputSchema = compiled.schema
            guard compiled.isObjectRoot else { return bad("input_schema: expected the root to be {\"type\":\"object\", …}, found \(input["type"].map { $0.serialized } ?? "no type")") }
        }
        var output: JSON?
        switch jsonField("outputSchema", texts.output) {
        case .failure(let p): return .failure(p)
        case .success(let v): output = v
        }
        if let output, case .failure(let error) = memo?.schema(output, fields, texts.output!) ?? compile(output) {
            return bad("output_schema is not a valid JSON Schema: \(error)")
        }
        var keywords: [String: [String]] = [:]
        switch jsonField("keywords", moreTexts.keywords) {
        case .failure(let p): return .failure(p)
        case .success(nil): break
        case .success(let v?):
            guard case .object(let o) = v else { return bad("field \"keywords\": expected an object of language → [words], found \(v.typeDescription)") }
            for m in o {
                guard let words = m.value.arrayValue?.compactMap(\.stringValue), words.count == m.value.arrayValue?.count else {
                    return bad("keywords.\(m.key): expected an array of strings")
                }
                keywords[m.key] = words
            }
        }
        var examples: [IntentManifest.Example] = []
        switch jsonField("examples", moreTexts.examples) {
        case .failure(let p): return .failure(p)
        case .success(nil): break
        case .success(let v?):
            guard let list = v.arrayValue else { return bad("field \"examples\": expected an array, found \(v.typeDescription)") }
            for (k, e) in list.enumerated() {
                guard let text = e["text"]?.stringValue else { return bad("examples[\(k)]: expected an object with \"text\"") }
                let ex = IntentManifest.Example(lang: e["lang"]?.stringValue ?? "en", text: text, input: e["input"])
                if let input = ex.input, let v = inputSchema.validate(input, limit: 1).first {
                    return bad("examples[\(k)].input does not match input_schema: \(v)")
                }
                examples.append(ex)
            }
        }
        var feeds: [IntentManifest.IntentFeed] = []
        switch jsonField("feeds", feedsText) {
        case .failure(let p): return .failure(p)
        case .success(nil): break
        case .success(let v?):
            let hint = #"skh_intent.feeds is a JSON array like [{"intent":"calendar.events.list","fields":{"from":{"path":"messages[*].event.start","pick":"earliestDay"}}}], or NULL"#
            guard let list = v.arrayValue else {
                return .failure(Problem(description: "\(label): field \"feeds\": expected an array of {\"intent\", \"fields\"}, found \(v.typeDescription)", hint: hint))
            }
            for (k, f) in list.enumerated() {
                switch IntentManifest.IntentFeed.parse(f) {
                case .success(let feed):
                    if feed.intent == name { return .failure(Problem(description: "\(label): field \"feeds[\(k)].intent\": expected another intent, found this one (\"\(name)\")", hint: hint)) }
                    feeds.append(feed)
                case .failure(let m):
                    let member = "feeds[\(k)]" + (m.member.isEmpty ? "" : "." + m.member)
                    return .failure(Problem(description: "\(label): field \"\(member)\": \(m.message)", hint: hint))
                }
            }
        }
        // 0 is what a zero-initialised C struct holds: "not given", which means 1 (see skillhost.h).
        let confidence = declared == 0 ? 1 : declared
        guard (0...1).contains(confidence) else { return bad("field \"confidence\": expected a number from 0 to 1, found \(confidence)") }
        // The scan process writes the C struct's unsigned 32-bit members; other bits of a forged value are dropped.
        let flags = IntentFlags(rawValue: UInt32(truncatingIfNeeded: flagBits))
        if flags.contains(.readOnly) && flags.contains(.destructive) {
            return bad("field \"flags\": an intent cannot be both READ_ONLY and DESTRUCTIVE")
        }
        let surfaces = UInt32(truncatingIfNeeded: surfaceBits)
        // 0 (a zero-initialised struct, or a 1.0 skill without the field) means 1.
        let version = Int(clamping: declaredVersion)
        guard (0...1_000_000).contains(version) else { return bad("field \"version\": expected a small positive integer (or 0 for 1), found \(version)") }
        return .success(IntentManifest(name: name, version: max(version, 1), description: description,
                                       inputSchema: input, outputSchema: output, flags: flags,
                                       surfaces: surfaces == 0 ? .all : Surfaces(rawValue: surfaces & 7),
                                       priority: Int32(clamping: priority), confidence: confidence,
                                       keywords: keywords, examples: examples, feeds: feeds))
    }

    /// A schema compiled, and whether its root is `{"type":"object", …}` (what an input schema must be).
    struct CompiledSchema {
        let schema: JSONSchema
        let isObjectRoot: Bool
    }

    static func compile(_ schema: JSON) -> Result<CompiledSchema, JSONSchema.CompileError> {
        do throws(JSONSchema.CompileError) {
            let compiled = try JSONSchema(schema)
            return .success(CompiledSchema(schema: compiled, isObjectRoot: compiled.isObjectRoot))
        } catch {
            return .failure(error)
        }
    }

    /// The skh_intent member a scan-report key stands for, so messages use the names in skillhost.h.
    static func cName(_ key: String) -> String {
        ["inputSchema": "input_schema", "outputSchema": "output_schema"][key] ?? key
    }

    static func describe(_ j: JSON) -> String {
        if case .null = j { return "NULL" }
        if j["invalidUTF8"] != nil { return "bytes that are not valid UTF-8" }
        return j.serialized
    }

    static func excerpt(_ text: String, at offset: Int) -> String {
        let bytes = Array(text.utf8)
        let from = max(0, offset - 20), to = min(bytes.count, offset + 20)
        return "«" + String(decoding: bytes[from..<to], as: UTF8.self) + "»"
    }

    // Byte checks, not Character properties: these run for every skill in a cold scan.
    private static func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7a }
    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    /// `^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)+$` (see skh_skill.id).
    static func isReverseDNS(_ s: String) -> Bool {
        isDotted(s, first: isLower) { isLower($0) || isDigit($0) || $0 == 0x2d || $0 == 0x5f }
    }

    /// Two or more dot-separated segments of `[a-z0-9_]`.
    static func isIntentName(_ s: String) -> Bool {
        isDotted(s, first: { isLower($0) || isDigit($0) || $0 == 0x5f }) { isLower($0) || isDigit($0) || $0 == 0x5f }
    }

    /// Two or more non-empty dot-separated segments, each starting with a byte `first` accepts and
    /// going on with bytes `rest` accepts. One pass, no split.
    private static func isDotted(_ s: String, first: (UInt8) -> Bool, rest: (UInt8) -> Bool) -> Bool {
        var parts = 1, length = 0
        for c in s.utf8 {
            if c == 0x2e {
                guard length > 0 else { return false }
                parts += 1
                length = 0
                continue
            }
            guard length == 0 ? first(c) : rest(c) else { return false }
            length += 1
        }
        return parts >= 2 && length > 0
    }

    /// One lowercase word: `[a-z0-9-]+`.
    static func isWord(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { isLower($0) || isDigit($0) || $0 == 0x2d }
    }
}

/// The JSON texts (schemas, keywords, examples, feeds) one scan has read, by their bytes in the scan
/// answers: each value as parsed and each schema as compiled. Copies of one skill, or skills that share
/// a schema, declare the same texts; each distinct text is parsed and compiled once per scan instead
/// of once per file. What is read for a text depends only on its bytes, so a repeat gets the same value
/// and the same refusal. Not thread-safe; one per scan (`Scanner.scan`).
final class DeclaredTexts {
    private var values: [[UInt8]: Result<JSON, JSONParseError>] = [:]
    private var schemas: [[UInt8]: Result<ManifestValidator.CompiledSchema, JSONSchema.CompileError>] = [:]

    /// The value at `range` of `fields` (`AnswerFields.parse`), parsed once per distinct text.
    func value(_ fields: AnswerFields, _ range: Range<Int>) -> Result<JSON, JSONParseError> {
        Self.once(&values, fields, range) { fields.parse(range) }
    }

    /// `schema` compiled, once per distinct text at `range` of `fields` (the text `schema` was read from).
    func schema(_ schema: JSON, _ fields: AnswerFields, _ range: Range<Int>) -> Result<ManifestValidator.CompiledSchema, JSONSchema.CompileError> {
        Self.once(&schemas, fields, range) { ManifestValidator.compile(schema) }
    }

    /// `table`'s entry for the text at `range` of `fields`, made by `make` when it has none.
    private static func once<R>(_ table: inout [[UInt8]: R], _ fields: AnswerFields, _ range: Range<Int>, _ make: () -> R) -> R {
        let key = Array(fields.bytes[range])
        if let known = table[key] { return known }
        let made = make()
        table[key] = made
        return made
    }
}
