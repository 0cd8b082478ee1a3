import Glibc
import SkillABI
import SkillCalls
import SkillLoading
import SkillWire

/// The worker's side of `SkillServices` (the one `skh_host` table, shared with the host): a skill's log
/// lines, context writes and misuse of a call become frames to the host.
///   log                 → `log` frame (the host writes it to its log)
///   context_set         → `context_set` frame (the host applies it to its store; see `ContextStore`)
///   complete twice/late → `log` frame with an `event` the host counts (`skillhost validate`'s
///                         exactly-once check)
enum WorkerServices {
    /// The table skills get in this worker; installs the worker's handlers on first use (before the
    /// skill's init, so before any call).
    static var table: UnsafePointer<skh_host> {
        _ = installed
        return SkillServices.table
    }

    private static let installed: Void = SkillServices.install(SkillServices.Handlers(
        log: { slot, level, message in
            var f = Line.frame(.log)
            f.key(.id)
            if let slot { f.number(slot.id) } else { f.raw("null") }
            f.key(.level, number: level)
            f.key(.message); f.text(message)
            channel.send(&f)
        },
        misuse: { slot, what in
            var f = Line.frame(.log)
            f.key(.id, number: slot.id)
            f.key(.level, number: SKH_LOG_WARNING)
            f.key(.event); f.quoted(what == .completedTwice ? "complete_twice" : "complete_late")
            f.key(.intent); f.quoted(slot.intent)
            f.key(.message)
            f.quoted(what == .completedTwice
                ? "called complete twice for one \(slot.intent) call; the second completion was ignored (a bug in the skill)"
                : "completed \(slot.intent) after the call was given up; the late result was dropped")
            channel.send(&f)
        },
        contextSet: { key, value in
            var f = Line.frame(.contextSet)
            f.key(.key); f.quoted(key)
            f.key(.value); f.rawJSON(value)
            channel.send(&f)
        }))
}
