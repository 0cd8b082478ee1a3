import SkillHostCore

/// `skillhost traces [--limit N] [--json]`: the recent agent requests, newest first. `--json` prints
/// `{"version","traces":[{"id","path","startedAt","text","status","intents","durationMs"}…]}`.
enum TracesCommand {
    static func run(_ args: Arguments) -> Int32 {
        let json = args.flag("--json")
        let limit: Int
        do { limit = try args.int("--limit", max: 1_000_000, unit: "traces") ?? 20 } catch { return Out.usage(error, json: json) }
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: json) }
        let store = TraceStore(paths: host.paths)
        var rows: [JSON] = []
        for path in store.list().prefix(limit) {
            guard case .success(let t) = TraceStore.load(path, redactingFor: host) else { continue }
            rows.append(.object(JSONObject([
                ("id", t["id"] ?? .null), ("path", .string(path)), ("startedAt", t["startedAt"] ?? .null),
                ("text", t["request"]?["text"] ?? .null), ("status", t["status"] ?? .null),
                ("intents", .array((t["steps"]?.arrayValue ?? []).compactMap { $0["intent"] })),
                ("durationMs", t["durationMs"] ?? .null),
            ])))
        }
        if json {
            Out.json(.object(JSONObject([("version", .string(BuildInfo.version)), ("traces", .array(rows))])))
            return 0
        }
        guard !rows.isEmpty else {
            Out.print("No traces yet in \(store.directory) (every `skillhost ask` writes one).")
            return 0
        }
        Out.print(Out.table(["ID", "STATUS", "MS", "REQUEST"], rows.map { r in
            let text = r["text"]?.stringValue ?? ""
            return [r["id"]?.stringValue ?? "?", r["status"]?.stringValue ?? "?",
                    r["durationMs"]?.doubleValue.map { TimeText.oneDecimal($0) } ?? "?",
                    text.count > 60 ? String(text.prefix(59)) + "…" : text]
        }))
        Out.print("replay one: skillhost replay \(store.directory)/ID.json [--check]")
        return 0
    }
}
