import FoundationEssentials
import Glibc
import SkillHostCore

/// What the terminal on stdout and stderr can take, decided once at start (`configure`):
/// - colour: `--color=always|never`, else (`auto`) only on a terminal, never with `NO_COLOR` set
///   (https://no-color.org) or `TERM=dumb`;
/// - live progress (a line on stderr rewritten in place): only when stderr is a terminal and `TERM`
///   is set and not `dumb` (a dumb terminal gets plain text only);
/// - width: `$COLUMNS`, else the terminal's (TIOCGWINSZ on stdout), else none (no limit when piped).
enum Terminal {
    nonisolated(unsafe) private(set) static var colorOut = false
    nonisolated(unsafe) private(set) static var colorErr = false
    /// True when stderr can show a line rewritten in place (`\r`, `ESC[K`).
    nonisolated(unsafe) private(set) static var live = false

    static func configure(color: String?) {
        // Two variables: getenv, not `ProcessInfo.environment` (a dictionary of the whole environment).
        let term = getenv("TERM").map { String(cString: $0) }
        let dumb = term == "dumb" || term == nil
        let noColor = !(getenv("NO_COLOR").map { String(cString: $0) } ?? "").isEmpty
        switch color ?? "auto" {
        case "always": colorOut = true; colorErr = true
        case "never": colorOut = false; colorErr = false
        default:
            colorOut = !noColor && !dumb && ProtectedOutput.isTerminal
            colorErr = !noColor && !dumb && isatty(2) == 1
        }
        live = !dumb && isatty(2) == 1
    }

    /// Columns available for a table on stdout; nil when there is no limit (not a terminal, no $COLUMNS).
    static var width: Int? {
        if let c = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), c > 0 { return c }
        var size = winsize()
        let out = ProtectedOutput.descriptor  // fd 1 itself points at stderr (see ProtectedOutput)
        guard isatty(out) == 1, ioctl(out, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Columns of the terminal on stderr (for the live line); nil when it is not one.
    static var errorWidth: Int? {
        var size = winsize()
        guard isatty(2) == 1, ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    enum Style: String {
        case bold = "1", red = "31", green = "32", yellow = "33", dim = "2"
    }

    /// `s` in `style` when colour is on for stdout (`toError`: stderr), else `s` as it is.
    static func paint(_ s: String, _ style: Style, toError: Bool = false) -> String {
        (toError ? colorErr : colorOut) ? "\u{1B}[\(style.rawValue)m\(s)\u{1B}[0m" : s
    }
}
