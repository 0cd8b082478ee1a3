import SkillWire

/// The manifest's JSON text written straight from the values, without building a `JSON` tree first:
/// a cold scan writes one per file into the scan cache. Byte for byte what `json.write(to:)` writes
/// (ManifestTests pins that down), so either may produce what `list --json` splices. Keys go through
/// `Line.key`, strings through `Line.quoted` (the same escapes as `JSON.writeString`), flag and
/// surface names as prepared text, and nested values through `JSON`'s own writer.
extension SkillManifest {
    func writeJSON(to line: inout Line) {
        let i = identity
        line.raw("{")
        func key(_ k: StaticString) { line.key(k) }
        func string(_ k: StaticString, _ v: String) { key(k); line.quoted(v) }
        func bool(_ k: StaticString, _ v: Bool) { key(k); line.bool(v) }
        string("id", i.id); string("name", i.name); string("version", i.version.description)
        string("category", i.category); string("vendor", i.vendor); string("description", i.description)
        string("abi", i.abi); string("abiRequired", i.abiRequired); string("abiServed", i.abiServed)
        key("toolchain"); line.quoted(orNull: i.toolchain)
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
        /// The names of the bits set in `bits`, in the table's order (`IntentFlags.names`, `Surfaces.names`).
        func names(_ bits: UInt32, _ table: [(bit: UInt32, name: String)]) {
            line.raw("[")
            var first = true
            for t in table where bits & t.bit != 0 {
                if !first { line.raw(",") }
                first = false
                line.bytes.append(contentsOf: t.name.utf8)
            }
            line.raw("]")
        }
        line.key("name"); line.quoted(name)
        line.key("version"); line.number(version)
        line.key("address"); line.quoted(address)
        line.key("description"); line.quoted(description)
        line.key("inputSchema"); inputSchema.write(to: &line.bytes)
        line.key("outputSchema"); (outputSchema ?? .null).write(to: &line.bytes)
        line.key("flags"); names(flags.rawValue, IntentFlags.quotedNames)
        line.key("surfaces"); names(surfaces.rawValue, Surfaces.quotedNames)
        line.key("priority"); line.number(priority)
        line.key("confidence"); line.bytes.append(contentsOf: JSON.format(confidence).utf8)
        line.key("keywords")
        line.raw("{")
        for (k, lang) in keywords.keys.sorted().enumerated() {
            if k > 0 { line.raw(",") }
            line.quoted(lang)
            line.raw(":")
            line.strings(keywords[lang]!)
        }
        line.raw("}")
        line.key("examples")
        line.raw("[")
        for (k, e) in examples.enumerated() {
            if k > 0 { line.raw(",") }
            line.raw("{")
            line.key("lang"); line.quoted(e.lang)
            line.key("text"); line.quoted(e.text)
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
