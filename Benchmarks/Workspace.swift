import Foundation
import Glibc

/// A temporary folder under $TMPDIR (default /tmp) that holds everything the bench creates: skill
/// copies, compiled helpers, one XDG state folder per run. Removed when the process exits, however it
/// exits (normal end or `fail`), through an atexit handler.
final class Workspace {
    let root: String

    /// The folder the atexit handler removes. Written once, on the main thread, before any other thread exists.
    nonisolated(unsafe) private static var pending: String?

    init() {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/skillhost-bench.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            fail("cannot create a temporary folder under \(base): \(String(cString: strerror(errno)))")
        }
        root = String(cString: made)
        Self.pending = root
        atexit { Workspace.pending.map { try? FileManager.default.removeItem(atPath: $0) } }
    }

    /// Creates `root/name` (mode 0755 — the scanner refuses group- or world-writable folders).
    @discardableResult
    func folder(_ name: String) -> String {
        let path = root + "/" + name
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            fail("cannot create \(path): \(error.localizedDescription)")
        }
        chmod(path, 0o755)
        return path
    }
}

/// Where the bench finds what it measures.
struct Locations {
    /// The release bin dir: skillhost, skillhost-worker, skillhost-scan, libEchoSkill.so.
    let binDir: String
    /// The package root (for Tests/Fixtures/echo_c.c and the ABI header).
    let sourceRoot: String

    var skillhost: String { binDir + "/skillhost" }
    var worker: String { binDir + "/skillhost-worker" }
    var scan: String { binDir + "/skillhost-scan" }
    var echoSwiftSkill: String { binDir + "/libEchoSkill.so" }
    var echoCSource: String { sourceRoot + "/Tests/Fixtures/echo_c.c" }
    var abiInclude: String { sourceRoot + "/Sources/SkillABI/include" }

    /// $SKILLHOST_BIN_DIR, else the folder of this executable; $SKILLHOST_SOURCE_DIR, else the package
    /// this file was compiled in.
    static func discover() -> Locations {
        let env = ProcessInfo.processInfo.environment
        let bin = env["SKILLHOST_BIN_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.executableDirectory()
        let src = env["SKILLHOST_SOURCE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((#filePath as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        let l = Locations(binDir: bin, sourceRoot: src)
        for (what, path) in [("skillhost", l.skillhost), ("skillhost-worker", l.worker), ("skillhost-scan", l.scan)] where access(path, X_OK) != 0 {
            fail("\(what) not found at \(path); build first (swift build -c release) and set SKILLHOST_BIN_DIR")
        }
        if access(l.echoSwiftSkill, R_OK) != 0 {
            fail("libEchoSkill.so not found at \(l.echoSwiftSkill); build the EchoSkill product first (swift build -c release)")
        }
        if access(l.echoCSource, R_OK) != 0 {
            fail("\(l.echoCSource) not found; set SKILLHOST_SOURCE_DIR to the package root")
        }
        return l
    }

    static func executableDirectory() -> String {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return "." }
        return (String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) as NSString).deletingLastPathComponent
    }
}

/// The environment every measured `skillhost` process gets: the caller's, with the XDG folders pointed
/// into the workspace (so no user config, cache or health file leaks in) and the skill-path variables
/// removed (the folder is always passed with --skills-dir).
func isolatedEnvironment(state: String, workspace: Workspace) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for key in ["SKILLHOST_PATH", "SKILLHOST_CONFIG", "SKILLHOST_NOW", "SKILLHOST_LOG", "SKILLHOST_WORKER"] {
        env[key] = nil
    }
    env["XDG_STATE_HOME"] = state
    env["XDG_CONFIG_HOME"] = workspace.root + "/config"
    env["XDG_DATA_HOME"] = workspace.root + "/data"
    return env
}
