import Foundation
import Synchronization

/// Everything the C thunks of one exported skill need: the skill value, its intent names, the host table
/// given to `init`, and the configuration seen in the most recent call (for the ambient context).
/// One instance per exported skill id, alive for the rest of the process. Thread-safe.
final class ExportedSkill: Sendable {
    let skill: any AgentSkill
    /// `skill` when it was exported as a `SynchronousSkill` (`exportSkill`'s overload), else nil.
    let synchronous: (any SynchronousSkill)?
    let id: String
    /// The intents' addresses. An array: a skill has a few, and comparing a call's intent with a few of
    /// them byte for byte costs less than making a `String` of it and hashing that (on every call).
    let intentNames: [String]
    /// Problems found while building the manifest; logged through the host at `init`.
    let exportWarnings: [String]

    private let host = Mutex<HostServices?>(nil)
    private let ambient = Mutex<ContextFields?>(nil)

    init(skill: any AgentSkill, synchronous: (any SynchronousSkill)?, intents: [SkillIntent], warnings: [String]) {
        self.skill = skill
        self.synchronous = synchronous
        self.id = skill.id
        self.intentNames = intents.map(\.address)
        self.exportWarnings = warnings
    }

    /// The address in `intentNames` whose UTF-8 bytes are the NUL-terminated `name`'s, or nil (the host
    /// sends a name as the manifest spelled it). Compares in place: no new `String` per call (the one
    /// returned is the stored one).
    func intent(named name: UnsafePointer<CChar>) -> String? {
        let length = strlen(name)
        for var address in intentNames where address.utf8.count == length {
            if length == 0 || address.withUTF8({ memcmp($0.baseAddress!, name, length) == 0 }) { return address }
        }
        return nil
    }

    /// Stores the host table on the first `init`; later calls keep the first one.
    func setHost(_ services: HostServices?) {
        host.withLock { if $0 == nil { $0 = services } }
    }

    var hostServices: HostServices? { host.withLock { $0 } }

    /// Remembers the configuration and data directory of a call, for later ambient contexts.
    func remember(_ fields: ContextFields) {
        ambient.withLock { if $0 !== fields { $0 = fields } }
    }

    /// The context for `setUp` and `healthCheck`: see `SkillContext` ("Ambient context").
    func ambientContext() -> SkillContext {
        let last = ambient.withLock { $0 }
        let fields = ContextFields(configJSON: last?.configJSON ?? Array("{}".utf8),
                                   dataDirectory: last?.dataDirectory ?? ContextDecoding.defaultDataDirectory(skillID: id),
                                   locale: "en", timeZone: .current, now: Date(), caller: "automation")
        return SkillContext(fields: fields, session: CallSession(host: hostServices))
    }
}
