/// A skill: identity, the intents it serves, and the code that serves them.
///
/// Export it with one line (the function must be `public`, or the symbol is not exported):
///
///     @_cdecl("skillhost_entry") public func skillhost_entry() -> UnsafeRawPointer { exportSkill(MySkill()) }
///
/// Threading: `execute` runs on a task per call that starts on the host's thread (see `execute`); a
/// skill whose calls never wait can adopt `SynchronousSkill` instead, whose `run` is called on the
/// host's thread with no task. With `isThreadSafe == true` (the default) the
/// host may run several calls at once; with `false` it never overlaps two calls of this skill.
/// `setUp` runs once, before any call, on the host's thread. `healthCheck` runs on a task while the
/// host's health thread waits for it; it must not wait for a call to finish.
///
/// The value is shared by every call (it is `Sendable`): keep mutable state in an actor or behind a lock.
public protocol AgentSkill: Sendable {
    /// Reverse-DNS, lowercase, at least two parts: `"com.example.calendar"`.
    var id: String { get }
    /// Human name: `"Calendar"`.
    var name: String { get }
    /// Semantic version 2.0.0: `"1.4.2"`.
    var version: String { get }
    /// One lowercase word: `"productivity"`, `"weather"`, …
    var category: String { get }
    /// Who ships it.
    var vendor: String { get }
    /// One or two sentences.
    var description: String { get }
    /// The intents this skill serves; at least one. Read once, by `exportSkill`.
    var supportedIntents: [SkillIntent] { get }
    /// Whether `execute` may run concurrently with itself. Default `true`.
    var isThreadSafe: Bool { get }
    /// The oldest ABI 1.x minor of the host this skill can work with (`skh_skill.abi_minor_required`).
    /// Default 0: the skill runs on any 1.x host and checks `SkillContext.missingHostServices` for what a
    /// newer host would offer. Raise it only if the skill cannot do without a later service; a 1.1+
    /// host then refuses it with a message naming both versions, and an older host gets a failed `init`
    /// whose log line names the missing services.
    var requiredHostABIMinor: Int { get }
    /// What the skill needs beyond computing (`skh_skill.permissions`, ABI 1.2): network, files,
    /// environment variables, programs. Default `.none`. See `SkillPermissions`.
    var permissions: SkillPermissions { get }

    /// Serves one call of one of `supportedIntents` (the host has already validated `input` against the
    /// intent's input schema). Throw `SkillError` to choose the status; any other error becomes
    /// `SKH_STATUS_FAILED`. Errors from `input.decode` are already `SkillError.invalidInput`.
    ///
    /// Threading: `execute` starts on the host's thread that called the ABI's invoke() and runs there
    /// until its first suspension (`Task.immediate`), so quick work costs no thread hand-off. Work
    /// that takes long without suspending (parsing a large file, a blocking read) should begin with
    /// `await Task.yield()` or go to a task of its own, so that the host's thread goes back to reading
    /// calls.
    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult

    /// Reports whether the skill can serve now. May take up to a few seconds. Default: `.ok`.
    /// `context` is the ambient context (see `SkillContext`): no call, `now` is the current time.
    func healthCheck(context: SkillContext) async -> SkillHealth

    /// Called once, from the ABI `init`, before any call or health check. Throwing makes the host refuse
    /// the skill (error kind `load_failed`); the error is logged through the host. Default: nothing.
    func setUp(context: SkillContext) throws
}

extension AgentSkill {
    public var isThreadSafe: Bool { true }
    public var requiredHostABIMinor: Int { 0 }
    public var permissions: SkillPermissions { .none }
    public func healthCheck(context: SkillContext) async -> SkillHealth { .ok }
    public func setUp(context: SkillContext) throws {}
}

/// A skill whose calls never wait: `run` does all of a call's work on the calling thread and returns
/// (or throws) without suspending — the usual case for a skill that computes its answer from the input,
/// the context and files it reads quickly.
///
/// Adopt it instead of implementing `execute`, and export it with its own type
/// (`exportSkill(MySkill())`, whose overload for a `SynchronousSkill` picks this path at compile time;
/// exported through an `AgentSkill` generic or existential it runs as one): the bridge then calls `run` directly on the host's
/// thread that called the ABI's invoke() and completes the call before invoke() returns, without
/// creating a task (a task per call costs about as much as decoding a small input). `execute` is
/// provided: it calls `run`, so tests and callers that use `execute` see the same results.
///
///     struct Echo: SynchronousSkill {
///         …
///         func run(input: SkillInput, context: SkillContext) throws -> SkillResult { … }
///     }
///
/// Threading: `run` blocks the host's thread while it works, and there is no task around it (no
/// `Task.isCancelled`, no task-local values: use `context.isCancelled`). Work that waits — network,
/// another process, a lock held for long — belongs in a plain `AgentSkill`'s `execute`, where a
/// suspension hands the thread back to the host. Errors, statuses, `isThreadSafe` and the context's
/// services are as for `execute`.
public protocol SynchronousSkill: AgentSkill {
    /// Serves one call of one of `supportedIntents`, as `AgentSkill.execute` does, without suspending.
    func run(input: SkillInput, context: SkillContext) throws -> SkillResult
}

extension SynchronousSkill {
    /// Calls `run`.
    public func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        try run(input: input, context: context)
    }
}
