import Foundation
import XCTest

/// The Debian package (scripts/deb.sh, what `make deb` runs), built from the binaries under test,
/// unpacked into a scratch root and used from there only: PATH holds the root's bin and the C tools,
/// LD_LIBRARY_PATH is unset, and nothing in the package points back at this checkout or the toolchain.
final class PackagingTests: EndToEndTestCase {
    func testTheDebInstallsAndServesFromItsOwnPathsOnly() throws {
        let out = work + "/deb"
        var extra: [String] = []
        if let mail = ProcessInfo.processInfo.environment["SKILLHOST_MAIL_SKILL"], FileManager.default.fileExists(atPath: mail) { extra.append(mail) }
        let built = Run.program("/bin/bash", [E2E.packageRoot + "/scripts/deb.sh", E2E.binDir, out] + extra,
                                environment: ProcessInfo.processInfo.environment, timeout: 600)
        XCTAssertEqual(built.exitCode, 0, built.summary)
        let deb = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(deb.hasSuffix(".deb") && FileManager.default.fileExists(atPath: deb), built.summary)

        // Dependencies declared, from the libraries the files need (the Swift runtime is inside).
        let depends = Run.program("/usr/bin/dpkg-deb", ["-f", deb, "Depends"], environment: environment)
        XCTAssertTrue(depends.stdout.contains("libc6 (>="), depends.summary)
        XCTAssertFalse(depends.stdout.contains("swift"), depends.summary)

        let root = work + "/root"
        let unpack = Run.program("/usr/bin/dpkg", ["-x", deb, root], environment: environment, timeout: 120)
        XCTAssertEqual(unpack.exitCode, 0, unpack.summary)
        let usr = root + "/usr"
        for f in ["bin/skillhost", "bin/skillhost-worker", "bin/skillhost-scan", "include/skillhost/skillhost.h", "lib/pkgconfig/skillhost.pc",
                  "lib/skillhost/libswiftCore.so", "lib/skillhost/skills.d/libWeatherSkill.so", "share/man/man1/skillhost.1",
                  "share/bash-completion/completions/skillhost", "share/zsh/vendor-completions/_skillhost",
                  "share/fish/vendor_completions.d/skillhost.fish", "share/skillhost/sdk/Package.swift",
                  "share/skillhost/sdk/Sources/SkillKit/AgentSkill.swift"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: usr + "/" + f), "missing \(f)")
        }

        // No build path in what runs: every ELF's dynamic section, and the binaries' bytes.
        let elfs = try FileManager.default.subpathsOfDirectory(atPath: usr).filter { $0.hasPrefix("bin/") || $0.hasSuffix(".so") }
        XCTAssertGreaterThan(elfs.count, 10)
        for f in elfs {
            let d = Run.program("/usr/bin/readelf", ["-d", usr + "/" + f], environment: environment)
            XCTAssertEqual(d.exitCode, 0, d.summary)
            for line in d.stdout.split(separator: "\n") where line.contains("PATH") || line.contains("NEEDED") || line.contains("SONAME") {
                XCTAssertFalse(line.contains(E2E.packageRoot) || line.contains("/usr/lib/swift") || line.contains("/opt/"), "\(f): \(line)")
            }
        }
        let runpath = Run.program("/usr/bin/readelf", ["-d", usr + "/bin/skillhost"], environment: environment).stdout
        XCTAssertTrue(runpath.contains("[$ORIGIN/../lib/skillhost]"), runpath)
        for b in ["bin/skillhost", "bin/skillhost-worker", "bin/skillhost-scan"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: usr + "/" + b))
            XCTAssertNil(bytes.range(of: Data(E2E.packageRoot.utf8)), "\(b) names the checkout")
        }

        // Only the root's bin and the C tools on PATH; the toolchain's libraries nowhere.
        let tools = work + "/tools"
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        for t in ["cc", "gcc", "as", "ld", "make", "pkg-config", "pkgconf"] {
            if let path = which(t) { try FileManager.default.createSymbolicLink(atPath: tools + "/" + t, withDestinationPath: path) }
        }
        var env = environment
        env["PATH"] = usr + "/bin:" + tools
        env["PKG_CONFIG_PATH"] = usr + "/lib/pkgconfig"
        env["LD_LIBRARY_PATH"] = nil
        func run(_ args: [String], in dir: String? = nil) -> CommandResult {
            Run.program(usr + "/bin/skillhost", args, environment: env, currentDirectory: dir ?? work, timeout: 60)
        }

        // The bundled skills come from the system folder of the search path.
        let list = run(["list", "--json"])
        XCTAssertEqual(list.exitCode, 0, list.summary)
        let skills = try list.listedSkills()
        for id in ["dev.skillhost.weather", "dev.skillhost.calendar", "dev.skillhost.reminders", "dev.skillhost.units"] {
            let s = try XCTUnwrap(skills.first("id", id), "\(id) not listed: \(list.summary)")
            XCTAssertTrue((s["path"] as? String ?? "").hasPrefix(usr + "/lib/skillhost/skills.d/"), "\(s)")
        }
        let units = run(["invoke", "units.convert", "--input", #"{"value":1,"from":"km","to":"m"}"#, "--json"])
        XCTAssertEqual(units.exitCode, 0, units.summary)
        // A Swift skill in a sandboxed worker: the worker's runtime and the Foundation the skill needs
        // come from the package's lib/skillhost (there is no toolchain on this PATH or RUNPATH).
        let reminder = run(["invoke", "reminder.create", "--input", #"{"title":"packaged"}"#, "--json"])
        XCTAssertEqual(try assertInvokeOK(reminder, skill: "dev.skillhost.reminders") as? [String: Any] != nil, true, reminder.summary)

        // A C skill from `new`, built with make and pkg-config against the installed header.
        let new = run(["new", "greeter", "--lang", "c", "--dir", work, "--json"])
        XCTAssertEqual(new.exitCode, 0, new.summary)
        let make = Run.program(tools + "/make", [], environment: env, currentDirectory: work + "/greeter", timeout: 120)
        XCTAssertEqual(make.exitCode, 0, make.summary)
        XCTAssertTrue(make.stdout.contains("-I" + usr + "/lib/pkgconfig/../../include/skillhost") || make.stdout.contains("-I" + usr + "/include/skillhost"),
                      "the header from pkg-config: \(make.summary)")
        let install = run(["install", work + "/greeter/libgreeter.so", "--json"])
        XCTAssertEqual(install.exitCode, 0, install.summary)
        let greeting = run(["invoke", "greeter.greet", "--input", #"{"name":"Ada"}"#, "--json"])
        XCTAssertEqual(try assertInvokeOK(greeting, skill: "com.example.greeter") as? [String: String], ["greeting": "Hello, Ada!"])

        // A Swift project from `new` points at the installed SDK.
        let swift = run(["new", "swifty", "--dir", work, "--json"])
        XCTAssertEqual(swift.exitCode, 0, swift.summary)
        let manifest = try String(contentsOfFile: work + "/swifty/Package.swift", encoding: .utf8)
        XCTAssertTrue(manifest.contains(#"path: "\#(usr)/share/skillhost/sdk""#), manifest)
    }

    private func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }
}
