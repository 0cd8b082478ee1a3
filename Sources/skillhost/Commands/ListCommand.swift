import SkillHostCore

/// `skillhost list [--all] [--json]`
enum ListCommand {
    static func run(_ args: Arguments) -> Int32 {
        do { try args.allow(["--all"]) } catch { Out.error("skillhost: \(error.message)"); return 2 }
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: args.flag("--json")) }
        let health = host.lastHealth()
        let all = args.flag("--all")
        if args.flag("--json") {
            let skills = JSON.array(host.registry.skills.map { skillJSON($0, health[$0.id]) })
            if all {
                Out.json(.object(JSONObject([("skills", skills), ("refused", .array(host.scan.refusals.map(\.json))),
                                             ("conflicts", .array(host.registry.conflicts.map(conflictJSON)))])))
            } else {
                Out.json(skills)
            }
            return 0
        }
        let rows = host.registry.skills.map { s in
            [s.id, s.manifest.version.description, s.manifest.category, s.manifest.abi, s.isolation.rawValue,
             health[s.id]?.status ?? "ok", s.manifest.intents.map(\.name).joined(separator: ", ")]
        }
        if rows.isEmpty {
            Out.print("No skills registered (folders: \(host.directories.joined(separator: ":"))).")
        } else {
            Out.print(Out.table(["ID", "VERSION", "CATEGORY", "ABI", "ISOLATION", "HEALTH", "INTENTS"], rows))
        }
        let intents = host.registry.intentNames.count
        var summary = "\(rows.count) skill\(rows.count == 1 ? "" : "s"), \(intents) intent\(intents == 1 ? "" : "s")."
        if !host.scan.refusals.isEmpty {
            summary += " \(host.scan.refusals.count) file\(host.scan.refusals.count == 1 ? " was" : "s were") refused" + (all ? ":" : " (see `skillhost list --all` or `skillhost doctor`).")
        }
        Out.print(summary)
        for c in host.registry.conflicts {
            Out.print("conflict: \(c.intent) is declared by \(c.bindings.map { "\($0.skill.id) (priority \($0.intent.priority))" }.joined(separator: ", ")); calls go to \(c.bindings[0].skill.id)")
        }
        if all {
            for r in host.scan.refusals { Out.print("refused [\(r.reason.rawValue)] \(r.message)") }
        }
        return 0
    }

    /// One skill in the `list --json` contract.
    static func skillJSON(_ s: RegisteredSkill, _ h: HealthRecord?) -> JSON {
        guard case .object(var o) = s.manifest.json else { return .null }
        o["path"] = .string(s.file.path)
        o["sha256"] = s.file.sha256.map(JSON.string) ?? .null
        o["isolation"] = .string(s.isolation.rawValue)
        o["health"] = .string(h?.status ?? "ok")
        if let h { o["healthDetail"] = .object(JSONObject([("message", .string(h.message)), ("checkedAt", .string(h.checkedAt))])) }
        return .object(o)
    }

    static func conflictJSON(_ c: IntentConflict) -> JSON {
        .object(JSONObject([("intent", .string(c.intent)),
                            ("skills", .array(c.bindings.map { b in
                                .object(JSONObject([("id", .string(b.skill.id)), ("priority", .int(Int64(b.intent.priority))),
                                                    ("confidence", .double(b.intent.confidence)), ("path", .string(b.skill.file.path))]))
                            })),
                            ("chosen", .string(c.bindings[0].skill.id))]))
    }
}
