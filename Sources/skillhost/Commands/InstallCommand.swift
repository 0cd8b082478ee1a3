import SkillHostCore

/// `skillhost install FILE [--force] [--json]`
enum InstallCommand {
    static func run(_ args: Arguments) -> Int32 {
        withHost(forOneFile: args) {
            install($0, $1, json: $2, force: args.flag("--force"), grantValues: args.allValues["--grant"] ?? [])
        }
    }

    static func install(_ host: SkillHost, _ file: String, json: Bool, force: Bool, grantValues: [String] = []) -> Int32 {
        let grant: Grant?
        switch InstallConsent.decide(host, file, grantValues: grantValues, json: json) {
        case .failure(let stop): return stop.code
        case .success(let g): grant = g
        }
        let (report, outcome) = LiveLine.during("⋯ install \(file): validating") { live in
            host.install(file: file, force: force, onCheck: { live.update("⋯ install: " + ValidateCommand.progress(after: $0, file: file).dropFirst(2)) })
        }
        switch outcome {
        case .failure(.error(let e)): return Out.fail(e, json: json)
        case .failure(.failedValidation(let r)):
            let failed = r.failures.map(\.name).joined(separator: ", ")
            let message = "not installed: \(r.file) failed \(r.failures.count == 1 ? "a check" : "\(r.failures.count) checks") of skillhost validate (\(failed))"
            let hint = "fix the skill (see the checks' messages, or run `skillhost validate \(file)`), or install it anyway with --force"
            if json {
                Out.json(.object(JSONObject([("ok", .bool(false)), ("message", .string(message)), ("hint", .string(hint)),
                                             ("validation", r.json)])))
            } else {
                Out.error(message)
                for c in r.failures { Out.error("  FAIL  \(c.name)  \(c.message)") }
                Out.error("hint: \(hint)")
            }
            return 1
        case .success(let done):
            let m = done.manifest
            if json {
                var o = JSONObject([("ok", .bool(true)), ("id", .string(m.id)), ("version", .string(m.version.description)),
                                    ("path", .string(done.path)), ("folder", host.installFolder.json), ("intents", .array(m.intents.map { .string($0.address) })),
                                    ("validation", report.json)])
                if let s = done.shadows {
                    o["shadows"] = .object(JSONObject([("version", .string(s.version.description)), ("path", .string(s.path))]))
                }
                if let g = InstallConsent.record(grant, id: m.id, host, json: true) { o[g.key] = g.value }
                Out.json(.object(o))
            } else {
                let f = host.installFolder
                Out.print("installed \(m.id) \(m.version) → \(done.path)\(f.named ? "" : " (the \(f.origin.rawValue) of the search path: the first writable one; see `skillhost doctor`)")")
                Out.print("intents: \(m.intents.map(\.address).joined(separator: ", "))")
                if let s = done.shadows {
                    Out.print("shadows \(m.id) \(s.version) in \(s.path) (kept for a rollback: remove the new file to go back)")
                }
                let forced = report.ok ? "" : " (installed with --force despite: \(report.failures.map(\.name).joined(separator: ", ")))"
                Out.print("validate: \(report.tally)\(forced)")
                _ = InstallConsent.record(grant, id: m.id, host, json: false)
            }
            return 0
        }
    }
}
