import SkillHostCore

/// `skillhost inspect FILE [--json]`
enum InspectCommand {
    static func run(_ args: Arguments) -> Int32 { withHost(forOneFile: args, inspect) }

    static func inspect(_ host: SkillHost, _ file: String, _ json: Bool) -> Int32 {
        let (info, outcome) = host.inspect(file: file)
        switch outcome {
        case .failure(let r):
            if json {
                var o = JSONObject([("ok", .bool(false)), ("path", .string(r.file))])
                if let info { o["sha256"] = info.sha256.map(JSON.string) ?? .null }
                var e = r.json.objectValue!
                e["file"] = nil
                o["error"] = .object(e)
                Out.json(.object(o))
            } else {
                Out.error("refused (\(r.reason.rawValue)): \(Out.safe(r.message))")
                if let h = r.hint { Out.error("hint: \(Out.safe(h))") }
            }
            return r.reason.errorKind.exitCode
        case .success(let m):
            if json {
                var o = JSONObject([("ok", .bool(true)), ("path", .string(info!.path)), ("size", .int(info!.size)),
                                    ("sha256", info!.sha256.map(JSON.string) ?? .null)])
                for member in m.json.objectValue! { o[member.key] = member.value }
                o["permissions"] = host.permissionsJSON(id: m.id, requested: m.identity.permissions)
                Out.json(.object(o), pretty: true)
            } else {
                Out.print("""
                \(Out.safe(m.name)) — \(Out.safe(m.id)) \(m.version)
                  \(Out.safe(m.description))
                  category:   \(Out.safe(m.category))
                  vendor:     \(Out.safe(m.vendor))
                  abi:        \(abiLine(m.identity))
                  toolchain:  \(m.toolchain ?? "none (C)")
                  threads:    \(m.threadSafe ? "thread-safe" : "one call at a time")
                  file:       \(Out.safe(info!.path)) (\(info!.size) bytes)
                  sha256:     \(info!.sha256 ?? "?")
                """)
                let granted = host.config.grants[m.id]?.permissions ?? .none
                Out.print("  asks for:   " + m.identity.permissions.lines.joined(separator: "\n              "))
                Out.print("  granted:    " + (host.config.grants[m.id] == nil ? "nothing yet (no grant for \(m.id) in the config)" : granted.lines.joined(separator: "\n              ")))
                Out.print("  intents:")
                for i in m.intents {
                    let tags = (i.flags.names + ["surfaces: " + i.surfaces.names.joined(separator: "/")]).joined(separator: ", ")
                    Out.print("    \(Out.safe(i.address))  [\(tags)]\n      \(Out.safe(i.description))")
                }
            }
            return 0
        }
    }

    /// "1.1 (needs 1.0; served as 1.1)", in words a reader can act on.
    static func abiLine(_ i: SkillIdentity) -> String {
        var line = "built for \(i.abi), needs \(i.abiRequired) or newer; this host serves \(ABIVersion.hostRange)"
        if i.abiMinor > ABIVersion.hostMinor {
            line += " — served as \(i.abiServed): the skill runs without what \(i.abi) added (it sees the host's version and services)"
        }
        return line
    }
}
