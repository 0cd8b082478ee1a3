import SkillHostCore

/// `skillhost install FILE [--json]`
enum InstallCommand {
    static func run(_ args: Arguments) -> Int32 {
        let json = args.flag("--json")
        do { try args.allow([]) } catch { Out.error("skillhost: \(error.message)"); return 2 }
        guard args.positionals.count == 1, let file = args.positionals.first else {
            Out.error("skillhost: install needs exactly one FILE\n\(Help.install)")
            return 2
        }
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: json) }
        switch host.install(file: file) {
        case .failure(let e): return Out.fail(e, json: json)
        case .success(let done):
            let m = done.manifest
            if json {
                var o = JSONObject([("ok", .bool(true)), ("id", .string(m.id)), ("version", .string(m.version.description)),
                                    ("path", .string(done.path)), ("intents", .array(m.intents.map { .string($0.address) }))])
                if let s = done.shadows {
                    o["shadows"] = .object(JSONObject([("version", .string(s.version.description)), ("path", .string(s.path))]))
                }
                Out.json(.object(o))
            } else {
                Out.print("installed \(m.id) \(m.version) → \(done.path)\nintents: \(m.intents.map(\.address).joined(separator: ", "))")
                if let s = done.shadows {
                    Out.print("shadows \(m.id) \(s.version) in \(s.path) (kept for a rollback: remove the new file to go back)")
                }
            }
            return 0
        }
    }
}
