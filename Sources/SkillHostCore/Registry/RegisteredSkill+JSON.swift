extension RegisteredSkill {
    /// Appends this skill as `list --json` prints it: the manifest's members (id, name, version,
    /// category, vendor, description, abi, toolchain, threadSafe, hasHealth, intents), then `path`,
    /// `sha256`, `isolation`, `health` (the state), `healthDetail` (reason, since, lastFailure,
    /// counters, and the last probe's message) and `shadows` (older versions of this skill id found in
    /// the folders: version and path). The manifest's bytes are
    /// copied as they are (they were produced by `JSON.write`), not parsed and written again.
    /// `extra`: more members at the end (`permissions` and `sandbox`, see `SkillHost.listMembers`).
    public func writeListJSON(health: SkillHealth?, shadows: [ShadowedSkill], extra more: JSONObject = JSONObject(), to out: inout [UInt8]) {
        guard manifestText.last == 0x7d, manifestText.count > 2 else {
            JSON.object(JSONObject([("id", .string(id))])).write(to: &out)
            return
        }
        out.append(contentsOf: manifestText.dropLast())
        var extra = JSONObject([("path", .string(file.path)), ("sha256", file.sha256.map(JSON.string) ?? .null),
                                ("isolation", .string(isolation.rawValue)), ("health", .string(health?.state.rawValue ?? "ok"))])
        extra["healthDetail"] = (health ?? SkillHealth()).detailJSON
        extra["shadows"] = .array(shadows.map { s in
            .object(JSONObject([("version", .string(s.skill.summary.version.description)), ("path", .string(s.skill.file.path))]))
        })
        for m in more { extra[m.key] = m.value }
        var tail: [UInt8] = []
        JSON.object(extra).write(to: &tail)
        out.append(0x2c)
        out.append(contentsOf: tail.dropFirst())
    }
}
