import FoundationEssentials
import Glibc
import SkillABI
import SkillCalls
import SkillLoading
import Synchronization

/// The host process's side of `SkillServices` (the one `skh_host` table, shared with the worker): a
/// skill's log lines go to `SkillLog`, misuse of a call to the host's log; context writes need nothing
/// more (the store they land in is the host's, `SkillServices.store`, which workers get copies of).
enum HostServices {
    /// The table in-process skills get; installs the host's handlers on first use.
    static var table: UnsafePointer<skh_host> {
        _ = installed
        return SkillServices.table
    }

    private static let installed: Void = SkillServices.install(SkillServices.Handlers(
        log: { slot, level, message in
            SkillLog.shared.write(skill: slot?.skillID ?? "skill", level: level, message.map { String(cString: $0) } ?? "")
        },
        misuse: { slot, what in
            switch what {
            case .completedLate:
                HostLog.warning("skill \(slot.skillID) completed \(slot.intent) after the host stopped waiting; the late result was dropped")
            case .completedTwice:
                HostLog.warning("skill \(slot.skillID) called complete twice for one \(slot.intent) call; the second completion was ignored (a bug in the skill)")
            }
        },
        contextSet: { _, _ in }))
}

/// Where skills' log lines go: stderr, prefixed with the skill id, filtered by level
/// (`SKILLHOST_LOG=debug|info|warning|error`, default warning). Never stdout. Thread-safe.
final class SkillLog: Sendable {
    static let shared = SkillLog()
    let minimum: Int32 = {
        switch ProcessInfo.processInfo.environment["SKILLHOST_LOG"] {
        case "debug": return 0
        case "info": return 1
        case "error": return 3
        default: return 2
        }
    }()
    private let lock = Mutex(())

    func write(skill: String, level: Int32, _ text: String) {
        guard level >= minimum else { return }
        let name = ["debug", "info", "warning", "error"][Int(max(0, min(3, level)))]
        let line = "[\(skill)] \(name): \(text)\n"
        lock.withLock { _ in writeStandardError(line) }
    }
}
