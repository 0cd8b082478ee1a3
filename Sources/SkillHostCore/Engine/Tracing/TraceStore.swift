import FoundationEssentials
import Glibc

/// Traces of agent requests: one JSON file per request in `$XDG_STATE_HOME/skillhost/traces/`, named
/// by time and a random suffix (`20261129T090000Z-3f9a1c.json`, so names sort by time), written through
/// a temporary file and a rename. After each write only the newest `keep` files stay.
public struct TraceStore: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public init(paths: HostPaths) { self.init(directory: paths.stateDir + "/traces") }

    /// Writes the response as a trace; returns its id and path, or a problem to log (a trace that cannot
    /// be written never fails the request).
    func write(_ response: AgentResponse, keep: Int) -> Result<(String, String), TraceProblem> {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return .failure(TraceProblem(message: "cannot create the trace folder \"\(directory)\": \(error)"))
        }
        let stamp = TimeText.rfc3339(Int(time(nil))).filter { $0 != "-" && $0 != ":" }
        let id = stamp + "-" + String(UInt32.random(in: 0...0xFFFFFF), radix: 16).leftPadded(6)
        var r = response
        r.traceID = id
        let path = directory + "/" + id + ".json"
        r.tracePath = path
        let tmp = path + ".tmp"
        guard FileManager.default.createFile(atPath: tmp, contents: Data((r.json.pretty + "\n").utf8), attributes: [.posixPermissions: 0o600]),
              rename(tmp, path) == 0 else {
            unlink(tmp)
            return .failure(TraceProblem(message: "cannot write the trace \"\(path)\""))
        }
        rotate(keep: keep)
        return .success((id, path))
    }

    /// Trace files, newest first.
    public func list() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted(by: >).map { directory + "/" + $0 }
    }

    func rotate(keep: Int) {
        for old in list().dropFirst(keep) { unlink(old) }
    }

    /// A trace file's JSON with every secret redacted under the schemas `host` serves now
    /// (`TraceRedaction.redact(trace:)`): what `traces` and `replay` show, and what a replay compares.
    public static func load(_ path: String, redactingFor host: SkillHost) -> Result<JSON, SkillError> {
        load(path).map { trace in
            var entries: [IntentCatalog.Entry] = []
            for caller in [Caller.human, .automation, .agent(host: "")] {
                for e in IntentCatalog(registry: host.registry, caller: caller).entries where !entries.contains(where: { $0.intent == e.intent }) {
                    entries.append(e)
                }
            }
            return TraceRedaction(catalog: IntentCatalog(entries: entries), texts: SecretTexts()).redact(trace: trace)
        }
    }

    /// A trace file's JSON as it is on disk. Errors name the file and what is wrong with it.
    static func load(_ path: String) -> Result<JSON, SkillError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(SkillError(.invalidInput, "cannot read the trace \"\(path)\"", hint: "`skillhost traces` lists the recent ones"))
        }
        let json: JSON
        do { json = try JSON.parse(Array(data)) } catch {
            return .failure(SkillError(.invalidInput, "the trace \"\(path)\" is not valid JSON: \(error)"))
        }
        guard json["version"]?.intValue == 1, json["request"]?["text"]?.stringValue != nil else {
            return .failure(SkillError(.invalidInput, "\"\(path)\" is not a skillhost trace (expected {\"version\":1,\"request\":{\"text\":…},…})"))
        }
        return .success(json)
    }
}

/// Why a trace was not written (logged; the request itself does not fail).
struct TraceProblem: Error {
    let message: String
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
