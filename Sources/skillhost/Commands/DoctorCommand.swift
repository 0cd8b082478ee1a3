import SkillHostCore

/// `skillhost doctor [--json]`: what is wrong, and how to fix it.
enum DoctorCommand {
    static func run(_ args: Arguments) -> Int32 {
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: args.flag("--json")) }
        let folderProblems = host.scan.folders.filter { $0.problem != nil }
        let refusals = host.scan.refusals
        let conflicts = host.registry.conflicts
        let health = host.lastHealth()
        let unhealthy = health.keys.sorted().compactMap { id -> (id: String, health: SkillHealth, fix: String)? in
            let h = health[id]!
            let path = host.registry.skill(id: id)?.file.path ?? "its file"
            switch h.state {
            case .quarantined:
                return (id, h, "fix the skill and replace its file (\(path)), or run `skillhost unblock \(id)` to let calls through again")
            case .unavailable:
                return (id, h, "see the reason; when the skill can serve again, `skillhost health` (or its next successful call) marks it ok")
            case .ok, .degraded: return nil
            }
        }
        let stateProblems = host.healthProblems()
        let sandboxNotes = host.sandboxNotes()
        let problems = folderProblems.count + refusals.count + conflicts.count + unhealthy.count + stateProblems.count
        if args.flag("--json") {
            Out.json(.object(JSONObject([
                ("folders", .array(host.scan.folders.map { f in
                    var o = JSONObject([("path", .string(f.path)), ("exists", .bool(f.exists))])
                    if let p = f.problem { o["problem"] = .string(p) }
                    if let h = f.hint { o["hint"] = .string(h) }
                    return .object(o)
                })),
                ("searchPath", .array(host.searchPath.map(\.json))),
                ("installFolder", .string(PathText.absolute(host.installFolder.path))),
                ("skills", .int(Int64(host.registry.skills.count))),
                ("refused", .array(refusals.map(\.json))),
                ("conflicts", .array(conflicts.map(\.json))),
                ("shadowed", .array(host.scan.shadowed.map(\.json))),
                ("unhealthy", .array(unhealthy.map { u in
                    .object(JSONObject([("id", .string(u.id)), ("health", .string(u.health.state.rawValue)),
                                        ("healthDetail", u.health.detailJSON), ("fix", .string(u.fix))]))
                })),
                ("state", .array(stateProblems.map { .object(JSONObject([("problem", .string($0.message)), ("fix", .string($0.hint))])) })),
                ("sandbox", .array(sandboxNotes.map(\.json))),
                ("config", host.config.source.map(JSON.string) ?? .null),
                ("problems", .int(Int64(problems))),
            ])), pretty: true)
            return problems == 0 ? 0 : 1
        }
        Out.print("skill search path (first match of a skill id by version; install goes to the first writable folder):")
        for (i, f) in host.searchPath.enumerated() {
            let state = f.exists ? (f.writable ? "exists, writable" : "exists, read-only") : (f.named ? "missing" : "not created yet, skipped")
            let target = f == host.installFolder ? "  ← install" : ""
            Out.print("  \(i + 1). \(Out.safe(PathText.absolute(f.path)))  (\(f.origin.rawValue); \(state))\(target)")
        }
        Out.print("config: \(Out.safe(host.config.source ?? "none (defaults)"))")
        Out.print("registered: \(host.registry.skills.count) skills, \(host.registry.intentNames.count) intents")
        for f in folderProblems {
            Out.print("")
            Out.labelled("✗", .red, " \(Out.safe(f.problem!))")
            if let h = f.hint { Out.print("  fix: \(Out.safe(h))") }
        }
        for r in refusals {
            Out.print("")
            Out.labelled("✗ refused", .red, " [\(r.reason.rawValue)] \(Out.safe(r.message))")
            if let h = r.hint { Out.print("  fix: \(Out.safe(h))") }
        }
        for s in host.scan.shadowed {
            Out.print("\n· \(Out.safe(s.skill.file.path)) holds \(Out.safe(s.skill.summary.id)) \(s.skill.summary.version), shadowed by version \(s.byVersion) in \(Out.safe(s.byPath)) (not a problem: remove the newer file to roll back, or the older one to tidy up)")
        }
        for c in conflicts {
            Out.print("\n! intent \(Out.safe(c.intent)) is declared by \(c.bindings.count) skills: " +
                      Out.safe(c.bindings.map { "\($0.skill.id) (priority \($0.intent.priority), confidence \($0.intent.confidence))" }.joined(separator: ", ")) +
                      "\n  calls go to \(Out.safe(c.bindings[0].skill.id))\n  fix: if that is not what you want, raise the priority of the other skill or remove one")
        }
        for p in stateProblems {
            Out.print("")
            Out.labelled("✗", .red, " \(Out.safe(p.message))\n  fix: \(Out.safe(p.hint))")
        }
        for u in unhealthy {
            Out.print("")
            Out.labelled("✗", .red, " \(Out.safe(u.id)) is \(u.health.state.rawValue) since \(TimeText.rfc3339(u.health.since)): \(Out.safe(u.health.reason))" +
                      "\n  counters: \(u.health.calls) calls, \(u.health.failures) failures, \(u.health.crashes) crashes, \(u.health.timeouts) timeouts" +
                      "\n  fix: \(Out.safe(u.fix))")
        }
        for n in sandboxNotes { Out.print("\n! \(Out.safe(n.message))\n  fix: \(Out.safe(n.fix))") }
        Out.print("")
        if problems == 0 { Out.labelled("No problems found.", .green, "") } else { Out.labelled("\(problems) problem\(problems == 1 ? "" : "s") found.", .red, "") }
        return problems == 0 ? 0 : 1
    }
}
