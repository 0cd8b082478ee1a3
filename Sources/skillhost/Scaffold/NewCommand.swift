import FoundationEssentials
import Glibc
import SkillHostCore

/// `skillhost new NAME [--lang swift|c] [--dir DIR] [--id ID] [--vendor NAME] [--sdk PATH] [--json]`:
/// writes a standalone skill project into DIR/NAME (DIR defaults to the current folder), for a team
/// that builds skills outside this repository. Refuses to write into a folder that exists and is not
/// empty. The project refers to the SDK (SkillKit, or the header for C): `--sdk`, else `$SKILLHOST_SDK`,
/// else the checkout this `skillhost` was built in, else the installed one (see `locateSDK`).
enum NewCommand {
    static func run(_ args: Arguments) -> Int32 {
        let json = args.flag("--json")
        let name = args.positionals[0]
        let lang = args.values["--lang"] ?? "swift"  // the parser allows only swift and c
        let names: ScaffoldNames
        switch ScaffoldNames.make(name: name, id: args.values["--id"], vendor: args.values["--vendor"]) {
        case .failure(let e): return Out.usage(e, json: json)
        case .success(let n): names = n
        }
        guard let sdk = locateSDK(explicit: args.values["--sdk"]) else {
            return Out.fail(SkillError(.invalidInput, "cannot find the skillhost SDK (a checkout, or PREFIX/share/skillhost/sdk of an install, with Sources/SkillKit and Sources/SkillABI/include/skillhost.h)",
                                       hint: "pass --sdk PATH (or set SKILLHOST_SDK) to a skillhost checkout or an installed PREFIX/share/skillhost/sdk"), json: json)
        }
        let project = PathText.absolute((args.values["--dir"] ?? ".") + "/" + name)
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: project), !existing.isEmpty {
            return Out.fail(SkillError(.invalidInput, "\"\(project)\" already exists and is not empty; not writing into it",
                                       hint: "choose another NAME or --dir"), json: json)
        }
        let files = (lang == "swift" ? SwiftTemplate.files : CTemplate.files).map { (names.fill($0.path, sdk: sdk), names.fill($0.text, sdk: sdk, lang: lang)) }
        for (path, text) in files {
            let full = project + "/" + path
            do {
                try FileManager.default.createDirectory(atPath: PathText.directory(of: full), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: full))
            } catch {
                return Out.fail(SkillError(.internal, "cannot write \"\(full)\": \(error)"), json: json)
            }
        }
        let library = lang == "swift" ? ".build/release/lib\(names.product).so" : "lib\(name).so"
        let build = lang == "swift" ? "swift build -c release" : "make"
        if json {
            Out.json(.object(JSONObject([
                ("ok", .bool(true)), ("path", .string(project)), ("lang", .string(lang)), ("id", .string(names.id)),
                ("intent", .string(names.namespace + ".greet")), ("build", .string(build)), ("library", .string(project + "/" + library)),
                ("files", .array(files.map { .string($0.0) })),
            ])))
        } else {
            Out.print("""
            created \(lang == "swift" ? "Swift" : "C") skill \(names.id) in \(project)
              \(files.map(\.0).joined(separator: "\n  "))

            next:
              cd \(project)
              \(build)\(lang == "swift" ? " && swift test" : "")
              skillhost validate \(library)
              skillhost install \(library)
              skillhost invoke \(names.namespace).greet --input '{"name":"Ada"}'
            """)
        }
        return 0
    }

    /// The SDK (a SwiftPM package with SkillKit and the ABI header): `--sdk`, `$SKILLHOST_SDK`, the
    /// first folder above this executable that holds one (a skillhost built from source), else the
    /// installed one, PREFIX/share/skillhost/sdk (PREFIX: the folder above this executable's).
    static func locateSDK(explicit: String?) -> String? {
        func isSDK(_ dir: String) -> Bool {
            ["Package.swift", "Sources/SkillKit", "Sources/SkillABI/include/skillhost.h"].allSatisfy {
                FileManager.default.fileExists(atPath: dir + "/" + $0)
            }
        }
        if let given = explicit ?? ProcessInfo.processInfo.environment["SKILLHOST_SDK"] {
            let dir = PathText.absolute(given)
            return isSDK(dir) ? dir : nil
        }
        var dir = executableDirectory()
        while dir != "/" && !dir.isEmpty {
            if isSDK(dir) { return dir }
            dir = PathText.directory(of: dir)
        }
        let installed = PathText.directory(of: executableDirectory()) + "/share/skillhost/sdk"
        return isSDK(installed) ? installed : nil
    }
}
