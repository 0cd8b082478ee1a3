import SkillHostCore

/// `skillhost health [--json]`
enum HealthCommand {
    static func run(_ args: Arguments) -> Int32 {
        do { try args.allow([]) } catch { Out.error("skillhost: \(error.message)"); return 2 }
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: args.flag("--json")) }
        let results = host.probeHealth()
        let ids = results.keys.sorted()
        if args.flag("--json") {
            Out.json(.array(ids.map { id in
                let r = results[id]!
                var o = JSONObject([("id", .string(id)), ("health", .string(r.status)), ("message", .string(r.message)),
                                    ("checkedAt", .string(r.checkedAt))])
                o["latencyMs"] = r.latencyMs.map { .double(($0 * 100).rounded() / 100) } ?? .null
                o["sha256"] = r.sha256.map(JSON.string) ?? .null
                return .object(o)
            }))
        } else if ids.isEmpty {
            Out.print("No skills registered.")
        } else {
            Out.print(Out.table(["ID", "HEALTH", "LATENCY", "MESSAGE"], ids.map { id in
                let r = results[id]!
                return [id, r.status, r.latencyMs.map { TimeText.oneDecimal($0) + " ms" } ?? "-", r.message]
            }))
        }
        return results.values.allSatisfy { $0.status == "ok" } ? 0 : 1
    }
}
