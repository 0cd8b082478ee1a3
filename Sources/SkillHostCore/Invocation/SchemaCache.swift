import Synchronization

/// The compiled input and output schemas of every intent, per skill file (`FileKey`: a replaced file
/// is another key), compiled on first use from the skill's full manifest, so a call pays for a lookup.
/// Thread-safe.
final class SchemaCache: Sendable {
    typealias Schemas = (input: JSONSchema, output: JSONSchema?)
    private let compiled = Mutex<[FileKey: [String: Schemas]]>([:])

    /// The schemas of `binding`'s intent: from the binding's own slot after its first call, else
    /// compiled (once per skill file, whichever registry asks) and kept in the slot.
    func schemas(_ binding: IntentBinding) -> Result<Schemas, SkillError> {
        if let s = binding.cache.schemas.withLock({ $0 }) { return .success(s) }
        let r = schemas(binding.skill, binding.intent.address)
        if case .success(let s) = r { binding.cache.schemas.withLock { $0 = s } }
        return r
    }

    /// The schemas of `intent` (its address) of `skill`: `load_failed` when the cached manifest cannot
    /// be read or a schema does not compile.
    private func schemas(_ skill: RegisteredSkill, _ intent: String) -> Result<Schemas, SkillError> {
        let key = FileKey(skill)
        if let s = compiled.withLock({ $0[key]?[intent] }) { return .success(s) }
        guard let full = skill.manifest()?.intents.first(where: { $0.address == intent }) else {
            return .failure(SkillError(.loadFailed, "skill \(skill.id): its cached manifest cannot be read", hint: "touch \(skill.file.path) to have it scanned again", skillID: skill.id))
        }
        do {
            let input = try JSONSchema(full.inputSchema)
            let output = try full.outputSchema.map { j throws(JSONSchema.CompileError) in try JSONSchema(j) }
            compiled.withLock { $0[key, default: [:]][intent] = (input, output) }
            return .success((input, output))
        } catch {
            return .failure(SkillError(.loadFailed, "skill \(skill.id): a schema of \(intent) is invalid: \(error)", skillID: skill.id))
        }
    }

    /// Forgets the schemas of files not in `keep`.
    func retain(_ keep: Set<FileKey>) {
        compiled.withLock { map in for k in map.keys where !keep.contains(k) { map[k] = nil } }
    }
}

/// What one binding works out once (see `IntentBinding.cache`): its compiled schemas, empty until its
/// first call, and `,"intent":…,"skill":…,"version":…` of the audit lines of calls its skill answers
/// (`Invoker.auditLine`). One object, so copying a binding costs one reference.
final class BindingCache: Sendable {
    let schemas = Mutex<SchemaCache.Schemas?>(nil)
    private let names = Mutex<[UInt8]?>(nil)

    /// The audit line's names (`IntentBinding.auditNames`): made by `make` on the first audited call
    /// through the binding, not when the registry is built (most bindings are never called).
    func auditNames(_ make: () -> [UInt8]) -> [UInt8] {
        names.withLock { n in
            if let n { return n }
            let made = make()
            n = made
            return made
        }
    }
}

/// Identifies one file of one skill: a replaced or moved file, or a change of isolation, is another key.
struct FileKey: Hashable, Sendable {
    let id: String, path: String, inode: UInt64, mtimeNs: Int64, isolation: Isolation

    init(_ s: RegisteredSkill) {
        (id, path, inode, mtimeNs, isolation) = (s.id, s.file.path, s.file.inode, s.file.mtimeNs, s.isolation)
    }

    /// The file's inode and time only (`==` still compares every field): looked up on every call, and
    /// hashing the two strings was most of a lookup.
    func hash(into h: inout Hasher) {
        h.combine(inode)
        h.combine(mtimeNs)
    }
}
