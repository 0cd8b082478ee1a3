import FoundationEssentials
import SkillHostCore

/// Writing to the terminal: stdout for results, stderr for diagnostics. One place for the formats.
enum Out {
    /// Human text to the host's real stdout (see `ProtectedOutput`), never mixed with skill noise.
    /// Control characters are shown escaped (`TerminalText`); line breaks stay, so a value that may
    /// hold one (a file name, a skill's message) goes through `safe` first.
    static func print(_ s: String) {
        ProtectedOutput.write(TerminalText.escaped(s, keepingNewlines: true) + "\n")
    }

    /// Human text to stderr, escaped as `print`.
    static func error(_ s: String) {
        writeStandardError(TerminalText.escaped(s, keepingNewlines: true) + "\n")
    }

    /// A line whose `label` is painted with `style` when colour is on (`Terminal`), followed by
    /// `rest`; both escaped as `print` does. To stderr when `toError`.
    static func labelled(_ label: String, _ style: Terminal.Style, _ rest: String, toError: Bool = false) {
        let line = Terminal.paint(TerminalText.escaped(label), style, toError: toError) + TerminalText.escaped(rest, keepingNewlines: true) + "\n"
        if toError { writeStandardError(line) } else { ProtectedOutput.write(line) }
    }

    /// One value inside a line of human output: every control character escaped, line breaks too.
    static func safe(_ s: String) -> String { TerminalText.escaped(s) }

    /// JSON, exactly as serialized (JSON escapes control characters in strings itself), with the
    /// `version` member every `--json` document carries (see `versioned`).
    static func json(_ j: JSON, pretty: Bool = false) {
        let v = versioned(j)
        ProtectedOutput.write((pretty ? v.pretty : v.serialized) + "\n")
    }

    /// `j` with skillhost's version as its `version` member, when `j` is an object that has none: a
    /// document about one skill (`inspect`, `install`, `validate`) keeps `version` as that skill's.
    static func versioned(_ j: JSON) -> JSON {
        guard case .object(var o) = j, o["version"] == nil else { return j }
        o["version"] = .string(BuildInfo.version)
        return .object(o)
    }

    /// Reports a usage error (exit 2): `{"ok":false,"error":{"kind":"usage","message","hint"}}` on
    /// stdout under `--json`, else the message and the hint on stderr.
    static func usage(_ e: UsageError, json: Bool) -> Int32 {
        if json {
            var err = JSONObject([("kind", .string("usage")), ("message", .string(e.message))])
            if let h = e.hint { err["hint"] = .string(h) }
            self.json(.object(JSONObject([("ok", .bool(false)), ("error", .object(err))])))
        } else {
            labelled("skillhost:", .red, " " + e.message, toError: true)
            labelled("hint:", .yellow, " " + (e.hint ?? "run `skillhost --help` for usage"), toError: true)
        }
        return 2
    }

    /// Reports a failure the way the caller asked for (JSON on stdout, or text on stderr) and returns
    /// the exit code of its kind.
    static func fail(_ e: SkillError, json: Bool) -> Int32 {
        if json {
            self.json(e.responseJSON)
        } else if let place = e.config {
            // A configuration error is its own report: where, then what (exit 10, as invalid_input).
            let what = e.message.firstRange(of: place.place + ": ").map { String(e.message[$0.upperBound...]) } ?? e.message
            error("skillhost: configuration error in \(safe(place.file)), \(place.place):\n  \(safe(what))")
            if let h = e.hint { error("hint: \(safe(h))") }
        } else {
            labelled("error (\(e.kind.rawValue)):", .red, " " + safe(e.message), toError: true)
            if let h = e.hint { labelled("hint:", .yellow, " " + safe(h), toError: true) }
        }
        return e.kind.exitCode
    }

    /// Columns padded to the widest cell; the last column is not padded. When the terminal (or
    /// `$COLUMNS`) is narrower than a line, the last column is cut to fit, ending in "…".
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for r in all { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], safe(c).count) } }
        let limit = Terminal.width
        return all.map { r in
            var line = r.enumerated().map { i, c in i == r.count - 1 ? safe(c) : safe(c).padding(widths[i]) }
                .joined(separator: "  ")
            if let limit, line.count > limit {
                let keep = max(limit - 1, widths.dropLast().reduce(0) { $0 + $1 + 2 } + 8)
                line = String(line.prefix(keep)) + "…"
            }
            return line
        }.joined(separator: "\n")
    }
}

/// Opens the host with the global options of the command line.
/// (`--scan-timeout` was already checked by `main`.) Folder problems are warned about on stderr, so
/// they reach a person even when stdout carries JSON.
func openHost(_ args: Arguments) throws(SkillError) -> SkillHost {
    let options = HostOptions(skillsDir: args.values["--skills-dir"], configPath: args.values["--config"],
                              scanTimeoutMs: (try? args.int("--scan-timeout")) ?? nil)
    // A cold scan of many skills, or one whose initializer hangs until the scan deadline, is shown
    // on a terminal after a moment rather than being silent.
    let scanning = LiveLine("⋯ scanning the skill folders")
    defer { scanning.finish() }
    let host = try SkillHost(options)
    // doctor reports folder problems itself; inspect and validate look at one file and need no folder.
    for f in host.scan.folders where f.problem != nil && !["doctor", "inspect", "validate"].contains(args.command ?? "") {
        Out.error("skillhost: warning: \(Out.safe(f.problem!))" + (f.hint.map { "\nhint: \(Out.safe($0))" } ?? ""))
    }
    return host
}

/// Runs `body(host, FILE, --json)` for a command that takes one FILE (`inspect`, `install`,
/// `validate`; the parser checked there is exactly one): a host that cannot open is reported in the
/// command's format with its kind's exit code. Returns the exit code.
func withHost(forOneFile args: Arguments, _ body: (SkillHost, String, Bool) -> Int32) -> Int32 {
    let json = args.flag("--json")
    do { return body(try openHost(args), args.positionals[0], json) } catch { return Out.fail(error, json: json) }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
