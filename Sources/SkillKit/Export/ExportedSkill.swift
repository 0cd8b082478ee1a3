import Foundation
import Synchronization

/// Everything the C thunks of one exported skill need: the skill value, its intent names, the host table
/// given to `init`, and the configuration seen in the most recent call (for the ambient context).
/// One instance per exported skill id, alive for the rest of the process. Thread-safe.
final class ExportedSkill: Sendable {
    let skill: any AgentSkill
    let id: String
    let intentNames: Set<String>
    /// Problems found while building the manifest; logged through the host at `init`.
    let exportWarnings: [String]

    private let host = Mutex<HostServices?>(nil)
    private let ambient = Mutex<(configJSON: [UInt8], dataDirectory: String)?>(nil)

    init(skill: any AgentSkill, intents: [SkillIntent], warnings: [String]) {
        self.skill = skill
        self.id = skill.id
        self.intentNames = Set(intents.map(\.address))
        self.exportWarnings = warnings
    }

    /// Stores the host table on the first `init`; later calls keep the first one.
    func setHost(_ services: HostServices?) {
        host.withLock { if $0 == nil { $0 = services } }
    }

    var hostServices: HostServices? { host.withLock { $0 } }

    /// Remembers the configuration of a call, for later ambient contexts.
    func remember(configJSON: [UInt8], dataDirectory: String) {
        ambient.withLock { $0 = (configJSON, dataDirectory) }
    }

    /// The context for `setUp` and `healthCheck`: see `SkillContext` ("Ambient context").
    func ambientContext() -> SkillContext {
        let last = ambient.withLock { $0 }
        return SkillContext(configJSON: last?.configJSON ?? Array("{}".utf8),
                            dataDirectory: last?.dataDirectory ?? ContextDecoding.defaultDataDirectory(skillID: id),
                            locale: "en", timeZone: .current, now: Date(), caller: "automation",
                            session: CallSession(host: hostServices))
    }
}
