import Synchronization

/// What calls of one registered skill work out once and then reuse without a lookup by name: the
/// runtime that runs its code (see `RuntimePool`) and its call context per caller kind (see
/// `CallContext`). Each entry names the object that filled it (`owner`), so a skill value shared by two
/// hosts in one process never gets the other host's runtime or context. A new skill value (a field set,
/// a new registry) starts with an empty memo; the pool still holds one runtime per file.
/// Thread-safe.
final class SkillMemo: Sendable {
    /// The runtime `RuntimePool` `owner` made for this skill's file.
    let runtime = Mutex<(owner: ObjectIdentifier, runtime: any SkillRuntime)?>(nil)

    /// A call context: everything up to `"now":` (fixed per skill and caller kind), and the whole text
    /// for the second `second` (see `CallClock.now()`).
    struct Context {
        let owner: ObjectIdentifier
        let caller: Int
        let prefix: String
        var second: Int
        var text: String
    }
    /// At most one entry per owner and caller kind.
    let contexts = Mutex<[Context]>([])

    init() {}
}
