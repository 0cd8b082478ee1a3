import SkillWire

/// The manifest's JSON text written straight from the values, without building a `JSON` tree first:
/// a cold scan writes one per file into the scan cache. Byte for byte what `json.write(to:)` writes
/// (ManifestTests pins that down), so either may produce what `list --json` splices. Keys go through
/// `Line.key`; strings and nested values through `JSON`'s own writer, so the escaping is `json`'s.
extension SkillManifest {
    func writeJSON(to line: inout Line) {
        let i = identity
        line.raw("{")
        func key(_ k: StaticString) { line.key(k) }
        func string(_ k: StaticString, _ v: String) { key(k); JSON.writeString(v, to: &line.bytes) }
        func bool(_ k: StaticString, _ v: Bool) { key(k); line.bool(v) }
        string("id", i.id); string("name", i.name); string("version", i.version.description)
        string("category", i.category); string("vendor", i.vendor); string("description", i.description)
        string("abi", i.abi); string("abiRequired", i.abiRequired); string("abiServed", i.abiServed)
        key("toolchain")
        if let t = i.toolchain { JSON.writeString(t, to: &line.bytes) } else { line.raw("null") }
        bool("threadSafe", i.threadSafe); bool("hasHealth", i.hasHealth)
        if !i.permissions.isEmpty { key("requestedPermissions"); i.permissions.json.write(to: &line.bytes) }
        key("intents")
        line.raw("[")
        for (k, intent) in intents.enumerated() {
            if k > 0 { line.raw(",") }
            intent.writeJSON(to: &line)
        }
        line.raw("]}")
    }
}

extension IntentManifest {
    /// Byte for byte what `json.write(to:)` writes (see `SkillManifest.writeJSON`).
    func writeJSON(to line: inout Line) {
        line.raw("{")
        func strings(_ list: [String]) {
            line.raw("[")
            for (k, s) in list.enumerated() {
                if k > 0 { line.raw(",") }
                JSON.writeString(s, to: &line.bytes)
            }
            line.raw("]")
        }
        line.key("name"); JSON.writeString(name, to: &line.bytes)
        line.key("version"); line.number(version)
        line.key("address"); JSON.writeString(address, to: &line.bytes)
        line.key("description"); JSON.writeString(description, to: &line.bytes)
        line.key("inputSchema"); inputSchema.write(to: &line.bytes)
        line.key("outputSchema"); (outputSchema ?? .null).write(to: &line.bytes)
        line.key("flags"); strings(flags.names)
        line.key("surfaces"); strings(surfaces.names)
        line.key("priority"); line.number(priority)
        line.key("confidence"); line.bytes.append(contentsOf: JSON.format(confidence).utf8)
        line.key("keywords")
        line.raw("{")
        for (k, lang) in keywords.keys.sorted().enumerated() {
            if k > 0 { line.raw(",") }
            JSON.writeString(lang, to: &line.bytes)
            line.raw(":")
            strings(keywords[lang]!)
        }
        line.raw("}")
        line.key("examples")
        line.raw("[")
        for (k, e) in examples.enumerated() {
            if k > 0 { line.raw(",") }
            line.raw("{")
            line.key("lang"); JSON.writeString(e.lang, to: &line.bytes)
            line.key("text"); JSON.writeString(e.text, to: &line.bytes)
            if let input = e.input {
                line.key("input"); input.write(to: &line.bytes)
            }
            line.raw("}")
        }
        line.raw("]")
        if !feeds.isEmpty {
            line.key("feeds")
            JSON.array(feeds.map(\.json)).write(to: &line.bytes)
        }
        line.raw("}")
    }
}
