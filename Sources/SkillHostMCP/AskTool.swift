import Glibc
import SkillHostCore
import Synchronization

/// `skillhost_ask`: the agent engine as one MCP tool, so an agent can hand over a whole sentence
/// ("what meetings do I have tomorrow, and will it rain?") instead of picking intents itself. The
/// steps run with the agent as caller, so the policy applies to each of them as to a direct tool call;
/// every request writes a trace like `skillhost ask`.
enum AskTool {
    static let name = "skillhost_ask"

    /// The tool's description (built once: every `tools/list` offers it).
    static let json: JSON = {
        .object(JSONObject([
            ("name", .string(name)),
            ("title", .string("Ask skillhost in a sentence")),
            ("description", .string("Hand over a request in English or Chinese; skillhost recognizes the intents its skills declare, runs independent ones in parallel and answers in the request's language, with the recognized intents, each step's result and a trace. Use it when a request needs several skills at once.")),
            ("inputSchema", try! JSON.parse(#"{"type":"object","properties":{"text":{"type":"string","minLength":1,"description":"The request, as a person would say it."},"locale":{"type":"string","description":"BCP 47 tag for the skills (default: zh-CN for Chinese text, else en-US)."},"now":{"type":"string","format":"date-time","description":"RFC 3339 instant that counts as now (default: the clock)."}},"required":["text"],"additionalProperties":false}"#)),
            ("outputSchema", try! JSON.parse(#"{"type":"object","properties":{"answer":{"type":"string"},"status":{"type":"string","enum":["answered","partial","failed","clarify","not_understood"]},"intents":{"type":"array"},"steps":{"type":"array"},"trace":{"type":["string","null"]}},"required":["answer","status"]}"#)),
            ("annotations", .object(JSONObject([
                ("title", .string("Ask skillhost in a sentence")), ("readOnlyHint", .bool(false)), ("destructiveHint", .bool(false)),
                ("idempotentHint", .bool(false)), ("openWorldHint", .bool(true)),
            ]))),
        ]))
    }()

    /// Runs the request; `progress` gets one message per phase ("executing calendar.events.list 1/2").
    static func call(host: SkillHost, arguments: JSON, caller: Caller, progress: (@Sendable (Int, String) -> Void)?,
                     cancellation: Cancellation) async -> JSON {
        let request: AgentRequest
        switch AgentRequest.from(json: arguments, source: .agent, caller: caller, timeZone: host.timeZone, now: Int(time(nil))) {
        case .failure(let e):
            return .object(JSONObject([("content", .array([.object(JSONObject([("type", "text"), ("text", .string("invalid_input: \(e.message)"))]))])),
                                       ("isError", .bool(true))]))
        case .success(let r): request = r
        }
        let engine = AgentEngine(host: host, traces: TraceStore(paths: host.paths))
        let phases = Mutex(0)
        let r = await engine.start(request, cancellation: cancellation).finish { event in
            let n = phases.withLock { n -> Int in n += 1; return n }
            progress?(n, event.phase.line)
        }
        let steps: [JSON] = r.steps.map { s in
            var o = JSONObject([("intent", .string(s.step.intent)), ("skill", .string(s.skillID)), ("status", .string(s.status.rawValue))])
            if let out = s.result { o["output"] = out }
            if let e = s.error { o["error"] = e.json }
            return .object(o)
        }
        let structured = JSON.object(JSONObject([("answer", .string(r.answer)), ("status", .string(r.status)),
                                                 ("intents", .array(r.recognition.intents.map(\.json))), ("steps", .array(steps)),
                                                 ("trace", r.tracePath.map(JSON.string) ?? .null)]))
        return .object(JSONObject([("content", .array([.object(JSONObject([("type", "text"), ("text", .string(r.answer))]))])),
                                   ("structuredContent", structured), ("isError", .bool(r.status == "failed"))]))
    }
}
