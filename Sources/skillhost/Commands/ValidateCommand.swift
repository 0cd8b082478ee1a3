import SkillHostCore

/// `skillhost validate FILE [--json]`: the conformance report of `SkillHost.validate(file:)`.
/// Exit 0 when no check failed, 1 when one did, 2 for a usage error.
enum ValidateCommand {
    static func run(_ args: Arguments) -> Int32 { withHost(forOneFile: args, validate) }

    static func validate(_ host: SkillHost, _ file: String, _ json: Bool) -> Int32 {
        let report = LiveLine.during("⋯ validate \(file)") { live in
            host.validate(file: file, onCheck: { live.update(progress(after: $0, file: file)) })
        }
        if json { Out.json(report.json); return report.ok ? 0 : 1 }
        Out.print(header(report))
        let width = report.checks.map(\.name.count).max() ?? 0
        for c in report.checks {
            Out.labelled(c.status.rawValue.uppercased().padding(4), style(c.status), "  " + c.name.padding(width) + "  " + c.message)
        }
        Out.print("validate: \(report.tally)")
        return report.ok ? 0 : 1
    }

    /// The live line once `check` is decided: what passed so far, and which check runs next.
    static func progress(after check: ValidationCheck, file: String) -> String {
        let names = SkillHost.validationCheckNames
        let next = names.firstIndex(of: check.name).flatMap { $0 + 1 < names.count ? names[$0 + 1] : nil }
        return "⋯ validate \(file): \(check.name) \(check.status.rawValue)" + (next.map { ", running \($0)" } ?? "")
    }

    static func style(_ s: ValidationCheck.Status) -> Terminal.Style {
        switch s {
        case .pass: return .green
        case .warn: return .yellow
        case .fail: return .red
        case .skip: return .dim
        }
    }

    /// "validate FILE — ID VERSION — asks for: …"
    static func header(_ r: ValidationReport) -> String {
        let asks = r.permissions.map { " — asks for: " + $0.lines.joined(separator: "; ") } ?? ""
        return "validate \(r.file)" + (r.id.map { " — \($0) \(r.version ?? "")" } ?? "") + asks
    }
}
