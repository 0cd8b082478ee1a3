import FoundationEssentials
import Glibc
import SkillHostCore

/// `skillhost`: a thin surface over SkillHostCore. Parses the command line against `CommandTable`,
/// runs the command, exits with its code. No rule about skills lives here.
ProtectedOutput.reserve()
let argv = Array(CommandLine.arguments.dropFirst())
let code: Int32
do {
    let args = try Arguments(argv)
    _ = try args.int("--scan-timeout")  // a usage error (exit 2), whichever command it comes with
    Terminal.configure(color: args.values["--color"])
    if let name = args.command, let spec = CommandTable.command(named: name) {
        if args.flag("--help") { Out.print(HelpText.command(spec)); code = 0 } else { code = spec.run(args) }
    } else if args.flag("--version") {
        code = VersionCommand.run(args)
    } else {
        // No command: the overview; asked for (--help) it is an answer, otherwise a usage error.
        Out.print(HelpText.main)
        code = args.flag("--help") ? 0 : 2
    }
} catch {
    code = Out.usage(error, json: Arguments.wantsJSON(argv))
}
exit(code)
