import SkillHostCore

/// `skillhost unblock ID [--json]`: put a skill back to ok (out of quarantine).
enum UnblockCommand {
    static func run(_ args: Arguments) -> Int32 {
        let json = args.flag("--json")
        let id = args.positionals[0]
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: json) }
        switch host.unblock(id: id) {
        case .failure(let e): return Out.fail(e, json: json)
        case .success(let h):
            if json {
                Out.json(.object(JSONObject([("ok", .bool(true)), ("id", .string(id)), ("health", .string(h.state.rawValue)),
                                             ("healthDetail", h.detailJSON)])))
            } else {
                Out.print("\(id) is \(h.state.rawValue) again: calls reach it (\(h.calls) calls, \(h.crashes) crashes so far)")
            }
            return 0
        }
    }
}
