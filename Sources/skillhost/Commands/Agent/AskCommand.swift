import Dispatch
import FoundationEssentials
import Glibc
import SkillHostCore
import Synchronization

/// `skillhost ask TEXT… [--json] [--now RFC3339] [--time-zone TZ] [--locale TAG] [--request JSON|-]`
/// A thin surface over `AgentEngine`: builds the request, shows the phases live on one line of a
/// terminal (stderr; nothing when not a terminal or with --json), prints the answer (or the full
/// response as JSON), and exits with `AgentResponse.exitCode`. Ctrl-C cancels the request (exit 18).
enum AskCommand {
    static func run(_ args: Arguments) -> Int32 {
        let json = args.flag("--json")
        // A script's request may name its own time zone; --time-zone names it from the command line.
        var scripted: JSON? = nil
        if let raw = args.values["--request"] {
            let text = raw == "-" ? String(decoding: readStandardInput(), as: UTF8.self) : raw
            do { scripted = try JSON.parse(text) } catch {
                return Out.fail(SkillError(.invalidInput, "--request is not valid JSON: \(error)", hint: #"e.g. --request '{"text":"what meetings do I have tomorrow?"}'"#), json: json)
            }
        }
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: json) }
        let caller: Caller = !json && ProtectedOutput.isTerminal && isatty(0) == 1 ? .human : .automation
        let request: AgentRequest
        switch makeRequest(args, scripted: scripted, host: host, caller: caller) {
        case .failure(let e): return Out.fail(e, json: json)
        case .success(let r): request = r
        }
        let engine = AgentEngine(host: host, traces: TraceStore(paths: host.paths))
        let live = !json && Terminal.live
        let cancellation = Cancellation()
        let interrupts = cancelOnInterrupt(cancellation)  // Ctrl-C: the running skills are told, the rest skipped
        defer { interrupts.cancel() }
        // A destructive step needs a person's yes at the terminal (one question at a time).
        var confirm: (@Sendable (String, String) -> Bool)? = nil
        if caller == .human {
            let prompts = Mutex(0)
            confirm = { intent, skill in
                prompts.withLock { _ -> Bool in askOnTerminal((Terminal.live ? "\r\u{1B}[K" : "") + "Run destructive intent \(intent) of skill \(skill)? [y/N] ") }
            }
        }
        let response = wait(engine.start(request, cancellation: cancellation, confirm: confirm), live: live)
        if json {
            Out.json(response.json)
        } else {
            Out.print(response.answer)
            if live, let path = response.tracePath { Out.error("trace: \(path)") }
        }
        return response.exitCode
    }

    /// The request from the command line: TEXT (or the parsed --request JSON), --now (else
    /// $SKILLHOST_NOW, else the clock), --locale.
    static func makeRequest(_ args: Arguments, scripted: JSON?, host: SkillHost, caller: Caller) -> Result<AgentRequest, SkillError> {
        var now = Int(time(nil))
        if let given = args.values["--now"] ?? ProcessInfo.processInfo.environment["SKILLHOST_NOW"].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard let t = LocalClock.parseInstant(given) else {
                return .failure(SkillError(.invalidInput, "--now: expected an RFC 3339 date-time like 2026-11-29T09:00:00+08:00, found \"\(given)\""))
            }
            now = t
        }
        var zone = ZoneRules.load(host.timeZone) ?? .utc
        if let name = args.values["--time-zone"] {
            guard let z = ZoneRules.load(name) else {
                return .failure(SkillError(.invalidInput, "--time-zone: unknown time zone \"\(name)\"", hint: "an IANA name like Asia/Shanghai (the names under \(ZoneRules.zoneinfo))"))
            }
            zone = z
        }
        if var scripted {
            if args.values["--time-zone"] != nil, case .object(var o) = scripted, o["timeZone"] == nil {
                o["timeZone"] = .string(zone.name)
                scripted = .object(o)
            }
            return AgentRequest.from(json: scripted, source: .script, caller: caller, timeZone: host.timeZone, now: now)
        }
        let text = args.positionals.joined(separator: " ")
        guard !text.allSatisfy(\.isWhitespace) else {
            return .failure(SkillError(.invalidInput, "ask needs a request: skillhost ask \"what meetings do I have tomorrow?\"", hint: Help.ask))
        }
        return .success(AgentRequest(text: text, source: caller == .human ? .terminal : .script, caller: caller,
                                     locale: args.values["--locale"], zone: zone, now: now))
    }

    /// Waits for the answer; with `live`, rewrites one stderr line per phase ("⋯ executing calendar.events.list 1/2").
    static func wait(_ run: AgentEngine.Run, live: Bool) -> AgentResponse {
        var show: (@Sendable (PhaseEvent) -> Void)? = nil
        if live { show = { event in writeStandardError("\r\u{1B}[K⋯ " + Out.safe(event.phase.line)) } }
        let response = run.wait(onPhase: show)
        if live { writeStandardError("\r\u{1B}[K") }
        return response
    }
}
