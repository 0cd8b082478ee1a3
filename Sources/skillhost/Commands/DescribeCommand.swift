import SkillHostCore
import SkillHostMCP

/// `skillhost describe INTENT [--json]`: one intent's inputs, flags and skill (`SkillHost.describe`),
/// like `gst-inspect-1.0 ELEMENT`. The hints of invalid_input errors point here.
enum DescribeCommand {
    static func run(_ args: Arguments) -> Int32 {
        let json = args.flag("--json")
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: json) }
        let d: IntentDescription
        switch host.describe(intent: args.positionals[0]) {
        case .failure(let e): return Out.fail(e, json: json)
        case .success(let x): d = x
        }
        let tool = mcpToolName(forIntent: d.intent.address)
        if json {
            guard case .object(var o) = d.json else { return 0 }
            o["mcpTool"] = .string(tool)
            Out.json(.object(o), pretty: true)
            return 0
        }
        let m = d.manifest
        var lines = ["\(d.intent.address) — \(d.intent.description)", ""]
        lines.append("  skill:      \(m.id) \(m.version) (\(m.name)), \(d.skill.file.path)")
        lines.append("  runs:       \(d.skill.isolation == .process ? "in a worker process" : "in-process (trusted)")")
        lines.append("  flags:      \(d.intent.flags.names.isEmpty ? "none (may change something; not retried)" : d.intent.flags.names.joined(separator: ", "))")
        lines.append("  surfaces:   \(d.intent.surfaces.names.joined(separator: ", "))")
        lines.append("  MCP tool:   \(tool)")
        if !d.fallbacks.isEmpty { lines.append("  fallbacks:  \(d.fallbacks.joined(separator: ", "))") }
        lines.append("")
        if d.inputs.isEmpty {
            lines.append("INPUTS: none (pass {})")
        } else {
            lines.append("INPUTS:")
            let rows = d.inputs.map { i -> [String] in
                var allowed: [String] = []
                if let a = i.allowed { allowed.append("one of " + a.map(\.serialized).joined(separator: ", ")) }
                allowed += i.limits
                if let v = i.defaultValue { allowed.append("default \(v.serialized)") }
                return ["  " + i.name, i.type, i.required ? "required" : "optional",
                        (allowed + (i.description.map { [$0] } ?? [])).joined(separator: "; ")]
            }
            lines.append(Out.table(["  NAME", "TYPE", "", "ALLOWED, DEFAULT, DESCRIPTION"], rows))
        }
        if !d.alternatives.isEmpty {
            lines.append("  give at least one of: " + d.alternatives.map { $0.joined(separator: " + ") }.joined(separator: "  |  "))
        }
        let examples = d.intent.examples.filter { $0.input != nil }
        if !examples.isEmpty {
            lines.append("\nEXAMPLES:")
            for e in examples.prefix(4) {
                lines.append("  “\(e.text)” (\(e.lang))\n    skillhost invoke \(d.intent.address) --input '\(e.input!.serialized)'")
            }
        }
        Out.print(lines.joined(separator: "\n"))
        return 0
    }
}
