import Foundation
import Glibc

/// Builds what the bench measures: the C echo fixture, N copies of a skill with distinct ids, and the
/// baseline program (a plain dlopen+dlsym loop in C).
enum Fixtures {
    // MARK: - Compiling

    static var cc: String {
        ProcessTimer.which(ProcessInfo.processInfo.environment["CC"] ?? "cc") ?? ProcessTimer.which("cc")
            ?? { fail("no C compiler: cc not found on PATH") }()
    }

    /// Compiles Tests/Fixtures/echo_c.c with the fixtures' own flags (see Tests/Fixtures/Makefile).
    static func buildEchoC(_ l: Locations, into dir: String, workspace: Workspace) -> String {
        let out = dir + "/echo_c.so"
        ProcessTimer.mustSucceed(cc, ["-std=c99", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-I", l.abiInclude,
                                      "-o", out, l.echoCSource], in: workspace, what: "compiling echo_c.c")
        chmod(out, 0o755)
        return out
    }

    /// Compiles Tests/Fixtures/NAME.c the same way into `dir`/NAME.so.
    static func buildFixture(_ name: String, _ l: Locations, into dir: String, workspace: Workspace, extra: [String] = []) -> String {
        let out = dir + "/\(name).so"
        ProcessTimer.mustSucceed(cc, ["-std=c99", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-I", l.abiInclude,
                                      "-o", out, l.sourceRoot + "/Tests/Fixtures/\(name).c"] + extra, in: workspace, what: "compiling \(name).c")
        chmod(out, 0o755)
        return out
    }

    /// The baseline: for each file on the command line, dlopen it the way the scan process does
    /// (RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) and dlsym the entry symbol. A fresh process per run, so
    /// every dlopen really loads (no refcount bump), exactly like the host's scan process.
    static let loopSource = """
        #include <dlfcn.h>
        #include <stdio.h>
        int main(int argc, char **argv) {
            int bad = 0;
            for (int i = 1; i < argc; i++) {
                void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
                if (!h || !dlsym(h, "skillhost_entry")) { fprintf(stderr, "%s: %s\\n", argv[i], dlerror()); bad++; }
            }
            return bad ? 1 : 0;
        }

        """

    static func buildLoop(into dir: String, workspace: Workspace) -> String {
        let src = dir + "/dlopen_loop.c"
        let out = dir + "/dlopen_loop"
        do { try loopSource.write(toFile: src, atomically: true, encoding: .utf8) } catch {
            fail("cannot write \(src): \(error.localizedDescription)")
        }
        ProcessTimer.mustSucceed(cc, ["-O2", "-o", out, src, "-ldl"], in: workspace, what: "compiling the dlopen loop")
        return out
    }

    // MARK: - Copies with distinct ids

    /// Writes `count` copies of `original` into `dir` as `<prefix>NNN.so`, each with the skill id bytes
    /// `id` replaced by a same-length id whose last three characters are the copy's number
    /// ("dev.skillhost.echo" → "dev.skillhost.e000"). The id must occur exactly once in the file, as a
    /// NUL-terminated string (where a C string literal or a large Swift string literal lives); anything
    /// else stops the bench rather than patching the wrong bytes. Returns the paths, sorted.
    static func patchedCopies(of original: String, id: String, count: Int, prefix: String, into dir: String,
                              workspace: Workspace) -> (paths: [String], offset: Int) {
        guard let data = FileManager.default.contents(atPath: original) else {
            fail("cannot read \(original)")
        }
        var bytes = [UInt8](data)
        let needle = Array(id.utf8)
        let hits = occurrences(of: needle, in: bytes)
        guard hits.count == 1, let at = hits.first, at + needle.count < bytes.count, bytes[at + needle.count] == 0 else {
            fail("expected the id \"\(id)\" exactly once, NUL-terminated, in \(original); found it at offsets \(hits) — the bench cannot make distinct copies")
        }
        precondition(count <= 1000 && needle.count > 3)
        var paths: [String] = []
        for i in 0..<count {
            let newID = Array(id.utf8.dropLast(3)) + Array(String(format: "%03d", i).utf8)
            bytes.replaceSubrange(at..<(at + needle.count), with: newID)
            let path = dir + "/" + prefix + String(format: "%03d", i) + ".so"
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                fail("cannot write \(path)")
            }
            chmod(path, 0o755)
            paths.append(path)
        }
        return (paths.sorted(), at)
    }

    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard let first = needle.first, haystack.count >= needle.count else { return [] }
        var hits: [Int] = []
        haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                var i = 0
                let last = h.count - n.count
                while i <= last {
                    if h[i] == first && memcmp(h.baseAddress! + i, n.baseAddress!, n.count) == 0 { hits.append(i) }
                    i += 1
                }
            }
        }
        return hits
    }
}
