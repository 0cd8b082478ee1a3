import SkillHostCore
import SkillWire

/// `skillhost list [--all] [--json]`: `--json` prints `{"version","skills","refused","shadowed","conflicts"}`.
enum ListCommand {
    static func run(_ args: Arguments) -> Int32 {
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: args.flag("--json")) }
        // The process exits right after this command: tearing down the registry and the scan (200
        // skills: ~0.7 ms of a warm `list`) would be work for nothing.
        _ = Unmanaged.passRetained(host)
        let health = host.lastHealth()
        let all = args.flag("--all")
        // Each read of `scan` or `registry` takes a lock and copies: once here, not once per skill.
        let (scan, registry) = (host.scan, host.registry)
        if args.flag("--json") {
            // One shape whatever the flags (--all changes only the text): written member by member,
            // each skill's manifest text as the scan stored it.
            var line = Line()
            line.bytes.reserveCapacity(registry.skills.reduce(4096) { $0 + $1.manifestText.count + 1024 })
            line.raw("{")
            line.key("version"); line.quoted(BuildInfo.version)
            line.key("skills")
            line.raw("[")
            for (i, s) in registry.skills.enumerated() {
                if i > 0 { line.raw(",") }
                s.writeListJSON(health: health[s.id], shadows: scan.shadowed(by: s.id), to: &line) { host.writeListMembers(of: s, to: &$0) }
            }
            line.raw("]")
            line.key("refused"); JSON.array(scan.refusals.map(\.json)).write(to: &line.bytes)
            line.key("shadowed"); JSON.array(scan.shadowed.map(\.json)).write(to: &line.bytes)
            line.key("conflicts")
            line.raw("[")
            for (k, c) in registry.conflicts.enumerated() {
                if k > 0 { line.raw(",") }
                c.writeJSON(to: &line)
            }
            line.raw("]}\n")
            ProtectedOutput.write(bytes: line.bytes)
            return 0
        }
        let rows = registry.skills.map { s in
            [s.id, s.summary.version.description, s.summary.category, s.summary.abi, s.isolation.rawValue,
             health[s.id]?.state.rawValue ?? "ok", host.sandboxStatus(of: s).mode, s.summary.intents.map(\.address).joined(separator: ", ")]
        }
        if rows.isEmpty {
            Out.print("No skills registered (search path: \(Out.safe(host.searchPath.map { PathText.absolute($0.path) }.joined(separator: ":")))).")
        } else {
            Out.print(Out.table(["ID", "VERSION", "CATEGORY", "ABI", "ISOLATION", "HEALTH", "SANDBOX", "INTENTS"], rows))
        }
        let intents = registry.intentNames.count
        var summary = "\(rows.count) skill\(rows.count == 1 ? "" : "s"), \(intents) intent\(intents == 1 ? "" : "s")."
        if !scan.refusals.isEmpty {
            summary += " \(scan.refusals.count) file\(scan.refusals.count == 1 ? " was" : "s were") refused" + (all ? ":" : " (see `skillhost list --all` or `skillhost doctor`).")
        }
        Out.print(summary)
        for s in scan.shadowed {
            Out.print("shadowed: \(Out.safe(s.skill.summary.id)) \(s.skill.summary.version) (\(Out.safe(s.skill.file.path))) by version \(s.byVersion) (\(Out.safe(s.byPath)))")
        }
        for c in registry.conflicts {
            Out.print(Out.safe("conflict: \(c.intent) is declared by \(c.bindings.map { "\($0.skill.id) (priority \($0.intent.priority))" }.joined(separator: ", ")); calls go to \(c.bindings[0].skill.id)"))
        }
        if all {
            for r in scan.refusals { Out.print("refused [\(r.reason.rawValue)] \(Out.safe(r.message))") }
        }
        return 0
    }
}
