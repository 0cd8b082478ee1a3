/// What a shell should offer when completing a value or a positional argument, and for `choices`
/// the only values the parser accepts.
enum CompletionKind: Equatable, Sendable {
    case none
    case file
    case directory
    /// A registered intent name (`skillhost __complete intents`).
    case intent
    /// A registered skill id (`skillhost __complete skills`).
    case skillID
    /// A command name of this table.
    case command
    /// Exactly these words; the parser refuses any other value.
    case choices([String])
}

/// One option of a command (or a global one): the single declaration the parser, the help, the man
/// page and the shell completions are all made from.
struct OptionSpec: Sendable {
    /// "--json"
    let long: String
    /// `j` for `-j`; nil when the option has no short form.
    let short: Character?
    /// The value's name in help ("DIR"); nil for a flag that takes no value.
    let value: String?
    /// True when the option may be given more than once (every value is kept, in order).
    let repeatable: Bool
    let help: String
    let completion: CompletionKind

    init(_ long: String, _ short: Character? = nil, value: String? = nil, repeatable: Bool = false,
         completion: CompletionKind = .none, _ help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.completion = completion
        self.help = help
    }

    var takesValue: Bool { value != nil }

    /// "-i, --input JSON" as help shows it.
    var label: String {
        (short.map { "-\($0), " } ?? "    ") + long + (value.map { " " + $0 } ?? "")
    }
}

/// A positional argument, for help and completions.
struct PositionalSpec: Sendable {
    /// "INTENT"
    let name: String
    let completion: CompletionKind
}

/// One command of `skillhost`: its options, how many positional arguments it takes, its help and
/// examples, and the function that runs it. `CommandTable` holds them all.
struct CommandSpec: Sendable {
    let name: String
    /// One line, for the command list.
    let summary: String
    /// Synopsis lines after "skillhost " ("invoke INTENT [--input JSON] …").
    let usage: [String]
    let positionals: [PositionalSpec]
    /// How many positional arguments the command accepts.
    let arity: ClosedRange<Int>
    let options: [OptionSpec]
    /// The prose of the help (what it does, what it prints, how it exits).
    let about: String
    /// Example command lines, each with what it does.
    let examples: [(command: String, what: String)]
    /// Not listed in help, man page or completions (used by the completion scripts themselves).
    var hidden = false
    let run: @Sendable (Arguments) -> Int32
}
