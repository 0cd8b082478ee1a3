/// The manifest as JSON: the shape `list --json` and `inspect --json` print, and the shape the scan
/// cache stores (so a warm start never re-validates schemas it validated before).
extension SkillManifest {
    public var json: JSON {
        let i = identity
        var o = JSONObject([
            ("id", .string(i.id)), ("name", .string(i.name)), ("version", .string(i.version.description)),
            ("category", .string(i.category)), ("vendor", .string(i.vendor)), ("description", .string(i.description)),
            ("abi", .string(i.abi)), ("abiRequired", .string(i.abiRequired)), ("abiServed", .string(i.abiServed)),
            ("toolchain", i.toolchain.map(JSON.string) ?? .null),
            ("threadSafe", .bool(i.threadSafe)), ("hasHealth", .bool(i.hasHealth)),
        ])
        if !i.permissions.isEmpty { o["requestedPermissions"] = i.permissions.json }
        o["intents"] = .array(intents.map(\.json))
        return .object(o)
    }

    init?(json j: JSON) {
        guard let id = j["id"]?.stringValue, let name = j["name"]?.stringValue,
              let v = j["version"]?.stringValue, let version = SemanticVersion(v),
              let category = j["category"]?.stringValue, let abi = j["abi"]?.stringValue,
              let dot = abi.firstIndex(of: "."), let major = UInt32(abi[..<dot]), let minor = UInt32(abi[abi.index(after: dot)...]),
              let rawIntents = j["intents"]?.arrayValue else { return nil }
        var intents: [IntentManifest] = []
        for ri in rawIntents {
            guard let i = IntentManifest(json: ri) else { return nil }
            intents.append(i)
        }
        self.init(identity: SkillIdentity(id: id, name: name, version: version, category: category, vendor: j["vendor"]?.stringValue ?? "",
                                          description: j["description"]?.stringValue ?? "", toolchain: j["toolchain"]?.stringValue,
                                          abiMajor: major, abiMinor: minor,
                                          abiMinorRequired: j["abiRequired"]?.stringValue.flatMap { $0.split(separator: ".").last.flatMap { UInt32($0) } } ?? 0,
                                          threadSafe: j["threadSafe"]?.boolValue ?? false,
                                          hasHealth: j["hasHealth"]?.boolValue ?? false),
                  intents: intents)
        if let p = j["requestedPermissions"].flatMap(Permissions.init(json:)) { identity.permissions = p }
    }
}

extension IntentManifest {
    public var json: JSON {
        var o = JSONObject([("name", .string(name)), ("version", .int(Int64(version))), ("address", .string(address)),
                            ("description", .string(description)),
                            ("inputSchema", inputSchema), ("outputSchema", outputSchema ?? .null)])
        o["flags"] = .array(flags.names.map(JSON.string))
        o["surfaces"] = .array(surfaces.names.map(JSON.string))
        o["priority"] = .int(Int64(priority))
        o["confidence"] = .double(confidence)
        o["keywords"] = .object(JSONObject(keywords.keys.sorted().map { (key: $0, value: .array(keywords[$0]!.map(JSON.string))) }))
        o["examples"] = .array(examples.map { e in
            var eo = JSONObject([("lang", .string(e.lang)), ("text", .string(e.text))])
            if let input = e.input { eo["input"] = input }
            return .object(eo)
        })
        if !feeds.isEmpty { o["feeds"] = .array(feeds.map(\.json)) }
        return .object(o)
    }

    init?(json j: JSON) {
        guard let name = j["name"]?.stringValue, let input = j["inputSchema"] else { return nil }
        var flags: IntentFlags = []
        for f in j["flags"]?.arrayValue ?? [] {
            switch f.stringValue {
            case "read-only": flags.insert(.readOnly)
            case "destructive": flags.insert(.destructive)
            case "idempotent": flags.insert(.idempotent)
            case "open-world": flags.insert(.openWorld)
            default: break
            }
        }
        var surfaces: Surfaces = []
        for s in j["surfaces"]?.arrayValue ?? [] {
            switch s.stringValue {
            case "human": surfaces.insert(.human)
            case "automation": surfaces.insert(.automation)
            case "agent": surfaces.insert(.agent)
            default: break
            }
        }
        var keywords: [String: [String]] = [:]
        for m in j["keywords"]?.objectValue ?? JSONObject() { keywords[m.key] = m.value.arrayValue?.compactMap(\.stringValue) ?? [] }
        let examples = (j["examples"]?.arrayValue ?? []).compactMap { e -> Example? in
            guard let text = e["text"]?.stringValue else { return nil }
            return Example(lang: e["lang"]?.stringValue ?? "en", text: text, input: e["input"])
        }
        let output: JSON? = j["outputSchema"] == .null ? nil : j["outputSchema"]
        self.init(name: name, version: j["version"]?.intValue.map { Int($0) } ?? 1,
                  description: j["description"]?.stringValue ?? "", inputSchema: input, outputSchema: output,
                  flags: flags, surfaces: surfaces, priority: Int32(j["priority"]?.intValue ?? 0),
                  confidence: j["confidence"]?.doubleValue ?? 1, keywords: keywords, examples: examples,
                  feeds: (j["feeds"]?.arrayValue ?? []).compactMap { try? IntentFeed.parse($0).get() })
    }
}
