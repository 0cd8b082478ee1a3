/// The context of one agent request, shared by its steps without shared mutable state: an actor that
/// holds `agent.request` (the request: text, locale, time zone, now) and, as steps finish, `agent.result.<intent>`
/// (each successful step's result). Every step gets a snapshot of it, taken when the step is dispatched,
/// which its skill reads through the ABI's `context_get` (see `ContextView`); nothing a concurrently
/// running step does changes that snapshot. Skills write through the host service (`context_set`), to
/// the host's shared store.
actor AgentContextStore {
    private var values: [String: JSON] = [:]

    init(request: AgentRequest) {
        // What was asked, not who or through which surface (the call context says that), so a replay sees the same.
        values["agent.request"] = .object(JSONObject([("text", .string(request.text)), ("locale", .string(request.locale)),
                                                      ("timeZone", .string(request.timeZone)), ("now", .string(request.nowText))]))
    }

    func record(_ record: StepRecord) {
        if record.status == .ok, let result = record.result { values["agent.result.\(record.step.intent)"] = result }
    }

    /// Key → JSON bytes, as a call's view.
    func snapshot() -> ContextView {
        values.mapValues { Array($0.serialized.utf8) }
    }
}
