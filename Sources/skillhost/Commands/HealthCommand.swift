import SkillHostCore

/// `skillhost health [--json]`: probe every skill now; print each one's state after the probe.
/// `--json` prints `{"version","skills":[{"id","health","message","checkedAt","latencyMs","sha256",
/// "healthDetail","missingPermissions","sandbox"}…]}`, one entry per registered skill, by id.
enum HealthCommand {
    static func run(_ args: Arguments) -> Int32 {
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: args.flag("--json")) }
        let results = runBlocking { await host.probeHealth() }
        let ids = results.keys.sorted()
        /// The probe's answer, or why the skill was not probed (quarantine).
        func message(_ h: SkillHealth) -> String {
            h.state == .quarantined || h.probe == nil ? h.reason : h.probe!.message
        }
        if args.flag("--json") {
            Out.json(.object(JSONObject([("version", .string(BuildInfo.version)), ("skills", .array(ids.map { id in
                let r = results[id]!
                var o = JSONObject([("id", .string(id)), ("health", .string(r.state.rawValue)), ("message", .string(message(r))),
                                    ("checkedAt", r.probe.map { .string($0.checkedAt) } ?? .null)])
                o["latencyMs"] = r.probe?.latencyMs.map { .double(($0 * 100).rounded() / 100) } ?? .null
                o["sha256"] = r.probe?.sha256.map(JSON.string) ?? .null
                o["healthDetail"] = r.detailJSON
                if let s = host.registry.skill(id: id) {
                    // Which permissions it asks for but was not granted, and the sandbox its worker reported.
                    o["missingPermissions"] = host.permissionsJSON(of: s)["missing"] ?? .array([])
                    o["sandbox"] = .string(host.sandboxStatus(of: s).mode)
                }
                return .object(o)
            }))])))
        } else if ids.isEmpty {
            Out.print("No skills registered.")
        } else {
            Out.print(Out.table(["ID", "HEALTH", "LATENCY", "MESSAGE"], ids.map { id in
                let r = results[id]!
                return [id, r.state.rawValue, r.probe?.latencyMs.map { TimeText.oneDecimal($0) + " ms" } ?? "-", message(r)]
            }))
            for id in ids {
                guard let s = host.registry.skill(id: id) else { continue }
                let missing = (host.permissionsJSON(of: s)["missing"]?.arrayValue ?? []).compactMap(\.stringValue)
                if !missing.isEmpty { Out.print("\(id): asks for permissions it was not granted: \(missing.joined(separator: ", ")) (calls that need them fail; see `skillhost doctor`)") }
            }
        }
        return results.values.allSatisfy { $0.state == .ok } ? 0 : 1
    }
}
