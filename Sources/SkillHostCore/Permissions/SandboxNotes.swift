/// What `doctor` says about permissions and the sandbox: warnings, not problems (each is the owner's
/// choice or the kernel's limit), except that none of them is ever silent.
public struct SandboxNote: Sendable {
    public var id: String
    public var message: String
    public var fix: String

    public var json: JSON {
        .object(JSONObject([("id", .string(id)), ("message", .string(message)), ("fix", .string(fix))]))
    }
}

extension SkillHost {
    /// One note per thing worth knowing: a trusted skill asking for permissions it was not granted (it
    /// can reach everything the host can anyway), a skill asking for permissions it was not granted (the
    /// calls that need them fail), granted entries that name nothing, a partial sandbox and what is
    /// missing, the sandbox turned off.
    public func sandboxNotes() -> [SandboxNote] {
        var notes: [SandboxNote] = []
        let configFile = configFileForGrants
        for s in registry.skills {
            let requested = s.summary.identity.permissions
            let granted = config.grants[s.id]?.permissions ?? .none
            let missing = requested.missing(from: granted)
            let status = sandboxStatus(of: s)
            if s.isolation == .inProcess {
                if !missing.isEmpty {
                    notes.append(SandboxNote(id: s.id, message: "\(s.id) is trusted (runs inside the host, unsandboxed: it can reach everything skillhost can) and asks for permissions it was not granted: \(missing.joined(separator: ", "))",
                                             fix: "grant them in \(configFile) (\"grants\") if you agree, or remove \(s.id) from \"trusted\" so that it runs sandboxed in a worker"))
                }
                continue
            }
            if !missing.isEmpty {
                notes.append(SandboxNote(id: s.id, message: "\(s.id) asks for permissions it was not granted: \(missing.joined(separator: ", ")); calls that need them fail (the operating system refuses the access)",
                                         fix: "grant them with `skillhost install \(s.file.path) --grant all` (or an explicit --grant list), or in \(configFile) (\"grants\")"))
            }
            let permissions = permissionsJSON(of: s)
            let unresolved = (permissions["unresolved"]?.arrayValue ?? []).compactMap(\.stringValue)
            if !unresolved.isEmpty {
                notes.append(SandboxNote(id: s.id, message: "\(s.id): granted entries that name nothing: \(unresolved.joined(separator: ", "))",
                                         fix: "set the member in the skill's config section (\"skills\": {\"\(s.id)\": {…}}), or remove the entry from its grant"))
            }
            switch status.mode {
            case "partial":
                notes.append(SandboxNote(id: s.id, message: "\(s.id) runs with a partial sandbox; not in force: \(status.missing.joined(separator: "; "))",
                                         fix: "a newer kernel (Landlock ABI 6, Linux 6.12 or later, with seccomp and user namespaces) gives the full sandbox"))
            case "off":
                notes.append(SandboxNote(id: s.id, message: "\(s.id) runs without a sandbox: \(status.missing.joined(separator: "; "))",
                                         fix: "remove \"sandbox\": false from \(configFile) unless you need it off"))
            default: break
            }
        }
        return notes
    }
}
