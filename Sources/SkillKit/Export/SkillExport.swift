import Synchronization

/// Builds the skill's `skh_skill` and returns a pointer to it; call it from the skill's exported entry:
///
///     @_cdecl("skillhost_entry") public func skillhost_entry() -> UnsafeRawPointer { exportSkill(MySkill()) }
///
/// - The struct is built once per skill id (thread-safe) and returned on every later call with that id;
///   it and every string it points to (each `strdup`ed) live for the rest of the process and are never
///   freed — a Swift image is never unloaded.
/// - Records `abi_major`/`abi_minor` from `skillhost.h`, `struct_size`s, the toolchain as
///   `"swift-MAJOR.MINOR"`, and `SKH_SKILL_THREAD_SAFE` when `isThreadSafe`.
/// - Bridges the ABI functions: `init` (stores the host table, calls `setUp`), `invoke` (copies the call's
///   input and context, calls a `SynchronousSkill`'s `run` on the calling thread, else runs `execute` as
///   a task that starts on the calling thread (`Task.immediate`); completes exactly once), `health` (runs `healthCheck` on a task while the host's thread waits on a
///   semaphore; the detail JSON is `malloc`ed and released by `release`).
///
/// One image normally exports one skill. Up to 8 distinct skill ids can be exported in one process
/// (a test binary that links several skills); more is a programming error and traps.
public func exportSkill(_ skill: some AgentSkill) -> UnsafeRawPointer {
    SkillRegistry.export(skill, synchronous: nil)
}

/// `exportSkill` for a `SynchronousSkill`: its calls run `run` on the host's thread, with no task.
/// Chosen at compile time (the more specific overload), never by a cast at run time: a protocol
/// conformance looked up while many images are loaded scans every image's conformances (200 Swift
/// skills scanned at once paid ~100 ms for it).
public func exportSkill(_ skill: some SynchronousSkill) -> UnsafeRawPointer {
    SkillRegistry.export(skill, synchronous: skill)
}

/// The skills exported in this process, by slot. Slot `n` is served by the C thunks of slot `n`.
enum SkillRegistry {
    static let slotCount = 8

    private struct Entry: @unchecked Sendable {
        let exported: ExportedSkill
        let manifest: UnsafeRawPointer
    }

    private static let entries = Mutex<[Entry]>([])

    static func export(_ skill: any AgentSkill, synchronous: (any SynchronousSkill)?) -> UnsafeRawPointer {
        let entry = entries.withLock { entries -> Entry in
            let id = skill.id
            if let existing = entries.first(where: { $0.exported.id == id }) { return existing }
            precondition(entries.count < slotCount, "SkillKit: more than \(slotCount) skills exported in one process")
            let (exported, manifest) = Manifest.build(skill, synchronous: synchronous, slot: entries.count)
            let entry = Entry(exported: exported, manifest: manifest)
            entries.append(entry)
            return entry
        }
        return entry.manifest
    }

    static func exported(slot: Int) -> ExportedSkill? {
        entries.withLock { slot < $0.count ? $0[slot].exported : nil }
    }
}
