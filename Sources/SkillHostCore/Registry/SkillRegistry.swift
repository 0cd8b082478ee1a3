import Synchronization
import SkillWire

/// How a skill's code runs. `.process` for every skill unless the config's `"trusted"` list names it:
/// a skill's own say-so never counts.
public enum Isolation: String, Sendable {
    /// In a supervised worker process (`skillhost-worker serve`, see `WorkerRuntime`): a crash, a hang
    /// or a runaway allocation costs that process, not the host.
    case process
    /// Loaded into the host process with dlopen: fastest, but the skill's faults are the host's.
    case inProcess = "in-process"
}

/// A skill the registry knows, with the file it came from.
///
/// A value whose fields live in one shared, immutable box: every call passes the skill (and the
/// bindings that hold it) through many stages, and a copy must cost one reference count, not one
/// per string of the identity. Setting a field makes a new box (copy on write).
public struct RegisteredSkill: Sendable {
    private final class Box: Sendable {
        let summary: SkillSummary
        let manifestText: [UInt8]
        let file: SkillFile
        let isolation: Isolation
        let versionText: String
        let memo = SkillMemo()
        init(_ summary: SkillSummary, _ manifestText: [UInt8], _ file: SkillFile, _ isolation: Isolation) {
            (self.summary, self.manifestText, self.file, self.isolation) = (summary, manifestText, file, isolation)
            versionText = summary.identity.version.description
        }
    }
    private var box: Box

    public init(summary: SkillSummary, manifestText: [UInt8], file: SkillFile, isolation: Isolation) {
        box = Box(summary, manifestText, file, isolation)
    }

    public var summary: SkillSummary {
        _read { yield box.summary }
        set { box = Box(newValue, box.manifestText, box.file, box.isolation) }
    }
    /// The full manifest as JSON text, parsed only when someone needs more than the summary.
    public var manifestText: [UInt8] {
        _read { yield box.manifestText }
        set { box = Box(box.summary, newValue, box.file, box.isolation) }
    }
    public var file: SkillFile {
        _read { yield box.file }
        set { box = Box(box.summary, box.manifestText, newValue, box.isolation) }
    }
    public var isolation: Isolation {
        get { box.isolation }
        set { box = Box(box.summary, box.manifestText, box.file, newValue) }
    }
    public var id: String { box.summary.identity.id }
    /// The skill's version as text ("1.2.0"), formatted once.
    public var versionText: String { box.versionText }
    /// What calls of this skill value reuse (see `SkillMemo`).
    var memo: SkillMemo { box.memo }

    /// The full manifest (schemas, keywords, examples), parsed from `manifestText`.
    public func manifest() -> SkillManifest? {
        (try? JSON.parse(manifestText)).flatMap(SkillManifest.init(json:))
    }
}

/// One skill's claim on an intent. A class (immutable, so sharing is safe): a call hands its binding
/// through admission, the attempts, the audit line and the health record, and each copy of a struct
/// cost a reference count per field.
public final class IntentBinding: Sendable {
    public let skill: RegisteredSkill
    public let intent: IntentSummary
    /// What calls through this binding work out once, on the first call: the intent's compiled
    /// schemas (filled by `SchemaCache`; later calls and their audit lines read them without a lookup)
    /// and the audit line's names.
    let cache = BindingCache()

    public init(skill: RegisteredSkill, intent: IntentSummary) {
        (self.skill, self.intent) = (skill, intent)
    }

    /// `,"intent":…,"skill":…,"version":…` as this binding's audit lines write them.
    var auditNames: [UInt8] {
        cache.auditNames {
            AuditLine.text { l in
                l.raw(",\"intent\":"); l.quoted(intent.address)
                l.raw(",\"skill\":"); l.quoted(skill.id)
                l.raw(",\"version\":"); l.quoted(skill.versionText)
            }
        }
    }
}

/// Two or more skills declaring the same intent. Not an error — calls go to `bindings[0]` — but
/// reported by `list` and `doctor` so nobody is surprised by which skill answers.
public struct IntentConflict: Sendable {
    public var intent: String
    /// In call order: the first one answers.
    public var bindings: [IntentBinding]

    /// `{"intent","skills":[{"id","priority","confidence","path"}, …],"chosen"}`, as `list --json` and
    /// `doctor --json` print it.
    public var json: JSON {
        .object(JSONObject([("intent", .string(intent)),
                            ("skills", .array(bindings.map { b in
                                .object(JSONObject([("id", .string(b.skill.id)), ("priority", .int(Int64(b.intent.priority))),
                                                    ("confidence", .double(b.intent.confidence)), ("path", .string(b.skill.file.path))]))
                            })),
                            ("chosen", .string(bindings[0].skill.id))]))
    }

    /// Appends `json`'s text, written straight from the values (a conflict among many copies of a
    /// skill names every one of them).
    public func writeJSON(to line: inout Line) {
        line.raw("{")
        line.key("intent"); line.quoted(intent)
        line.key("skills")
        line.raw("[")
        for (k, b) in bindings.enumerated() {
            if k > 0 { line.raw(",") }
            line.raw("{")
            line.key("id"); line.quoted(b.skill.id)
            line.key("priority"); line.number(b.intent.priority)
            line.key("confidence"); JSON.double(b.intent.confidence).write(to: &line.bytes)
            line.key("path"); line.quoted(b.skill.file.path)
            line.raw("}")
        }
        line.raw("]")
        line.key("chosen"); line.quoted(bindings[0].skill.id)
        line.raw("}")
    }
}

/// Intent → skills, ordered by declared priority (higher first), then confidence (higher first), then
/// skill id; lookup by intent, id and category. Intents are keyed by address ("name" for version 1,
/// "name@N" after, see `IntentAddress`); a bare name looks up the highest version any skill serves.
/// Immutable: a rescan builds a new registry, so readers on any thread never see a half-updated one.
public final class SkillRegistry: Sendable {
    /// Sorted by id.
    public let skills: [RegisteredSkill]
    private let byIntent: [String: [IntentBinding]]
    /// Intent name → the address of its highest version.
    private let newest: [String: String]
    private let byID: [String: RegisteredSkill]
    /// Full manifests parsed so far, by skill id (the registry is immutable, so each is parsed once).
    private let parsed = Mutex<[String: SkillManifest]>([:])

    public init(_ skills: [RegisteredSkill]) {
        self.skills = skills.sorted { $0.id < $1.id }
        var map: [String: [IntentBinding]] = [:]
        map.reserveCapacity(self.skills.count * 2)
        // Only names served in a version above 1: the address of version 1 is the bare name, which
        // `bindings(for:)` falls back to (most registries: this stays empty).
        var newest: [String: IntentSummary] = [:]
        for s in self.skills {
            for i in s.summary.intents {
                map[i.address, default: []].append(IntentBinding(skill: s, intent: i))
                if i.version > 1 && i.version > newest[i.name]?.version ?? 0 { newest[i.name] = i }
            }
        }
        self.newest = newest.mapValues(\.address)
        // mapValues keeps the table as it is (no rehashing); a list of one needs no sorting.
        byIntent = map.mapValues { v in
            v.count < 2 ? v : v.sorted {
                ($0.intent.priority, $0.intent.confidence) != ($1.intent.priority, $1.intent.confidence)
                    ? ($0.intent.priority, $0.intent.confidence) > ($1.intent.priority, $1.intent.confidence)
                    : $0.skill.id < $1.skill.id
            }
        }
        byID = Dictionary(uniqueKeysWithValues: self.skills.map { ($0.id, $0) })
    }

    /// The skills that serve `intent` ("name", "name@N"), in the order calls try them.
    public func bindings(for intent: String) -> [IntentBinding] {
        guard let (name, version) = IntentAddress.parse(intent) else { return [] }
        // `newest` is empty unless a skill serves an intent in a version above 1: then no lookup
        // (a hashed lookup on every call, for nothing).
        let key = version.map { IntentAddress.format(name, $0) } ?? (newest.isEmpty ? name : newest[name] ?? name)
        return byIntent[key] ?? []
    }

    public func skill(id: String) -> RegisteredSkill? { byID[id] }

    /// `skill.manifest()`, parsed once per registry: a long-running host (`skillhost mcp`) asks for the
    /// manifests of every skill on each agent request.
    public func manifest(of skill: RegisteredSkill) -> SkillManifest? {
        if let m = parsed.withLock({ $0[skill.id] }) { return m }
        guard let m = skill.manifest() else { return nil }
        parsed.withLock { $0[skill.id] = m }
        return m
    }

    public func skills(inCategory category: String) -> [RegisteredSkill] { skills.filter { $0.summary.category == category } }

    /// Every intent address, sorted.
    public var intentNames: [String] { byIntent.keys.sorted() }

    /// Intents declared by more than one skill, sorted by intent name.
    public var conflicts: [IntentConflict] {
        byIntent.filter { $0.value.count > 1 }.keys.sorted().map { IntentConflict(intent: $0, bindings: byIntent[$0]!) }
    }

    /// Intent names close to `name` (same prefix or small edit distance), for "did you mean" hints.
    public func suggestions(for name: String) -> [String] {
        let prefix = name.split(separator: ".").first.map(String.init) ?? name
        return intentNames.filter { $0.hasPrefix(prefix + ".") || editDistance($0, name) <= 3 }
    }
}

/// The Levenshtein distance between `a` and `b` (insertions, deletions, substitutions): the one
/// measure behind every "did you mean" (intents here, commands and options in the CLI).
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
        var prev = row[0]
        row[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
            let cur = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
            prev = cur
        }
    }
    return row[b.count]
}
