internal import SkillABI
import Foundation

/// Fills the static `skh_skill` and its `skh_intent` table for one skill. Everything allocated here is
/// kept for the rest of the process.
enum Manifest {
    static func build(_ skill: any AgentSkill, synchronous: (any SynchronousSkill)?, slot: Int) -> (ExportedSkill, UnsafeRawPointer) {
        let intents = skill.supportedIntents
        var warnings: [String] = []
        if intents.isEmpty { warnings.append("skill \(skill.id) declares no intents; the host will refuse it") }

        let table = UnsafeMutablePointer<skh_intent>.allocate(capacity: max(intents.count, 1))
        for (index, intent) in intents.enumerated() {
            (table + index).initialize(to: cIntent(intent, warnings: &warnings))
        }

        var s = skh_skill()
        s.abi_major = UInt32(SKH_ABI_VERSION_MAJOR)
        s.abi_minor = UInt32(SKH_ABI_VERSION_MINOR)
        s.struct_size = UInt32(MemoryLayout<skh_skill>.size)
        s.flags = skill.isThreadSafe ? UInt32(SKH_SKILL_THREAD_SAFE) : 0
        s.id = cString(skill.id)
        s.name = cString(skill.name)
        s.version = cString(skill.version)
        s.category = cString(skill.category)
        s.vendor = cString(skill.vendor)
        s.description = cString(skill.description)
        s.toolchain = cString(skillToolchain)
        s.intent_count = UInt32(intents.count)
        s.intents = UnsafePointer(table)
        s.`init` = Thunks.initFunction(slot)
        s.invoke = Thunks.invokeFunction(slot)
        s.health = Thunks.healthFunction(slot)
        s.release = { free($0) }
        s.abi_minor_required = UInt32(clamping: skill.requiredHostABIMinor)
        s.permissions = cPermissions(skill.permissions)

        let pointer = UnsafeMutablePointer<skh_skill>.allocate(capacity: 1)
        pointer.initialize(to: s)
        let exported = ExportedSkill(skill: skill, synchronous: synchronous, intents: intents, warnings: warnings)
        return (exported, UnsafeRawPointer(pointer))
    }

    private static func cIntent(_ intent: SkillIntent, warnings: inout [String]) -> skh_intent {
        for (label, schema) in [("inputSchema", intent.inputSchema), ("outputSchema", intent.outputSchema)] {
            if let schema, !JSONObjectCheck.isObject(schema) {
                warnings.append("intent \(intent.name): \(label) is not a JSON object")
            }
        }
        var c = skh_intent()
        c.struct_size = UInt32(MemoryLayout<skh_intent>.size)
        c.flags = intent.flags.rawValue
        c.name = cString(intent.name)
        c.description = cString(intent.description)
        c.input_schema = cString(intent.inputSchema)
        c.output_schema = intent.outputSchema.map(cString)
        c.surfaces = intent.surfaces.rawValue
        c.priority = intent.priority
        c.confidence = intent.confidence
        c.keywords = intent.keywords.isEmpty ? nil : cString(keywordsJSON(intent.keywords))
        c.examples = intent.examples.isEmpty ? nil : cString(examplesJSON(intent, warnings: &warnings))
        c.version = UInt32(clamping: max(intent.version, 1))
        c.feeds = intent.feeds.isEmpty ? nil : cString(feedsJSON(intent.feeds))
        return c
    }

    /// `[{"fields":{"from":{"path":"…","pick":"earliestDay"}},"intent":"…"}, …]`, fields sorted.
    static func feedsJSON(_ feeds: [SkillFeed]) -> String {
        "[" + feeds.map { f in
            let fields = f.fields.keys.sorted().map { name in
                SkillJSON.quote(name) + ":{\"path\":" + SkillJSON.quote(f.fields[name]!.path) + ",\"pick\":" + SkillJSON.quote(f.fields[name]!.pick.rawValue) + "}"
            }
            return "{\"fields\":{" + fields.joined(separator: ",") + "},\"intent\":" + SkillJSON.quote(f.intent) + "}"
        }.joined(separator: ",") + "]"
    }

    /// `{"en":["…"],"zh":["…"]}`, languages sorted.
    static func keywordsJSON(_ keywords: [String: [String]]) -> String {
        let members = keywords.keys.sorted().map { lang in
            SkillJSON.quote(lang) + ":[" + keywords[lang]!.map(SkillJSON.quote).joined(separator: ",") + "]"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `[{"input":{…},"lang":"en","text":"…"}, …]`; an `input` that is not a JSON object is left out.
    static func examplesJSON(_ intent: SkillIntent, warnings: inout [String]) -> String {
        var items: [String] = []
        for example in intent.examples {
            var members: [String] = []
            if let input = example.input {
                if JSONObjectCheck.isObject(input) {
                    members.append("\"input\":" + JSONObjectCheck.trimmed(input))
                } else {
                    warnings.append("intent \(intent.name): example \(SkillJSON.quote(example.text)) has an input that is not a JSON object; left out")
                }
            }
            members.append("\"lang\":" + SkillJSON.quote(example.lang))
            members.append("\"text\":" + SkillJSON.quote(example.text))
            items.append("{" + members.joined(separator: ",") + "}")
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// The `skh_permissions` of `p`, or nil when it asks for nothing. Never freed.
    static func cPermissions(_ p: SkillPermissions) -> UnsafePointer<skh_permissions>? {
        guard !p.isEmpty else { return nil }
        func list(_ items: [String]) -> UnsafePointer<UnsafePointer<CChar>?>? {
            guard !items.isEmpty else { return nil }
            let a = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: items.count + 1)
            for (k, item) in items.enumerated() { a[k] = cString(item) }
            a[items.count] = nil
            return UnsafePointer(a)
        }
        var c = skh_permissions()
        c.struct_size = UInt32(MemoryLayout<skh_permissions>.size)
        c.flags = p.runsPrograms ? UInt32(SKH_PERMISSION_PROGRAMS) : 0
        c.network = list(p.network.map(\.text))
        c.read = list(p.read.map(\.text))
        c.write = list(p.write.map(\.text))
        c.environment = list(p.environment)
        let pointer = UnsafeMutablePointer<skh_permissions>.allocate(capacity: 1)
        pointer.initialize(to: c)
        return UnsafePointer(pointer)
    }

    /// A `strdup`ed copy that is never freed.
    static func cString(_ s: String) -> UnsafePointer<CChar> {
        UnsafePointer(strdup(s)!)
    }
}
