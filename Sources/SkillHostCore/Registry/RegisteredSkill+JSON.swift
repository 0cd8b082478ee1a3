import SkillWire

extension RegisteredSkill {
    /// Appends this skill as `list --json` prints it: the manifest's members (id, name, version,
    /// category, vendor, description, abi, toolchain, threadSafe, hasHealth, intents), then `path`,
    /// `sha256`, `isolation`, `health` (the state), `healthDetail` (reason, since, lastFailure,
    /// counters, and the last probe's message) and `shadows` (older versions of this skill id found in
    /// the folders: version and path). The manifest's bytes are
    /// copied as they are (they were produced by `JSON.write`), not parsed and written again.
    /// `extra`: appends more members at the end, each after a comma (`permissions` and `sandbox`, see
    /// `SkillHost.writeListMembers`; none of the names above). The members are written one by one
    /// after the manifest's bytes, straight from the values, with no JSON tree around them.
    public func writeListJSON(health: SkillHealth?, shadows: [ShadowedSkill], to line: inout Line,
                              extra: (inout Line) -> Void = { _ in }) {
        guard manifestText.last == 0x7d, manifestText.count > 2 else {
            JSON.object(JSONObject([("id", .string(id))])).write(to: &line.bytes)
            return
        }
        line.bytes.append(contentsOf: manifestText[..<(manifestText.count - 1)])
        line.key("path"); line.quoted(file.path)
        line.key("sha256"); line.quoted(orNull: file.sha256)
        line.key("isolation"); line.quoted(isolation.rawValue)
        line.key("health"); line.quoted(health?.state.rawValue ?? "ok")
        line.key("healthDetail"); (health ?? SkillHealth()).writeDetailJSON(to: &line)
        line.key("shadows")
        line.raw("[")
        for (k, s) in shadows.enumerated() {
            if k > 0 { line.raw(",") }
            line.raw("{")
            line.key("version"); line.quoted(s.skill.summary.version.description)
            line.key("path"); line.quoted(s.skill.file.path)
            line.raw("}")
        }
        line.raw("]")
        extra(&line)
        line.raw("}")
    }
}
