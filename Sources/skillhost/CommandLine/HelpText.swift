import SkillHostCore

/// The help screens, rendered from `CommandTable`.
enum HelpText {
    /// `skillhost --help`: the commands, the global options, the exit codes.
    static var main: String {
        let width = CommandTable.visible.map(\.name.count).max() ?? 0
        return """
        skillhost — load agent skills from .so files and call them.

        USAGE: skillhost <command> [options]

        COMMANDS:
        \(CommandTable.visible.map { "  " + $0.name.padding(width) + "  " + $0.summary }.joined(separator: "\n"))

        \(options("GLOBAL OPTIONS", CommandTable.globalOptions + CommandTable.topLevelOptions))

        Options may come before or after arguments; `--` ends them. Short options can be bundled (-aj).
        Help for a command, with examples: skillhost <command> --help (or skillhost help <command>).

        \(exitCodes)
        """
    }

    static let exitCodes = """
    EXIT CODES: 0 ok, 1 problems found (doctor, health, validate), 2 usage error,
      10 invalid_input, 11 no_skill, 12 unavailable, 13 timeout, 14 crashed, 15 denied,
      16 incompatible, 17 load_failed, 18 cancelled, 19 internal.
    """

    /// `skillhost CMD --help`: usage, what it does, its options, the global options, examples.
    static func command(_ c: CommandSpec) -> String {
        var parts = ["USAGE: " + c.usage.enumerated().map { i, u in
            i == 0 || u.hasPrefix(" ") ? (i == 0 ? "skillhost " + u : u) : "       skillhost " + u
        }.joined(separator: "\n")]
        parts.append(c.about)
        if !c.options.isEmpty { parts.append(options("OPTIONS", c.options)) }
        parts.append(options("GLOBAL OPTIONS", CommandTable.globalOptions))
        if !c.examples.isEmpty {
            parts.append("EXAMPLES:\n" + c.examples.map { "  $ \($0.command)\n      \($0.what)" }.joined(separator: "\n"))
        }
        return parts.joined(separator: "\n\n")
    }

    /// "TITLE:" and one aligned entry per option, its help wrapped to the terminal's width (100
    /// columns when not a terminal) under itself.
    static func options(_ title: String, _ list: [OptionSpec]) -> String {
        let width = list.map(\.label.count).max() ?? 0
        let indent = width + 4
        let room = max(30, (Terminal.width ?? 100) - indent)
        return title + ":\n" + list.map { o in
            let lines = wrap(o.help + (o.repeatable ? " (repeatable)" : ""), room)
            return "  " + o.label.padding(width) + "  " + lines.joined(separator: "\n" + String(repeating: " ", count: indent))
        }.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole).
    static func wrap(_ text: String, _ width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}

/// `skillhost help [COMMAND]`.
enum HelpCommand {
    static func run(_ args: Arguments) -> Int32 {
        guard let topic = args.positionals.first else { Out.print(HelpText.main); return 0 }
        guard let c = CommandTable.command(named: topic), !c.hidden else {
            let near = Suggest.nearest(topic, in: CommandTable.visible.map(\.name))
            return Out.usage(UsageError("no help for \"\(topic)\": not a command",
                                        hint: (near.map { "did you mean `skillhost help \($0)`? " } ?? "") + "see `skillhost help`"),
                             json: args.flag("--json"))
        }
        Out.print(HelpText.command(c))
        return 0
    }
}

/// `skillhost version [--json]` (the same as `skillhost --version`).
enum VersionCommand {
    static func run(_ args: Arguments) -> Int32 {
        if args.flag("--json") { Out.json(BuildInfo.json) } else { Out.print(BuildInfo.text) }
        return 0
    }
}
