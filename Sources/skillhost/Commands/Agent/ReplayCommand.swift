import SkillHostCore

/// `skillhost replay TRACE [--check] [--json] [--include-writes]`: runs a recorded request again —
/// same text, "now", locale and time zone — against the skills installed now, and shows what differs
/// (`TraceDiff`). Intents that change something are not run again unless --include-writes. With
/// --check, a difference exits 1 (a regression test); without, replay exits 0 when it could run.
enum ReplayCommand {
    static func run(_ args: Arguments) -> Int32 {
        let json = args.flag("--json")
        let path = args.positionals[0]
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: json) }
        let trace: JSON
        switch TraceStore.load(path, redactingFor: host) {
        case .failure(let e): return Out.fail(e, json: json)
        case .success(let t): trace = t
        }
        let recorded = trace["request"]!
        guard let nowText = recorded["now"]?.stringValue, let now = LocalClock.parseInstant(nowText) else {
            return Out.fail(SkillError(.invalidInput, "the trace \"\(path)\" has no valid request.now"), json: json)
        }
        let request = AgentRequest(text: recorded["text"]!.stringValue!, source: .replay, caller: .automation,
                                   locale: recorded["locale"]?.stringValue, timeZone: recorded["timeZone"]?.stringValue ?? host.timeZone, now: now)
        let engine = AgentEngine(host: host, traces: nil, replayWrites: args.flag("--include-writes"))
        let response = engine.start(request).wait()
        let replayed = response.json
        let differences = TraceDiff.differences(recorded: trace, replayed: replayed)
        let builds = buildChanges(trace, replayed)
        if json {
            Out.json(.object(JSONObject([("trace", .string(path)), ("same", .bool(differences.isEmpty)),
                                         ("differences", .array(differences.map(\.json))),
                                         ("skillChanges", .array(builds.map(JSON.string))), ("replayed", replayed)])))
        } else {
            Out.print("replay of \(trace["id"]?.stringValue ?? path): “\(request.text)” (now \(request.nowText))")
            Out.print(response.answer)
            for b in builds { Out.print("· \(b)") }
            if differences.isEmpty {
                Out.print("same as recorded")
            } else {
                Out.print("\(differences.count) difference\(differences.count == 1 ? "" : "s") from the recording (recorded → now):")
                for d in differences { Out.print("  \(d)") }
            }
        }
        return args.flag("--check") && !differences.isEmpty ? 1 : 0
    }

    /// Skills whose version or file changed since the recording (shown, not counted as differences).
    static func buildChanges(_ a: JSON, _ b: JSON) -> [String] {
        var out: [String] = []
        for (x, y) in zip(a["steps"]?.arrayValue ?? [], b["steps"]?.arrayValue ?? []) where x["skill"] == y["skill"] {
            let skill = x["skill"]?.stringValue ?? "?"
            if x["skillVersion"] != y["skillVersion"] {
                out.append("\(skill): version \(x["skillVersion"]?.stringValue ?? "?") → \(y["skillVersion"]?.stringValue ?? "?")")
            } else if x["sha256"] != y["sha256"], y["sha256"] != .null {
                out.append("\(skill): same version, another build (sha256 \(x["sha256"]?.stringValue?.prefix(12) ?? "?")… → \(y["sha256"]?.stringValue?.prefix(12) ?? "?")…)")
            }
        }
        return out
    }
}
