import FoundationEssentials
import Glibc
import SkillHostCore

/// `skillhost`: a thin surface over SkillHostCore. Parses the command line, calls the core, prints.
/// No rule about skills lives here.
let commands: [String: (Arguments) -> Int32] = [
    "list": ListCommand.run, "inspect": InspectCommand.run, "invoke": InvokeCommand.run,
    "health": HealthCommand.run, "install": InstallCommand.run, "doctor": DoctorCommand.run, "unblock": UnblockCommand.run,
    "new": NewCommand.run, "validate": ValidateCommand.run, "mcp": McpCommand.run,
    "ask": AskCommand.run, "replay": ReplayCommand.run, "traces": TracesCommand.run,
]
let helps: [String: String] = [
    "list": Help.list, "inspect": Help.inspect, "invoke": Help.invoke, "health": Help.health,
    "install": Help.install, "doctor": Help.doctor, "unblock": Help.unblock, "new": Help.new, "validate": Help.validate,
    "mcp": Help.mcp, "ask": Help.ask, "replay": Help.replay, "traces": Help.traces,
]

ProtectedOutput.reserve()
let code: Int32
do {
    let args = try Arguments(Array(CommandLine.arguments.dropFirst()))
    _ = try args.int("--scan-timeout")  // a usage error (exit 2), whichever command it comes with
    if args.command == nil && args.flag("--version") {
        if args.flag("--json") { Out.json(BuildInfo.json) } else { Out.print(BuildInfo.text) }
        code = 0
    } else if let name = args.command, name != "help", let run = commands[name] {
        if args.flag("--help") { Out.print(helps[name]!); code = 0 } else { code = run(args) }
    } else if args.command == nil || args.command == "help" {
        if let topic = args.positionals.first, let text = helps[topic] { Out.print(text) } else { Out.print(Help.main) }
        code = args.command == nil && !args.flag("--help") ? 2 : 0
    } else {
        Out.error("skillhost: unknown command \"\(args.command!)\"; commands: \(commands.keys.sorted().joined(separator: ", "))")
        code = 2
    }
} catch {
    Out.error("skillhost: \(error.message)\nrun `skillhost --help` for usage")
    code = 2
}
exit(code)
