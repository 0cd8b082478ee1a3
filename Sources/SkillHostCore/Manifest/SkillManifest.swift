import SkillLoading
import SkillABI

/// Who a skill is and how it runs: the `skh_skill` fields other than its intents.
public struct SkillIdentity: Sendable, Equatable {
    public var id: String
    public var name: String
    public var version: SemanticVersion
    public var category: String
    public var vendor: String
    public var description: String
    /// "swift-6.3" for Swift skills, nil for C skills.
    public var toolchain: String?
    /// The ABI the skill was built against (skh_skill.abi_major / abi_minor).
    public var abiMajor: UInt32
    public var abiMinor: UInt32
    /// The oldest host minor it works with (skh_skill.abi_minor_required; 0 before 1.1).
    public var abiMinorRequired: UInt32 = 0
    public var threadSafe: Bool
    public var hasHealth: Bool
    /// What the skill asks to reach (skh_skill.permissions, ABI 1.2; empty before).
    public var permissions = Permissions.none

    public init(id: String, name: String, version: SemanticVersion, category: String, vendor: String, description: String,
                toolchain: String?, abiMajor: UInt32, abiMinor: UInt32, abiMinorRequired: UInt32 = 0, threadSafe: Bool, hasHealth: Bool) {
        (self.id, self.name, self.version, self.category, self.vendor, self.description) = (id, name, version, category, vendor, description)
        (self.toolchain, self.abiMajor, self.abiMinor, self.abiMinorRequired) = (toolchain, abiMajor, abiMinor, abiMinorRequired)
        (self.threadSafe, self.hasHealth) = (threadSafe, hasHealth)
    }

    /// "MAJOR.MINOR" the skill was built against.
    public var abi: String { "\(abiMajor).\(abiMinor)" }
    /// "MAJOR.MINOR" the skill needs at least.
    public var abiRequired: String { "\(abiMajor).\(abiMinorRequired)" }
    /// The version this host serves it at: the older of the skill's minor and the host's.
    public var abiServed: String { "\(abiMajor).\(min(abiMinor, ABIVersion.hostMinor))" }
}

/// The ABI version this host serves (from skillhost.h): major `hostMajor`, minors 0 through `hostMinor`.
public enum ABIVersion {
    public static let hostMajor = ABINegotiation.hostMajor
    public static let hostMinor = ABINegotiation.hostMinor
    /// "1.0–1.1": the range a message names.
    public static var hostRange: String { ABINegotiation.hostRange }
}

/// What a skill declares about itself, read from its `skh_skill` struct and checked by
/// `ManifestValidator`: its identity (fields readable directly, `manifest.id`) and its intents in full.
@dynamicMemberLookup
public struct SkillManifest: Sendable, Equatable {
    public var identity: SkillIdentity
    public var intents: [IntentManifest]

    public subscript<T>(dynamicMember field: KeyPath<SkillIdentity, T>) -> T { identity[keyPath: field] }
}

/// One intent a skill serves.
public struct IntentManifest: Sendable, Equatable {
    public var name: String
    /// The version of the intent's contract (skh_intent.version; 1 when not given).
    public var version: Int = 1
    public var description: String
    public var inputSchema: JSON
    public var outputSchema: JSON?
    public var flags: IntentFlags
    public var surfaces: Surfaces
    public var priority: Int32
    public var confidence: Double
    /// BCP 47 language → words and phrases.
    public var keywords: [String: [String]]
    /// Example requests; `input` (when present) validates against `inputSchema`.
    public var examples: [Example]
    /// Intents this one's result can feed (skh_intent.feeds, ABI 1.3): chain rules the agent engine
    /// uses next to the config's `agent.chains` (which win).
    public var feeds: [IntentFeed] = []

    /// How callers and the registry address it: "name" for version 1, "name@N" after.
    public var address: String { IntentAddress.format(name, version) }

    public init(name: String, version: Int = 1, description: String, inputSchema: JSON, outputSchema: JSON?, flags: IntentFlags,
                surfaces: Surfaces, priority: Int32, confidence: Double, keywords: [String: [String]], examples: [Example],
                feeds: [IntentFeed] = []) {
        (self.name, self.version, self.description, self.inputSchema, self.outputSchema) = (name, version, description, inputSchema, outputSchema)
        (self.flags, self.surfaces, self.priority, self.confidence) = (flags, surfaces, priority, confidence)
        (self.keywords, self.examples, self.feeds) = (keywords, examples, feeds)
    }

    /// One intent fed by this one's result: after this intent, run `intent` with each of `fields` taken
    /// from this result — the values at `path` (dotted, `[*]` for every element) reduced by `pick`
    /// ("earliestDay" or "latestDay"). The JSON form, in skh_intent.feeds:
    /// `{"intent": "calendar.events.list", "fields": {"from": {"path": "messages[*].event.start", "pick": "earliestDay"}}}`.
    public struct IntentFeed: Sendable, Equatable {
        public var intent: String
        public var fields: [Field]

        public struct Field: Sendable, Equatable {
            public var name: String
            public var path: String
            public var pick: Feed.Pick
            public init(name: String, path: String, pick: Feed.Pick) { (self.name, self.path, self.pick) = (name, path, pick) }
        }

        public init(intent: String, fields: [Field]) { (self.intent, self.fields) = (intent, fields) }

        /// What is wrong with a feed: the member (a path inside the feed, "fields.from.pick"; "" for the
        /// feed itself) and what was expected and found.
        public struct Problem: Error, CustomStringConvertible {
            public let member: String
            public let message: String
            init(_ member: String, _ message: String) { (self.member, self.message) = (member, message) }
            public var description: String { member.isEmpty ? message : "\(member): \(message)" }
        }

        public var json: JSON {
            .object(JSONObject([("intent", .string(intent)), ("fields", .object(JSONObject(fields.map {
                (key: $0.name, value: .object(JSONObject([("path", .string($0.path)), ("pick", .string($0.pick.rawValue))])))
            })))]))
        }

        /// A feed from its JSON form, or what is wrong with it ("fields.from.pick: expected …, found …").
        public static func parse(_ j: JSON) -> Result<IntentFeed, Problem> {
            guard case .object(let o) = j else { return .failure(Problem("", "expected an object {\"intent\": …, \"fields\": {…}}, found \(j.serialized)")) }
            for key in o.keys where key != "intent" && key != "fields" {
                return .failure(Problem("", "unknown member \"\(key)\" (expected intent, fields)"))
            }
            guard let intent = o["intent"]?.stringValue, let address = IntentAddress.parse(intent), ManifestValidator.isIntentName(address.name) else {
                return .failure(Problem("intent", "expected the name of the intent to feed, like \"calendar.events.list\", found \(o["intent"]?.serialized ?? "nothing")"))
            }
            guard case .object(let fo)? = o["fields"], !fo.members.isEmpty else {
                return .failure(Problem("fields", "expected an object of input field → {\"path\", \"pick\"} with at least one member, found \(o["fields"]?.serialized ?? "nothing")"))
            }
            var fields: [Field] = []
            for m in fo {
                guard let path = m.value["path"]?.stringValue, !path.isEmpty else {
                    return .failure(Problem("fields.\(m.key).path", "expected a dotted path into the result like \"messages[*].event.start\", found \(m.value["path"]?.serialized ?? "nothing")"))
                }
                guard let raw = m.value["pick"]?.stringValue, let pick = Feed.Pick(rawValue: raw), pick != .matching else {
                    return .failure(Problem("fields.\(m.key).pick", "expected \"earliestDay\" or \"latestDay\", found \(m.value["pick"]?.serialized ?? "nothing")"))
                }
                for key in m.value.objectValue?.keys ?? [] where key != "path" && key != "pick" {
                    return .failure(Problem("fields.\(m.key)", "unknown member \"\(key)\" (expected path, pick)"))
                }
                fields.append(Field(name: m.key, path: path, pick: pick))
            }
            return .success(IntentFeed(intent: intent, fields: fields))
        }
    }

    public struct Example: Sendable, Equatable {
        public var lang: String
        public var text: String
        public var input: JSON?

        public init(lang: String, text: String, input: JSON? = nil) { (self.lang, self.text, self.input) = (lang, text, input) }
    }
}

/// The SKH_INTENT_* bits.
public struct IntentFlags: OptionSet, Sendable, Equatable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let readOnly = IntentFlags(rawValue: 1 << 0)
    public static let destructive = IntentFlags(rawValue: 1 << 1)
    public static let idempotent = IntentFlags(rawValue: 1 << 2)
    public static let openWorld = IntentFlags(rawValue: 1 << 3)

    /// Each flag and its name, in the order `names` lists them.
    static let named: [(flag: IntentFlags, name: String)] = [
        (readOnly, "read-only"), (destructive, "destructive"), (idempotent, "idempotent"), (openWorld, "open-world"),
    ]

    public var names: [String] { Self.named.filter { contains($0.flag) }.map(\.name) }

    /// `named`'s names as JSON strings, quotes included, for writers that append them as they are (same order).
    static let quotedNames = named.map { (bit: $0.flag.rawValue, name: "\"\($0.name)\"") }
}

/// The SKH_SURFACE_* bits: who may call an intent.
public struct Surfaces: OptionSet, Sendable, Equatable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let human = Surfaces(rawValue: 1 << 0)
    public static let automation = Surfaces(rawValue: 1 << 1)
    public static let agent = Surfaces(rawValue: 1 << 2)
    public static let all: Surfaces = [.human, .automation, .agent]

    /// Each surface and its name, in the order `names` lists them.
    static let named: [(surface: Surfaces, name: String)] = [(human, "human"), (automation, "automation"), (agent, "agent")]

    public var names: [String] { Self.named.filter { contains($0.surface) }.map(\.name) }

    /// `named`'s names as JSON strings, quotes included, for writers that append them as they are (same order).
    static let quotedNames = named.map { (bit: $0.surface.rawValue, name: "\"\($0.name)\"") }
}

/// A Semantic Versioning 2.0.0 version. Ordered by precedence (build metadata ignored).
public struct SemanticVersion: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var major: Int, minor: Int, patch: Int
    public var prerelease: [String]
    public var build: String?

    public init?(_ text: String) {
        // Plain ASCII (every version any skill declares in practice) is read byte by byte: the
        // Character-based reading below breaks graphemes, and a scan or a warm `list` reads one
        // version per skill. Any other text (and an invalid version) takes the reading by Characters.
        if let quick = Self.ascii(text.utf8) {
            self = quick
        } else {
            self.init(characters: text)
        }
    }

    /// The reading by Characters (any text; `ascii` gives the same answer for ASCII text).
    init?(characters text: String) {
        var core = Substring(text)
        if let plus = core.firstIndex(of: "+") {
            build = String(core[core.index(after: plus)...])
            core = core[..<plus]
            guard !build!.isEmpty else { return nil }
        } else { build = nil }
        if let dash = core.firstIndex(of: "-") {
            prerelease = core[core.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard prerelease.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }) else { return nil }
            core = core[..<dash]
        } else { prerelease = [] }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var nums: [Int] = []
        for p in parts {
            guard !p.isEmpty, p.allSatisfy({ $0.isASCII && $0.isNumber }), p == "0" || !p.hasPrefix("0"), let n = Int(p) else { return nil }
            nums.append(n)
        }
        (major, minor, patch) = (nums[0], nums[1], nums[2])
    }

    private init(major: Int, minor: Int, patch: Int, prerelease: [String], build: String?) {
        (self.major, self.minor, self.patch, self.prerelease, self.build) = (major, minor, patch, prerelease, build)
    }

    /// The version in `text` when it is all ASCII (nil for any other text, and for an invalid one:
    /// `init` then reads it by Characters and refuses it the same way). The rules of `init`: MAJOR.MINOR.PATCH of
    /// digits without leading zeros, then optionally `-` and dot-separated non-empty identifiers of
    /// letters, digits and `-`, then optionally `+` and non-empty build metadata (not checked further).
    static func ascii(_ text: String.UTF8View) -> SemanticVersion? {
        text.withContiguousStorageIfAvailable { bytes -> SemanticVersion? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var end = bytes.count
            var build: String? = nil
            if let plus = bytes.firstIndex(of: UInt8(ascii: "+")) {
                guard plus + 1 < bytes.count else { return nil }
                build = String(decoding: UnsafeBufferPointer(rebasing: bytes[(plus + 1)...]), as: UTF8.self)
                end = plus
            }
            var prerelease: [String] = []
            if let dash = bytes[..<end].firstIndex(of: UInt8(ascii: "-")) {
                for part in bytes[(dash + 1)..<end].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
                    guard !part.isEmpty, part.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0)
                                                          || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) }) else { return nil }
                    prerelease.append(String(decoding: UnsafeBufferPointer(rebasing: part), as: UTF8.self))
                }
                end = dash
            }
            var numbers: [Int] = []
            for part in bytes[..<end].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
                guard !part.isEmpty, part.count == 1 || part.first != UInt8(ascii: "0") else { return nil }
                var n = 0
                for b in part {
                    guard (0x30...0x39).contains(b) else { return nil }
                    let (m, o1) = n.multipliedReportingOverflow(by: 10)
                    let (a, o2) = m.addingReportingOverflow(Int(b - 0x30))
                    guard !o1 && !o2 else { return nil }
                    n = a
                }
                numbers.append(n)
            }
            guard numbers.count == 3 else { return nil }
            return SemanticVersion(major: numbers[0], minor: numbers[1], patch: numbers[2], prerelease: prerelease, build: build)
        } ?? nil
    }

    public var description: String {
        var s = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty { s += "-" + prerelease.joined(separator: ".") }
        if let build { s += "+" + build }
        return s
    }

    public static func == (a: Self, b: Self) -> Bool {
        (a.major, a.minor, a.patch) == (b.major, b.minor, b.patch) && a.prerelease == b.prerelease
    }

    public static func < (a: Self, b: Self) -> Bool {
        if (a.major, a.minor, a.patch) != (b.major, b.minor, b.patch) { return (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch) }
        if a.prerelease.isEmpty { return false }
        if b.prerelease.isEmpty { return true }
        for (x, y) in zip(a.prerelease, b.prerelease) where x != y {
            switch (Int(x), Int(y)) {
            case let (i?, j?): return i < j
            case (_?, nil): return true
            case (nil, _?): return false
            default: return x < y
            }
        }
        return a.prerelease.count < b.prerelease.count
    }
}
