/// What the engine can recognize: every intent the caller may call, with what its skill declares
/// about it (keywords and examples per language, schemas, flags). Built from the registry's manifests,
/// so a skill dropped in later is recognized without touching the engine.
public struct IntentCatalog: Sendable {
    public struct Entry: Sendable {
        /// The intent's address ("reminder.create", "name@2"), as calls use it.
        public var intent: String
        public let name: String
        public var skillID: String
        public var skillName: String
        public var description: String
        public var keywords: [String: [String]]
        public var examples: [IntentManifest.Example]
        public var inputSchema: JSON
        public var flags: IntentFlags
        /// What the intent returns, when its skill declares it (lookups read it, see `Lookups`).
        public var outputSchema: JSON?
        /// The intents its result can feed, as its skill declares them (see `ChainRule`).
        public var feeds: [IntentManifest.IntentFeed] = []

        public init(intent: String, name: String, skillID: String, skillName: String, description: String, keywords: [String: [String]],
                    examples: [IntentManifest.Example], inputSchema: JSON, flags: IntentFlags, outputSchema: JSON? = nil) {
            (self.intent, self.name, self.skillID, self.skillName, self.description) = (intent, name, skillID, skillName, description)
            (self.keywords, self.examples, self.inputSchema, self.flags, self.outputSchema) = (keywords, examples, inputSchema, flags, outputSchema)
            domain = name.split(separator: ".").dropLast().joined(separator: ".")
        }
        /// The name without its last segment ("calendar.events" for calendar.events.list and .summary,
        /// "weather" for weather.forecast): one part of a sentence asks one thing per domain. Set from
        /// `name` at init.
        public let domain: String
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// The newest version of every intent the first skill of each binding serves, that `caller` may call:
    /// the policy decides (the manifest's surfaces narrowed by the config), as it does for MCP's tools.
    public init(registry: SkillRegistry, caller: Caller, policy: Policy? = nil) {
        var entries: [Entry] = []
        var seen = Set<String>()
        for skill in registry.skills {
            guard let manifest = registry.manifest(of: skill) else { continue }
            for intent in manifest.intents where intent.surfaces.contains(caller.surface) {
                // One entry per intent name: the version a bare name reaches, served by the skill calls go to.
                let bindings = registry.bindings(for: intent.name)
                guard let first = bindings.first, first.skill.id == skill.id, first.intent.address == intent.address,
                      policy?.surfaces(for: first).contains(caller.surface) ?? true,
                      seen.insert(intent.name).inserted else { continue }
                entries.append(Entry(intent: intent.address, name: intent.name, skillID: skill.id, skillName: manifest.name,
                                     description: intent.description, keywords: intent.keywords, examples: intent.examples,
                                     inputSchema: intent.inputSchema, flags: intent.flags, outputSchema: intent.outputSchema))
                entries[entries.count - 1].feeds = intent.feeds
            }
        }
        // In registry order (skills by id), each skill's intents in the order it declares them.
        self.entries = entries
    }
}
