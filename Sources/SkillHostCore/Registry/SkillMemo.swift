import Synchronization

/// What calls of one registered skill work out once and then reuse without a lookup by name: the
/// runtime that runs its code (see `RuntimePool`), its call context per caller kind (see
/// `CallContext`) and what the health tracker knows of it (see `HealthTracker`). Each entry names the object that filled it by its `Owner` number, never reused in
/// the process (an object's address can be: a later host's pool could sit where an ended one was), so
/// a skill value shared by two hosts in one process never gets the other host's runtime or context. A
/// new skill value (a field set, a new registry) starts with an empty memo; the pool still holds one
/// runtime per file. Thread-safe.
final class SkillMemo: Sendable {
    /// Names one filler of memos (a `RuntimePool`, a `CallContext`) for as long as the process runs.
    struct Owner: Equatable, Sendable {
        private let number: UInt64
        private static let next = Atomic<UInt64>(1)

        /// A number no other owner in this process has or had.
        init() { number = Self.next.add(1, ordering: .relaxed).oldValue }
    }

    /// The runtime `RuntimePool` `owner` made for this skill's file.
    let runtime = Mutex<(owner: Owner, runtime: any SkillRuntime)?>(nil)

    /// A call context: everything up to `"now":` (fixed per skill and caller kind), and the whole text
    /// for the second `second` (see `CallClock.now()`).
    struct Context {
        let owner: Owner
        let caller: Int
        let prefix: String
        var second: Int
        var text: String
    }
    /// At most one entry per owner and caller kind.
    let contexts = Mutex<[Context]>([])

    /// What `HealthTracker` `owner` knows of this skill, so that a healthy skill's call looks nothing
    /// up by its id. Read and written only under that tracker's lock.
    struct Health {
        let owner: Owner
        /// The tracker's view (its `generation`) in which this skill's entry was `ok` and about this
        /// skill's file; 0: not known. Any change of the view makes it stale.
        var okIn: UInt64 = 0
        /// This skill's row in the tracker's list of successes not yet written, while that list is the
        /// one of `pendingEpoch` (the list starts over after each write).
        var pendingEpoch: UInt64 = 0
        var pendingRow = 0
    }
    let health = Mutex<Health?>(nil)

    init() {}
}
