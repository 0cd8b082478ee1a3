import Glibc
import SkillHostCore

/// The owner's consent to what a skill asks for, before `install` puts it in place (like Android's
/// install-time permission screen): shown on a terminal with a prompt, given with `--grant` by scripts.
/// A skill that asks for nothing needs no consent. Without a terminal and without `--grant`, a skill
/// that asks for something is not installed: silence is never consent.
enum InstallConsent {
    /// The grant to record once the file is installed (nil: nothing to record), or the exit code when
    /// the install must stop here.
    static func decide(_ host: SkillHost, _ file: String, grantValues: [String], json: Bool) -> Result<Grant?, ExitCode> {
        guard case .success(let m) = host.inspect(file: file).outcome else { return .success(nil) }  // install reports why
        let requested = m.identity.permissions
        if !grantValues.isEmpty {
            do { return .success(try Grant.parse(grantValues, requested: requested)) } catch {
                return .failure(ExitCode(Out.fail(error, json: json)))
            }
        }
        if requested.isEmpty { return .success(nil) }
        guard !json, isatty(0) == 1 else {
            let e = SkillError(.denied, "not installed: \(m.id) asks for permissions that need your consent: " + requested.lines.joined(separator: "; "),
                               hint: "run it on a terminal to be asked, or add --grant all (everything it asks for), --grant none, or an explicit list: --grant network=HOST:PORT,read=PATH,write=PATH,env=NAME,programs")
            return .failure(ExitCode(Out.fail(e, json: json)))
        }
        Out.print("\(m.name) (\(m.id) \(m.version), from \(m.vendor.isEmpty ? "an unnamed vendor" : m.vendor)) asks for:")
        for line in requested.lines { Out.print("  • \(line)") }
        Out.print("Everything else stays closed to it (its own data folder is always open to it).")
        ProtectedOutput.write("Grant these? [a]ll / [n]one (install without them) / [c]ancel: ")
        let answer = (readLine() ?? "").lowercased().filter { !$0.isWhitespace }
        switch answer {
        case "a", "all", "y", "yes": return .success(Grant(requested))
        case "n", "none": return .success(Grant(.none))
        default:
            Out.error("not installed: no consent given")
            return .failure(ExitCode(1))
        }
    }

    /// Records `grant` after a successful install and says so. Returns a JSON member for `--json`.
    static func record(_ grant: Grant?, id: String, _ host: SkillHost, json: Bool) -> (key: String, value: JSON)? {
        guard let grant else { return nil }
        do {
            let path = try host.recordGrant(grant, for: id)
            if !json {
                Out.print("granted: " + grant.permissions.lines.joined(separator: "; ") + " (recorded in \(path), \"grants\")")
            }
            return ("granted", grant.json)
        } catch {
            Out.error("installed, but the grant was not recorded: \(error.message)" + (error.hint.map { "\nhint: \($0)" } ?? ""))
            return ("grantError", .string(error.message))
        }
    }

    struct ExitCode: Error { let code: Int32; init(_ c: Int32) { code = c } }
}
