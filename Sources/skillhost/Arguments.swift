import FoundationEssentials

/// The command line, split into a command, its positional arguments, and options.
/// Options may appear anywhere after the command. `--name value` and `--name=value` both work.
struct Arguments {
    var command: String?
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    /// Every value of each option, in order (for repeatable options such as `--grant`).
    var allValues: [String: [String]] = [:]

    /// Options that take a value; everything else starting with "--" is a flag.
    static let valued: Set<String> = ["--skills-dir", "--config", "--scan-timeout", "--input", "--timeout",
                                      "--lang", "--dir", "--id", "--vendor", "--sdk",
                                      "--now", "--time-zone", "--locale", "--request", "--limit",
                                      "--idempotency-key", "--grant",
                                      "--http", "--token-file", "--allow-origin"]

    init(_ argv: [String]) throws(UsageError) {
        var i = 0
        while i < argv.count {
            let a = argv[i]
            if a == "-h" { flags.insert("--help"); i += 1; continue }
            if a.hasPrefix("--") {
                if let eq = a.firstIndex(of: "=") {
                    let name = String(a[..<eq])
                    guard Self.valued.contains(name) else { throw UsageError("\(name) does not take a value") }
                    values[name] = String(a[a.index(after: eq)...])
                    allValues[name, default: []].append(values[name]!)
                } else if Self.valued.contains(a) {
                    guard i + 1 < argv.count else { throw UsageError("\(a) needs a value") }
                    values[a] = argv[i + 1]
                    allValues[a, default: []].append(argv[i + 1])
                    i += 1
                } else {
                    flags.insert(a)
                }
            } else if command == nil {
                command = a
            } else {
                positionals.append(a)
            }
            i += 1
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
            throw UsageError("\(name) expects a whole number of \(unit) from 1 to \(max), found \"\(v)\"")
        }
        return n
    }

    /// Refuses options the command does not know, so a typo is not silently ignored.
    func allow(_ allowed: Set<String>) throws(UsageError) {
        let global: Set<String> = ["--skills-dir", "--config", "--scan-timeout", "--json", "--help"]
        for name in flags.union(values.keys) where !allowed.contains(name) && !global.contains(name) {
            throw UsageError("unknown option \(name) for `skillhost \(command ?? "")`")
        }
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
