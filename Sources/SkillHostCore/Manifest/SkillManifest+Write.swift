/// The manifest's JSON text written straight from the values, without building a `JSON` tree first:
/// a cold scan writes one per file into the scan cache. Byte for byte what `json.write(to:)` writes
/// (ManifestTests pins that down), so either may produce what `list --json` splices.
extension SkillManifest {
    func writeJSON(to out: inout [UInt8]) {
        let i = identity
        out.append(0x7b)
        var first = true
        func key(_ k: StaticString) {
            if !first { out.append(0x2c) }
            first = false
            out.append(0x22)
            out.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
            out.append(contentsOf: [0x22, 0x3a])
        }
        func string(_ k: StaticString, _ v: String) { key(k); JSON.writeString(v, to: &out) }
        func bool(_ k: StaticString, _ v: Bool) { key(k); out.append(contentsOf: (v ? "true" : "false").utf8) }
        string("id", i.id); string("name", i.name); string("version", i.version.description)
        string("category", i.category); string("vendor", i.vendor); string("description", i.description)
        string("abi", i.abi); string("abiRequired", i.abiRequired); string("abiServed", i.abiServed)
        key("toolchain")
        if let t = i.toolchain { JSON.writeString(t, to: &out) } else { out.append(contentsOf: "null".utf8) }
        bool("threadSafe", i.threadSafe); bool("hasHealth", i.hasHealth)
        if !i.permissions.isEmpty { key("requestedPermissions"); i.permissions.json.write(to: &out) }
        key("intents")
        out.append(0x5b)
        for (k, intent) in intents.enumerated() {
            if k > 0 { out.append(0x2c) }
            intent.writeJSON(to: &out)
        }
        out.append(contentsOf: [0x5d, 0x7d])
    }
}

extension IntentManifest {
    /// Byte for byte what `json.write(to:)` writes (see `SkillManifest.writeJSON`).
    func writeJSON(to out: inout [UInt8]) {
        out.append(0x7b)
        var first = true
        func key(_ k: StaticString) {
            if !first { out.append(0x2c) }
            first = false
            out.append(0x22)
            out.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
            out.append(contentsOf: [0x22, 0x3a])
        }
        func strings(_ list: [String]) {
            out.append(0x5b)
            for (k, s) in list.enumerated() {
                if k > 0 { out.append(0x2c) }
                JSON.writeString(s, to: &out)
            }
            out.append(0x5d)
        }
        key("name"); JSON.writeString(name, to: &out)
        key("version"); out.append(contentsOf: String(version).utf8)
        key("address"); JSON.writeString(address, to: &out)
        key("description"); JSON.writeString(description, to: &out)
        key("inputSchema"); inputSchema.write(to: &out)
        key("outputSchema"); (outputSchema ?? .null).write(to: &out)
        key("flags"); strings(flags.names)
        key("surfaces"); strings(surfaces.names)
        key("priority"); out.append(contentsOf: String(priority).utf8)
        key("confidence"); out.append(contentsOf: JSON.format(confidence).utf8)
        key("keywords")
        out.append(0x7b)
        for (k, lang) in keywords.keys.sorted().enumerated() {
            if k > 0 { out.append(0x2c) }
            JSON.writeString(lang, to: &out)
            out.append(0x3a)
            strings(keywords[lang]!)
        }
        out.append(0x7d)
        key("examples")
        out.append(0x5b)
        for (k, e) in examples.enumerated() {
            if k > 0 { out.append(0x2c) }
            out.append(contentsOf: #"{"lang":"#.utf8)
            JSON.writeString(e.lang, to: &out)
            out.append(contentsOf: #","text":"#.utf8)
            JSON.writeString(e.text, to: &out)
            if let input = e.input {
                out.append(contentsOf: #","input":"#.utf8)
                input.write(to: &out)
            }
            out.append(0x7d)
        }
        out.append(0x5d)
        if !feeds.isEmpty {
            key("feeds")
            JSON.array(feeds.map(\.json)).write(to: &out)
        }
        out.append(0x7d)
    }
}
