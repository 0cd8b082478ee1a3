import Glibc

/// A skill file opened once and checked through its descriptor: what the loader loads is exactly
/// what was checked, whatever happens to the path afterwards.
///
/// `open` (the host) opens the path, then checks the descriptor (`fstat`) and every folder above the
/// file's real location (`/proc/self/fd/N`), see `PathSafety`. `adopt` (the scan child and the worker)
/// takes a descriptor the host handed over and checks that it is still the file the scan recorded.
///
/// Owns its descriptor: it is closed on `deinit`, unless an image was loaded from it (`SkillImage`
/// then keeps it open for the life of the process: glibc matches a later `dlopen` of the same
/// `/proc/self/fd/N` name against images already loaded, so the number must never be reused).
/// Not thread-safe.
public final class CheckedSkillFile {
    /// The path as the caller named it (for messages).
    public let path: String
    /// Where the descriptor's file is, as the kernel resolved it (symlinks followed).
    public let realPath: String
    public let identity: DescriptorIdentity
    /// The descriptor's `fstat` when it was opened or adopted.
    public let status: stat
    /// The descriptor (close-on-exec). -1 once closed.
    public private(set) var fd: Int32
    /// Set when an image was loaded from `fd`: it is never closed then.
    var keptForever = false

    init(path: String, realPath: String, status: stat, fd: Int32) {
        (self.path, self.realPath, self.status, self.fd) = (path, realPath, status, fd)
        identity = DescriptorIdentity(status)
    }

    deinit { close() }

    /// Closes the descriptor now, unless an image was loaded from it.
    public func close() {
        if fd >= 0 && !keptForever { _ = Glibc.close(fd) }
        if !keptForever { fd = -1 }
    }

    /// The name the dynamic loader opens: `/proc/self/fd/N`.
    public var procPath: String { "/proc/self/fd/\(fd)" }

    // MARK: - Opening (the host)

    /// Opens `path` (following symlinks) and checks the file and every folder above its real
    /// location. A refusal names the file (and what it resolves to, when that differs) and the exact
    /// file or folder at fault, with the command that fixes it. `expected`: the identity the scan
    /// recorded, if this is a later load of a scanned file.
    public static func open(_ path: String, expected: DescriptorIdentity? = nil, euid: uid_t = PathSafety.effectiveUser,
                            memo: PathSafety.Memo? = nil) -> Result<CheckedSkillFile, SkillLoadError> {
        // O_NONBLOCK: opening a FIFO named *.so must not hang the scan; fstat rejects it below.
        let fd = Glibc.open(path, openFlags)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT, expected != nil {
                return .failure(SkillLoadError(.changedSinceScan, "\"\(path)\" disappeared since it was scanned",
                                               hint: "run the command again; the folder will be rescanned"))
            }
            return .failure(SkillLoadError(.loadFailed, "cannot open \"\(path)\": \(errnoText(code))",
                                           hint: "check that the file exists and is readable by you"))
        }
        return checkOpened(fd, path: path, realPath: nil, expected: expected, euid: euid, memo: memo)
    }

    /// Opens entry `name` of `folder` without following a symbolic link, and checks it as `open`
    /// does; `path` (the folder's path as the caller named it, "/", `name`) names it in messages. The
    /// file is where the folder really is: `folder.realPath` + "/" + `name`, with no `readlink` of
    /// the descriptor per file (a cold scan opens every file of its folders). Nil when the entry is a
    /// symbolic link (now): the caller opens `path` with `open`, which follows it.
    public static func open(_ name: String, in folder: OpenedFolder, path: String, euid: uid_t = PathSafety.effectiveUser,
                            memo: PathSafety.Memo? = nil) -> Result<CheckedSkillFile, SkillLoadError>? {
        let fd = openat(folder.fd, name, openFlags | O_NOFOLLOW)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { return nil }
            return .failure(SkillLoadError(.loadFailed, "cannot open \"\(path)\": \(errnoText(code))",
                                           hint: "check that the file exists and is readable by you"))
        }
        return checkOpened(fd, path: path, realPath: folder.realPath == "/" ? "/" + name : folder.realPath + "/" + name,
                           expected: nil, euid: euid, memo: memo)
    }

    /// How skill files are opened: O_NONBLOCK, so that opening a FIFO named *.so does not hang the
    /// scan (fstat rejects it).
    private static let openFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK

    /// The checks of `open` on descriptor `fd` (owned from here on) opened for `path`; `realPath`:
    /// where it is, when the caller knows (else read from /proc/self/fd/N).
    private static func checkOpened(_ fd: Int32, path: String, realPath known: String?, expected: DescriptorIdentity?, euid: uid_t,
                                    memo: PathSafety.Memo?) -> Result<CheckedSkillFile, SkillLoadError> {
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let why = errnoText(errno)
            _ = Glibc.close(fd)
            return .failure(SkillLoadError(.loadFailed, "cannot check \"\(path)\": \(why)"))
        }
        guard let real = known ?? descriptorPath(fd) else {
            let why = errnoText(errno)
            _ = Glibc.close(fd)
            return .failure(SkillLoadError(.loadFailed, "cannot tell where \"\(path)\" is: /proc/self/fd/\(fd): \(why)",
                                           hint: "skillhost needs /proc mounted to check the folders above a skill"))
        }
        // From here on `checked` owns fd (closed on failure by deinit).
        let checked = CheckedSkillFile(path: path, realPath: real, status: st, fd: fd)
        if let expected, !expected.matches(checked.identity) {
            return .failure(SkillLoadError(.changedSinceScan,
                                           "\"\(path)\" changed since it was scanned (\(expected.differences(to: checked.identity)))",
                                           hint: "run the command again; the folder will be rescanned"))
        }
        let shown = real == path ? "\"\(path)\"" : "\"\(path)\" (which resolves to \"\(real)\")"
        if let p = PathSafety.fileProblem(st, path: real, euid: euid)
                    ?? PathSafety.foldersProblem(above: real, euid: euid, memo: memo) {
            // The file's own problem already names it; a folder's names the folder.
            let message = p.message.hasPrefix("file \"\(real)\"") && real == path ? p.message : "\(shown) was not loaded: \(p.message)"
            return .failure(SkillLoadError(p.reason, message, hint: p.hint))
        }
        return .success(checked)
    }

    // MARK: - Adopting (the scan child, the worker)

    /// Takes descriptor `fd` that the host opened and checked, and checks it again here: a regular
    /// file, not writable by group or others, and the very file the scan recorded (`expected`). The
    /// owner and the folders were checked by the host, which opened the file through them (a sandboxed
    /// child may sit in a user namespace where owners read differently).
    public static func adopt(fd: Int32, path: String, expected: DescriptorIdentity) -> Result<CheckedSkillFile, SkillLoadError> {
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            return .failure(SkillLoadError(.loadFailed, "descriptor \(fd) for \"\(path)\" is not open (\(errnoText(errno))); skillhost-worker is started by skillhost, not by hand"))
        }
        // (The folders were checked by the host; `realPath` here is only the name it gave.)
        let file = CheckedSkillFile(path: path, realPath: path, status: st, fd: fd)
        let identity = file.identity
        if let p = PathSafety.fileProblem(st, path: path, euid: nil) { return .failure(p) }
        guard expected.matches(identity) else {
            return .failure(SkillLoadError(.changedSinceScan,
                                           "\"\(path)\" is not the file the scan recorded (\(expected.differences(to: identity)))",
                                           hint: "run the command again; the folder will be rescanned"))
        }
        return .success(file)
    }

    /// Reads up to `count` bytes at `offset` of the file (pread: the descriptor's offset is untouched).
    public func read(count: Int, at offset: Int64 = 0) -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, count - got, off_t(offset) + off_t(got)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            got += n
        }
        return Array(buf[0..<got])
    }

    /// Where descriptor `fd` points (readlink of /proc/self/fd/N); nil if unknown or deleted.
    static func descriptorPath(_ fd: Int32) -> String? {
        // A heap buffer: withUnsafeTemporaryAllocation would ask getrlimit twice per call whether the
        // stack has room (one per file of a scan).
        let capacity = Int(PATH_MAX) + 1
        let buf = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { buf.deallocate() }
        let n = readlink("/proc/self/fd/\(fd)", buf, capacity - 1)
        guard n > 0 else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(start: buf, count: n), as: UTF8.self)
        guard text.utf8.first == UInt8(ascii: "/"), !text.hasSuffix(" (deleted)") else {
            errno = ENOENT
            return nil
        }
        return text
    }
}

/// A skill folder opened once for a scan, and where it really is (symlinks resolved, read from its
/// descriptor): the files of the folder are opened through it (`CheckedSkillFile.open(_:in:path:)`).
/// Closes its descriptor on `deinit`. Not thread-safe.
public final class OpenedFolder {
    public let fd: Int32
    /// The folder's real location (readlink of /proc/self/fd/N).
    public let realPath: String

    private init(fd: Int32, realPath: String) { (self.fd, self.realPath) = (fd, realPath) }

    deinit { _ = Glibc.close(fd) }

    /// Opens folder `path`; nil when it cannot be opened or placed (its files are then opened by path).
    public static func open(_ path: String) -> OpenedFolder? {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard let real = CheckedSkillFile.descriptorPath(fd) else {
            _ = Glibc.close(fd)
            return nil
        }
        return OpenedFolder(fd: fd, realPath: real)
    }
}
