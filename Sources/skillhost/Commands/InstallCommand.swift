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
        case .success(let (path, m)):
            if json {
                Out.json(.object(JSONObject([("ok", .bool(true)), ("id", .string(m.id)), ("version", .string(m.version.description)),
                                             ("path", .string(path)), ("intents", .array(m.intents.map { .string($0.name) }))])))
            } else {
                Out.print("installed \(m.id) \(m.version) → \(path)\nintents: \(m.intents.map(\.name).joined(separator: ", "))")
            }
            return 0
        }
    }
}
