import FoundationEssentials
import SkillHostCore

/// skillhost(1) in roff (man(7) macros), made from `CommandTable`: the same commands, options and
/// examples as the help. `make install` writes it to share/man/man1/skillhost.1.
enum ManPage {
    static var roff: String {
        var out = [
            ".TH SKILLHOST 1 \"\" \"skillhost \(BuildInfo.version)\" \"User Commands\"",
            ".SH NAME",
            "skillhost \\- load agent skills from .so files and call them",
            ".SH SYNOPSIS",
            ".B skillhost",
            "\\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".SH DESCRIPTION",
            text("skillhost loads agent skills from shared libraries (.so) through a stable C ABI (skillhost.h), runs each in a supervised, sandboxed worker process, and serves them to a person at a terminal, to scripts (--json and exit codes) and to agent hosts over MCP. Options may come before or after arguments; -- ends them; short options can be bundled (-aj)."),
            ".SH GLOBAL OPTIONS",
        ]
        out += (CommandTable.globalOptions + CommandTable.topLevelOptions).flatMap(option)
        out.append(".SH COMMANDS")
        for c in CommandTable.visible {
            out.append(".SS \(text(c.name))")
            out.append(".nf")
            out += c.usage.map { text($0.hasPrefix(" ") ? $0 : "skillhost " + $0) }
            out.append(".fi")
            out.append(".PP")
            out.append(text(c.about.split(separator: "\n").joined(separator: " ")))
            if !c.options.isEmpty { out += c.options.flatMap(option) }
            if !c.examples.isEmpty {
                out.append(".PP\nExamples:")
                for e in c.examples { out += [".PP", ".RS 4", ".nf", text("$ " + e.command), ".fi", text(e.what), ".RE"] }
            }
        }
        out += [".SH EXIT STATUS", ".nf"] + HelpText.exitCodes.split(separator: "\n").map { text(String($0)) } + [".fi"]
        out += [".SH ENVIRONMENT",
                ".TP\n.B SKILLHOST_PATH\n" + text("Skill folders, colon-separated, searched after --skills-dir and before ./skills.d, $XDG_DATA_HOME/skillhost/skills.d and PREFIX/lib/skillhost/skills.d."),
                ".TP\n.B SKILLHOST_CONFIG\n" + text("The config file (default $XDG_CONFIG_HOME/skillhost/config.json)."),
                ".TP\n.B NO_COLOR\n" + text("When set, no colour (as --color=never)."),
                ".TP\n.B XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME\n" + text("Per-user config, data (skills' data, the user's skill folder) and state (scan cache, health, traces, audit log).")]
        out += [".SH SEE ALSO", text("skillhost.h (the skill ABI), https://modelcontextprotocol.io")]
        return out.joined(separator: "\n") + "\n"
    }

    private static func option(_ o: OptionSpec) -> [String] {
        let names = (o.short.map { "\\fB\\-\($0)\\fR, " } ?? "") + "\\fB" + text(o.long) + "\\fR" + (o.value.map { " \\fI\(text($0))\\fR" } ?? "")
        return [".TP", names, text(o.help + (o.repeatable ? " (repeatable)" : ""))]
    }

    /// `s` safe as roff text: backslashes and hyphens escaped, characters beyond ASCII as `\[uXXXX]`,
    /// a leading dot or quote neutralised.
    static func text(_ s: String) -> String {
        var t = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": t += "\\e"
            case "-": t += "\\-"
            case _ where u.value > 0x7f:
                let hex = String(u.value, radix: 16, uppercase: true)
                t += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: t.unicodeScalars.append(u)
            }
        }
        if t.hasPrefix(".") || t.hasPrefix("'") { t = "\\&" + t }
        return t
    }
}

/// `skillhost man`: prints the manual page.
enum ManCommand {
    static func run(_ args: Arguments) -> Int32 {
        ProtectedOutput.write(ManPage.roff)
        return 0
    }
}
