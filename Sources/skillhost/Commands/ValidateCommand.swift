import SkillHostCore

/// `skillhost validate FILE [--json]`: the conformance report of `SkillHost.validate(file:)`.
/// Exit 0 when no check failed, 1 when one did, 2 for a usage error.
enum ValidateCommand {
    static func run(_ args: Arguments) -> Int32 { withHost(forOneFile: args, validate) }

    static func validate(_ host: SkillHost, _ file: String, _ json: Bool) -> Int32 {
        let report = host.validate(file: file)
        if json { Out.json(report.json) } else { Out.print(text(report)) }
        return report.ok ? 0 : 1
    }

    /// A header line (file, id, version), one line per check, and the tally.
    static func text(_ r: ValidationReport) -> String {
        let asks = r.permissions.map { " — asks for: " + $0.lines.joined(separator: "; ") } ?? ""
        let who = (r.id.map { " — \($0) \(r.version ?? "")" } ?? "") + asks
        let width = r.checks.map(\.name.count).max() ?? 0
        let lines = r.checks.map { c in
            c.status.rawValue.uppercased().padding(4) + "  " + c.name.padding(width) + "  " + c.message
        }
        return (["validate \(r.file)\(who)"] + lines + ["validate: \(r.tally)"]).joined(separator: "\n")
    }
}
