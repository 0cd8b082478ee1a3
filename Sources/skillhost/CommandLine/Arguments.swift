import FoundationEssentials

/// The command line, parsed against `CommandTable`: a command, its positional arguments, and its
/// options by long name.
///
/// Conventions (one parser for every command): `--name value` and `--name=value`; short options
/// (`-j`), bundled (`-aj`), with a value attached (`-i{}`) or next (`-i {}`); `--` ends the options
/// (everything after it is positional, even when it starts with `-`); a lone `-` is positional.
/// Options may come before or after the command; before it, only global ones. An option the command
/// does not declare, a value where none is taken, a missing value, a value outside an option's
/// choices, an unknown command and a wrong number of positional arguments are all `UsageError`s,
/// naming the nearest correct spelling ("did you mean") when one is close.
struct Arguments {
    var command: String?
    var positionals: [String] = []
    /// The last value of each valued option, by long name.
    var values: [String: String] = [:]
    /// Options that take no value and were given, by long name.
    var flags: Set<String> = []
    /// Every value of each option, in order (for repeatable options such as `--grant`).
    var allValues: [String: [String]] = [:]

    init(_ argv: [String]) throws(UsageError) {
        var known = CommandTable.globalOptions + CommandTable.topLevelOptions
        var spec: CommandSpec?
        var endOfOptions = false
        var i = 0
        func option(named name: String) throws(UsageError) -> OptionSpec {
            if let o = known.first(where: { $0.long == name }) { return o }
            throw Self.unknownOption(name, known: known, command: spec)
        }
        func record(_ o: OptionSpec, _ value: String?) throws(UsageError) {
            guard let value else { flags.insert(o.long); return }
            if case .choices(let words) = o.completion, !words.contains(value) {
                throw UsageError("\(o.long) expects one of \(words.joined(separator: ", ")), found \"\(value)\"",
                                 hint: Suggest.nearest(value, in: words).map { "did you mean \(o.long) \($0)?" })
            }
            values[o.long] = value
            allValues[o.long, default: []].append(value)
        }
        while i < argv.count {
            let a = argv[i]
            i += 1
            if endOfOptions || a == "-" || !a.hasPrefix("-") {
                if command == nil {
                    guard let s = CommandTable.command(named: a) else { throw Self.unknownCommand(a) }
                    command = a
                    spec = s
                    known = CommandTable.globalOptions + s.options
                } else {
                    positionals.append(a)
                }
            } else if a == "--" {
                endOfOptions = true
            } else if a.hasPrefix("--") {
                let eq = a.firstIndex(of: "=")
                let name = eq.map { String(a[..<$0]) } ?? a
                let o = try option(named: name)
                if let eq {
                    guard o.takesValue else { throw UsageError("\(name) does not take a value (found \"\(a)\")", hint: "write \(name) alone") }
                    try record(o, String(a[a.index(after: eq)...]))
                } else if o.takesValue {
                    guard i < argv.count else { throw UsageError("\(name) needs a value: \(o.label.trimmingLeadingSpaces)", hint: nil) }
                    try record(o, argv[i])
                    i += 1
                } else {
                    try record(o, nil)
                }
            } else {
                // A cluster of short options: -aj, -i VALUE, -iVALUE.
                var rest = Substring(a.dropFirst())
                while let c = rest.first {
                    rest = rest.dropFirst()
                    guard let o = known.first(where: { $0.short == c }) else {
                        throw Self.unknownOption("-\(c)", known: known, command: spec)
                    }
                    if o.takesValue {
                        if !rest.isEmpty {
                            try record(o, String(rest))
                        } else {
                            guard i < argv.count else { throw UsageError("-\(c) (\(o.long)) needs a value: \(o.label.trimmingLeadingSpaces)", hint: nil) }
                            try record(o, argv[i])
                            i += 1
                        }
                        break
                    }
                    try record(o, nil)
                }
            }
        }
        if let spec, !flags.contains("--help"), !spec.arity.contains(positionals.count) {
            let names = spec.positionals.map(\.name).joined(separator: " ")
            let what = spec.arity.lowerBound == spec.arity.upperBound ? "exactly \(spec.arity.lowerBound)" : "\(spec.arity.lowerBound) to \(spec.arity.upperBound)"
            let found = positionals.isEmpty ? "none" : positionals.map { "\"\($0)\"" }.joined(separator: " ")
            throw UsageError("`skillhost \(spec.name)` takes \(what) argument\(spec.arity.upperBound == 1 ? "" : "s") (\(names.isEmpty ? "none" : names)), found \(found)",
                             hint: "usage: skillhost \(spec.usage[0]); see `skillhost \(spec.name) --help`")
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The longest deadline a flag or the config may set: 24 h in milliseconds.
    static let maxMilliseconds = 86_400_000

    /// The whole number given to `name`, checked to lie in 1...`max` (`--scan-timeout 4294967296` is a
    /// usage error naming the range, never a trap); nil when the option is absent.
    func int(_ name: String, max: Int = Arguments.maxMilliseconds, unit: String = "milliseconds") throws(UsageError) -> Int? {
        guard let v = values[name] else { return nil }
        guard let n = Int(v), n > 0, n <= max else {
            throw UsageError("\(name) expects a whole number of \(unit) from 1 to \(max), found \"\(v)\"",
                             hint: "for example \(name) \(Swift.min(max, 5000))")
        }
        return n
    }

    /// True when `argv` asks for JSON output (`--json` or `-j`, alone or in a cluster, before `--`):
    /// how a usage error is reported when the command line could not be parsed.
    static func wantsJSON(_ argv: [String]) -> Bool {
        for a in argv {
            if a == "--" { return false }
            if a == "--json" { return true }
            if a.hasPrefix("-") && !a.hasPrefix("--") && a.dropFirst().contains("j") && a.count <= 6 { return true }
        }
        return false
    }

    // MARK: - Errors

    private static func unknownCommand(_ name: String) -> UsageError {
        let names = CommandTable.visible.map(\.name)
        let near = Suggest.nearest(name, in: names)
        return UsageError("unknown command \"\(name)\"",
                          hint: (near.map { "did you mean `skillhost \($0)`? " } ?? "") + "commands: \(names.joined(separator: ", ")); see `skillhost help`")
    }

    private static func unknownOption(_ name: String, known: [OptionSpec], command: CommandSpec?) -> UsageError {
        let longs = known.map(\.long)
        let near = name.hasPrefix("--") ? Suggest.nearest(name, in: longs) : nil
        let place = command.map { "`skillhost \($0.name)`" } ?? "skillhost (before a command, only global options)"
        let help = command.map { "`skillhost \($0.name) --help`" } ?? "`skillhost --help`"
        var hint = near.map { "did you mean \($0)? " } ?? ""
        // An option of some command given before any command: say where it belongs.
        if command == nil, let owner = CommandTable.visible.first(where: { $0.options.contains { $0.long == name } }) {
            hint += "\(name) belongs to `skillhost \(owner.name)`: put it after the command. "
        }
        return UsageError("unknown option \(name) for \(place)", hint: hint + "the options: \(help)")
    }
}

/// A command line that does not follow the table (exit 2). `hint` says how to fix it.
struct UsageError: Error {
    let message: String
    let hint: String?
    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}

extension String {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
