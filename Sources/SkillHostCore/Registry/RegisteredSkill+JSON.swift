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
    public func writeListJSON(health: SkillHealth?, shadows: [ShadowedSkill], to out: inout [UInt8],
                              extra: (inout [UInt8]) -> Void = { _ in }) {
        guard manifestText.last == 0x7d, manifestText.count > 2 else {
            JSON.object(JSONObject([("id", .string(id))])).write(to: &out)
            return
        }
        out.append(contentsOf: manifestText[..<(manifestText.count - 1)])
        out.append(contentsOf: #","path":"#.utf8)
        JSON.writeString(file.path, to: &out)
        out.append(contentsOf: #","sha256":"#.utf8)
        if let h = file.sha256 { JSON.writeString(h, to: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","isolation":"#.utf8)
        JSON.writeString(isolation.rawValue, to: &out)
        out.append(contentsOf: #","health":"#.utf8)
        JSON.writeString(health?.state.rawValue ?? "ok", to: &out)
        out.append(contentsOf: #","healthDetail":"#.utf8)
        (health ?? SkillHealth()).writeDetailJSON(to: &out)
        out.append(contentsOf: #","shadows":["#.utf8)
        for (k, s) in shadows.enumerated() {
            if k > 0 { out.append(0x2c) }
            out.append(contentsOf: #"{"version":"#.utf8)
            JSON.writeString(s.skill.summary.version.description, to: &out)
            out.append(contentsOf: #","path":"#.utf8)
            JSON.writeString(s.skill.file.path, to: &out)
            out.append(0x7d)
        }
        out.append(0x5d)
        extra(&out)
        out.append(0x7d)
    }
}
