import Glibc

/// Who may change a skill file: the rules the loader applies to the file it opened and to every
/// folder from the file's real location up to `/` (like sshd's `StrictModes` and sudo's checks).
///
/// - the file: a regular file, owned by the effective user or root, not writable by group or others;
/// - each folder: owned by the effective user or root, not writable by group or others, unless it
///   is sticky (like /tmp). In a sticky folder only an entry's owner can rename or remove it, so the
///   entry below it on the path must be owned by the effective user or root — which the rules for
///   the file and for every folder already demand.
/// Anyone else who could change one of them could make this process run their code.
public enum PathSafety {
    /// This process's effective uid, read once (skillhost never changes it).
    public static let effectiveUser: uid_t = geteuid()

    /// Folders already checked during one scan (real path → problem), so 200 files in one folder walk
    /// it once. Not thread-safe: one per scan.
    public final class Memo {
        var folders: [String: SkillLoadError?] = [:]
        public init() {}
    }

    /// The problem with file `st` at `path`, if any (the descriptor's `fstat`). `euid` nil: the owner
    /// is not checked (a worker in a user namespace sees other owners; the host checked it).
    public static func fileProblem(_ st: stat, path: String, euid: uid_t? = PathSafety.effectiveUser) -> SkillLoadError? {
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            return SkillLoadError(.loadFailed, "\"\(path)\" is not a regular file", hint: "a skill is a shared library file (.so); remove or rename \"\(path)\"")
        }
        let mode = st.st_mode & 0o7777
        if mode & 0o022 != 0 {
            return SkillLoadError(.insecurePermissions,
                                  "file \"\(path)\" can be changed by \(writers(mode)), mode \(octal(mode)); anyone who can write it could make skillhost run their code",
                                  hint: "chmod go-w \"\(path)\"")
        }
        if let euid, st.st_uid != euid && st.st_uid != 0 {
            return SkillLoadError(.insecurePermissions,
                                  "file \"\(path)\" is owned by uid \(st.st_uid), not by you (uid \(euid)) or root; skillhost only runs code its user or root owns",
                                  hint: "chown \(euid) \"\(path)\" (or install it with `skillhost install`)")
        }
        return nil
    }

    /// The first problem in the folders above `realPath` (an absolute path without symlinks, as the
    /// kernel resolved it), from its own folder up to `/`; nil when every one is safe. Messages name
    /// the folder, what was found and the fix; the caller says which file it was.
    public static func foldersProblem(above realPath: String, euid: uid_t = PathSafety.effectiveUser, memo: Memo? = nil) -> SkillLoadError? {
        var folder = parent(of: realPath)
        var walked: [String] = []  // folders checked on this walk: each one's verdict is the result
        var result: SkillLoadError? = nil
        while true {
            // A folder already checked in this scan: its verdict covers every folder above it.
            if let memo, let known = memo.folders[folder] {
                result = known
                break
            }
            walked.append(folder)
            var st = stat()
            guard lstat(folder, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                let why = lstat(folder, &st) == 0 ? "it is not a folder any more" : errnoText(errno)
                result = SkillLoadError(.loadFailed, "cannot check folder \"\(folder)\": \(why)",
                                        hint: "the folder changed while skillhost checked it; run the command again")
                break
            }
            if let problem = folderProblem(st, folder: folder, euid: euid) {
                result = problem
                break
            }
            if folder == "/" { break }
            folder = parent(of: folder)
        }
        if let memo { for f in walked { memo.folders[f] = result } }
        return result
    }

    /// The problem with one folder itself (owner, write bits), if any.
    public static func folderProblem(_ st: stat, folder: String, euid: uid_t = PathSafety.effectiveUser) -> SkillLoadError? {
        let mode = st.st_mode & 0o7777
        let sticky = mode & UInt32(S_ISVTX) != 0
        if mode & 0o022 != 0 && !sticky {
            return SkillLoadError(.insecurePermissions,
                                  "folder \"\(folder)\" can be changed by \(writers(mode)), mode \(octal(mode)), and is not sticky; anyone who can write it could replace the skill with their own code",
                                  hint: "chmod go-w \"\(folder)\"")
        }
        if st.st_uid != euid && st.st_uid != 0 {
            return SkillLoadError(.insecurePermissions,
                                  "folder \"\(folder)\" is owned by uid \(st.st_uid), not by you (uid \(euid)) or root; its owner could replace the skill with their own code",
                                  hint: "chown \(euid) \"\(folder)\" (or keep skills in a folder you or root own)")
        }
        return nil
    }

    /// The problem with skill folder `path` or any folder above it, if any (for a folder report).
    public static func folderChainProblem(_ path: String, euid: uid_t = PathSafety.effectiveUser, memo: Memo? = nil) -> SkillLoadError? {
        guard let real = realPath(of: path) else {
            return SkillLoadError(.loadFailed, "cannot resolve folder \"\(path)\": \(errnoText(errno))")
        }
        var st = stat()
        guard lstat(real, &st) == 0 else { return SkillLoadError(.loadFailed, "cannot check folder \"\(real)\": \(errnoText(errno))") }
        if let p = folderProblem(st, folder: real, euid: euid) { return p }
        return real == "/" ? nil : foldersProblem(above: real, euid: euid, memo: memo)
    }

    // MARK: - Internals

    /// The folder that holds `path` ("/" for "/x").
    static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The path `path` resolves to, without symlinks (realpath(3)).
    static func realPath(of path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    static func writers(_ mode: mode_t) -> String {
        mode & 0o002 != 0 ? "everyone (world-writable)" : "its group (group-writable)"
    }

    static func octal(_ mode: mode_t) -> String { String(mode, radix: 8) }
}
