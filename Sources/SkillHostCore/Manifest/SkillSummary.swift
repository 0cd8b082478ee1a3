/// The parts of a manifest that the registry, `list` and the invoker's routing need: identity and,
/// per intent, name, flags, surfaces, priority and confidence. Cheap to load from the scan cache; the
/// full manifest (schemas, keywords, examples) stays as JSON text next to it until someone needs it.
@dynamicMemberLookup
public struct SkillSummary: Sendable, Equatable {
    public var identity: SkillIdentity
    public var intents: [IntentSummary]

    public subscript<T>(dynamicMember field: KeyPath<SkillIdentity, T>) -> T { identity[keyPath: field] }
}

/// One intent, as routing needs it.
public struct IntentSummary: Sendable, Equatable {
    public var name: String
    /// skh_intent.version (1 when not given).
    public var version: Int = 1
    public var flags: IntentFlags
    public var surfaces: Surfaces
    public var priority: Int32
    public var confidence: Double

    /// "name" or "name@N" (see `IntentAddress`).
    public var address: String { IntentAddress.format(name, version) }
}

extension SkillManifest {
    public var summary: SkillSummary {
        SkillSummary(identity: identity,
                     intents: intents.map { IntentSummary(name: $0.name, version: $0.version, flags: $0.flags, surfaces: $0.surfaces,
                                                          priority: $0.priority, confidence: $0.confidence) })
    }
}

extension SkillSummary {
    /// A compact form for the scan cache: arrays, not objects, so a warm start parses little (read
    /// back by `ScanCache.readIndex`, straight from the bytes).
    /// `[id, name, version, category, vendor, description, abiMajor, abiMinor, toolchain|null,
    ///   threadSafe, hasHealth, [[intent, flags, surfaces, priority, confidence, version], …], abiMinorRequired
    ///   (, requestedPermissions when any)]`
    var compactJSON: JSON {
        let i = identity
        return .array([.string(i.id), .string(i.name), .string(i.version.description), .string(i.category), .string(i.vendor),
                .string(i.description), .int(Int64(i.abiMajor)), .int(Int64(i.abiMinor)), i.toolchain.map(JSON.string) ?? .null,
                .bool(i.threadSafe), .bool(i.hasHealth),
                .array(intents.map { .array([.string($0.name), .int(Int64($0.flags.rawValue)), .int(Int64($0.surfaces.rawValue)),
                                             .int(Int64($0.priority)), .double($0.confidence), .int(Int64($0.version))]) }),
                .int(Int64(i.abiMinorRequired))] + (i.permissions.isEmpty ? [] : [i.permissions.json]))
    }
}
