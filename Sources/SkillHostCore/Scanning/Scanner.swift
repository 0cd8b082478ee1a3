import FoundationEssentials
import Glibc
import SkillLoading

/// A skill file the scanner accepted.
public struct ScannedSkill: Sendable {
    public var summary: SkillSummary
    /// The full manifest as JSON text (the shape `list --json` prints per skill).
    public var manifestText: [UInt8]
    public var file: SkillFile
}

/// The identity of a skill file: where it is and which exact build it is.
public struct SkillFile: Sendable, Equatable {
    /// Absolute path.
    public var path: String
    public var inode: UInt64
    public var size: Int64
    public var mtimeNs: Int64
    /// SHA-256 of the file's bytes, lowercase hex.
    public var sha256: String?
    /// The device the file is on (0: not recorded).
    public var device: UInt64 = 0
}

/// The state of one skill folder.
public struct FolderReport: Sendable {
    public var path: String
    public var exists: Bool
    /// Why the folder's files were not used, if they were not.
    public var problem: String?
    public var hint: String?
}

/// A valid skill file that is not registered because another file provides a newer version of the
/// same skill id. Not an error: keeping the old file allows a rollback (remove the newer one).
public struct ShadowedSkill: Sendable {
    public var skill: ScannedSkill
    /// The file that wins, and its version.
    public var byPath: String
    public var byVersion: SemanticVersion

    public var json: JSON {
        .object(JSONObject([("id", .string(skill.summary.id)), ("version", .string(skill.summary.version.description)),
                            ("path", .string(skill.file.path)), ("shadowedBy", .string(byPath)),
                            ("shadowedByVersion", .string(byVersion.description))]))
    }
}

/// What one scan found.
public struct ScanReport: Sendable {
    public var skills: [ScannedSkill] = []
    public var refusals: [Refusal] = []
    /// Older versions of registered skills, in scan order.
    public var shadowed: [ShadowedSkill] = []

    /// The older versions of skill `id` that its registered file shadows.
    public func shadowed(by id: String) -> [ShadowedSkill] { shadowed.filter { $0.skill.summary.id == id } }
    public var folders: [FolderReport] = []
    /// Files answered from the cache vs. read by a scan process, for `doctor` and benchmarks.
    public var cacheHits = 0
    public var scanned = 0
}

/// Finds skill files in the skill folders, checks who may change them, reads their manifests in a
/// child process (see `ManifestReader`), and remembers the answers in a `ScanCache`.
///
/// Files are not hashed here: SHA-256 of large Swift skills costs far more than loading them, so a
/// file's hash is computed when first needed (`inspect`, `install`, `health`) and kept in the cache
/// for as long as the file is unchanged (see `SkillHost.recordHashes`).
///
/// Candidates are the non-hidden entries whose name ends in `.so` (symlinks are followed). Other files
/// (a README, say) are ignored. Folders are scanned in order and files by name. When several files
/// declare the same skill id, the highest semantic version wins and the older ones are reported as
/// shadowed; a file with the same id and the same version as the winner is refused as a duplicate
/// (the first in scan order wins) — never a silent overwrite. Call from one thread; it blocks while
/// scan processes run.
public struct Scanner {
    public var directories: [String]
    /// The scan program, `skillhost-scan`.
    public var scanPath: String
    public var cachePath: String
    public var deadline: Duration

    public init(directories: [String], scanPath: String, cachePath: String, deadline: Duration) {
        self.directories = directories
        self.scanPath = scanPath
        self.cachePath = cachePath
        self.deadline = deadline
    }

    /// A string that changes whenever the answers for an unchanged file could change.
    static var hostSignature: String {
        "abi \(ManifestValidator.hostABIMajor).\(ManifestValidator.hostABIMinor) \(HostToolchain.name) format \(ScanCache.formatVersion)"
    }

    public func scan() -> ScanReport {
        var report = ScanReport()
        var cache = ScanCache(path: cachePath, hostSignature: Self.hostSignature)
        var ordered: [(path: String, key: ScanCache.Key)] = []
        var preRefused: [String: Refusal] = [:]
        var devices: [String: UInt64] = [:]
        // Each file is opened once and checked through its descriptor (the file, and every folder
        // above where it really is); a scan process loads that very descriptor. Each file goes to the
        // scan process as soon as it is checked; the process was started with the first file
        // (`ManifestReader.Session`), so its start overlaps the host's opens and checks.
        var keys: [String: ScanCache.Key] = [:]
        let memo = PathSafety.Memo()
        let texts = DeclaredTexts()
        // Each answer is validated as it arrives, while the scan process goes on loading the next files.
        let session = ManifestReader.Session(ManifestReader(scanPath: scanPath, deadline: deadline)) { p, answer in
            let outcome: Result<SkillManifest, Refusal>
            switch answer {
            case .report(let j): outcome = ManifestValidator.validate(report: j, file: p, hostToolchain: HostToolchain.name, texts: texts)
            case .refused(let r): outcome = .failure(r)
            }
            // Every outcome is cached, timeouts too: otherwise one hanging skill would cost every
            // command the full deadline. Changing the file (or `touch`) makes it be read again.
            cache.store(p, key: keys[p]!, outcome: outcome)
        }

        for dir in directories {
            let abs = PathText.absolute(dir)
            var st = stat()
            guard stat(abs, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                report.folders.append(FolderReport(path: abs, exists: false,
                                                   problem: "skill folder \"\(dir)\" does not exist",
                                                   hint: "create it (mkdir -p \(dir)), or point --skills-dir / SKILLHOST_PATH at the folder that holds your skills"))
                continue
            }
            // Whoever can change the folder (or one above it) can change what it holds, symlinks included.
            let folderProblem = PathSafety.folderChainProblem(abs, memo: memo)
            report.folders.append(FolderReport(path: abs, exists: true, problem: folderProblem?.message, hint: folderProblem?.hint))
            let (names, badNames) = Self.candidates(in: abs)
            cache.reserve(names.count)
            // The folder's plain files are opened through it: where each one really is follows from
            // where the folder is (read once), not from a readlink per file.
            let opened = folderProblem == nil ? OpenedFolder.open(abs) : nil
            for shown in badNames {
                report.refusals.append(Refusal(file: abs + "/" + shown, reason: .badFileName,
                                               message: "\"\(abs)/\(shown)\" was not loaded: its name is not valid UTF-8 (shown with \\x escapes), and skillhost names every file it runs in text and JSON",
                                               hint: "rename it to a UTF-8 name (for example with `mv` and a shell glob)"))
            }
            for name in names {
                let path = abs + "/" + name
                // lstat first: a plain file needs no second look; a link is followed with stat.
                var fst = stat()
                guard lstat(path, &fst) == 0 else {
                    report.refusals.append(Self.unreachable(path, errno: errno))
                    continue
                }
                let isLink = (fst.st_mode & S_IFMT) == S_IFLNK
                if isLink && stat(path, &fst) != 0 {
                    report.refusals.append(Self.unreachable(path, errno: errno))
                    continue
                }
                guard (fst.st_mode & S_IFMT) == S_IFREG else {
                    report.refusals.append(Refusal(file: path, reason: .notASkill,
                                                   message: "\"\(path)\" is \((fst.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file"), not a shared library",
                                                   hint: "skill folders hold only skill files; move it elsewhere, or rename it without the .so suffix"))
                    continue
                }
                if let p = folderProblem {
                    ordered.append((path, Self.key(fst)))
                    preRefused[path] = Refusal(file: path, reason: .insecurePermissions,
                                               message: "\"\(path)\" was not loaded: \(p.message)", hint: p.hint)
                    continue
                }
                // A plain file (not a symlink) already in the cache: its folder is the skill folder,
                // checked above, so its lstat alone tells whether it may still be listed. Nothing is
                // loaded here; whatever loads it later opens and checks it again (`openChecked`).
                if !isLink {
                    let key = Self.key(fst)
                    if let p = PathSafety.fileProblem(fst, path: path) {
                        ordered.append((path, key))
                        preRefused[path] = Refusal(file: path, p)
                        continue
                    }
                    if cache.lookup(path, key) != nil {
                        ordered.append((path, key))
                        devices[path] = UInt64(fst.st_dev)
                        report.cacheHits += 1
                        continue
                    }
                }
                // A file to read, or a symlink: opened once, and the descriptor checked with every
                // folder above where it really is; the scan process loads that very descriptor. A
                // plain file is opened in the opened folder without following links (one that became
                // a link since its lstat is opened by its path, which follows it).
                let file: CheckedSkillFile
                let outcome = isLink ? nil : opened.flatMap { CheckedSkillFile.open(name, in: $0, path: path, memo: memo) }
                switch outcome ?? CheckedSkillFile.open(path, memo: memo) {
                case .failure(let e):
                    ordered.append((path, Self.key(fst)))
                    preRefused[path] = Refusal(file: path, e)
                    continue
                case .success(let f): file = f
                }
                // The key is what was opened, not what the path named a moment before.
                let key = Self.key(file.status)
                ordered.append((path, key))
                devices[path] = file.identity.device
                if cache.lookup(path, key) != nil {
                    report.cacheHits += 1
                } else if let e = ELFCheck.check(file) {
                    cache.store(path, key: key, outcome: .failure(Refusal(file: path, e)))
                } else {
                    keys[path] = key
                    report.scanned += 1
                    session.add(ManifestReader.Item(path: path, file: file))
                }
            }
        }
        session.finish()

        var valid: [ScannedSkill] = []
        for (p, key) in ordered {
            if let r = preRefused[p] { report.refusals.append(r); continue }
            guard let entry = cache.lookup(p, key) else { continue }
            switch entry.outcome {
            case .failure(let r): report.refusals.append(r)
            case .success(let stored):
                valid.append(ScannedSkill(summary: stored.summary, manifestText: stored.text,
                                          file: SkillFile(path: p, inode: key.inode, size: key.size,
                                                          mtimeNs: key.mtimeNs, sha256: entry.sha256, device: devices[p] ?? 0)))
            }
        }
        Self.resolveVersions(valid, into: &report)
        cache.retain(only: Set(ordered.map(\.path)))
        if let problem = cache.save() { HostLog.warning(problem) }
        return report
    }

    /// One registered file per skill id: the highest version (the first in scan order among equals).
    /// The others become `shadowed` (older) or `duplicate_id` refusals (same version).
    static func resolveVersions(_ valid: [ScannedSkill], into report: inout ScanReport) {
        // By position in `valid`: a copy of a ScannedSkill per id would cost its strings' and
        // manifest's reference counts, for every skill of every scan.
        var winnerOf: [String: Int] = [:]
        winnerOf.reserveCapacity(valid.count)
        for (k, s) in valid.enumerated() where winnerOf[s.summary.id].map({ s.summary.version > valid[$0].summary.version }) ?? true {
            winnerOf[s.summary.id] = k
        }
        report.skills.reserveCapacity(winnerOf.count)
        for s in valid {
            let w = valid[winnerOf[s.summary.id]!]
            if w.file.path == s.file.path {
                report.skills.append(s)
            } else if s.summary.version < w.summary.version {
                report.shadowed.append(ShadowedSkill(skill: s, byPath: w.file.path, byVersion: w.summary.version))
            } else {
                report.refusals.append(Refusal(file: s.file.path, reason: .duplicateID,
                                               message: "\"\(s.file.path)\" declares skill id \"\(s.summary.id)\" version \(s.summary.version), which \"\(w.file.path)\" already provides in the same version; the first file wins",
                                               hint: "remove one of the two files, give the newer build a higher version, or give one skill another id"))
            }
        }
    }

    /// The cache key of what `st` describes (a stat of the path, or the fstat of the opened file).
    static func key(_ st: stat) -> ScanCache.Key {
        ScanCache.Key(inode: UInt64(st.st_ino), size: Int64(st.st_size),
                      mtimeNs: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                      ctimeNs: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec),
                      mode: UInt32(st.st_mode))
    }

    /// The non-hidden entries of `dir` whose names end in ".so", by name, read as raw bytes: names
    /// that are valid UTF-8, and — shown with `\xNN` escapes — the ones that are not (never skipped
    /// without a word).
    static func candidates(in dir: String) -> (names: [String], badNames: [String]) {
        guard let d = opendir(dir) else { return ([], []) }
        defer { closedir(d) }
        var names: [String] = [], bad: [String] = []
        while let e = readdir(d) {
            let raw = withUnsafeBytes(of: e.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard raw.first != 0x2e, raw.count > 3, raw.suffix(3) == [0x2e, 0x73, 0x6f] else { continue }
            if let name = String(validating: raw, as: UTF8.self) {
                names.append(name)
            } else {
                bad.append(raw.map { $0 >= 0x20 && $0 < 0x7f && $0 != 0x5c ? String(UnicodeScalar($0)) : "\\x" + (($0 < 16 ? "0" : "") + String($0, radix: 16)) }.joined())
            }
        }
        return (names.sorted(), bad.sorted())
    }

    /// The refusal of a candidate that `stat` cannot reach: a dangling link, a loop of links, or
    /// another error.
    static func unreachable(_ path: String, errno code: Int32) -> Refusal {
        var lst = stat()
        let isLink = lstat(path, &lst) == 0 && (lst.st_mode & S_IFMT) == S_IFLNK
        var target = [CChar](repeating: 0, count: 4097)
        let n = isLink ? readlink(path, &target, 4096) : -1
        let to = n > 0 ? " to \"" + String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) + "\"" : ""
        switch code {
        case ENOENT where isLink:
            return Refusal(file: path, reason: .brokenLink, message: "\"\(path)\" is a symbolic link\(to) whose target does not exist",
                           hint: "point the link at the skill file (ln -sf TARGET \"\(path)\"), or remove it")
        case ELOOP:
            return Refusal(file: path, reason: .brokenLink, message: "\"\(path)\" is a symbolic link\(to) in a loop of links (ELOOP)",
                           hint: "point the link at the skill file itself, or remove it")
        default:
            return Refusal(file: path, reason: .loadFailed, message: "\"\(path)\" cannot be examined: \(String(cString: strerror(code)))",
                           hint: "check the file and the folders above it")
        }
    }
}

/// The toolchain this host was built with, as "swift-MAJOR.MINOR" (the same format SkillKit records).
enum HostToolchain {
    static let name: String = {
        #if compiler(>=7.0)
        return "swift-7.0"
        #elseif compiler(>=6.5)
        return "swift-6.5"
        #elseif compiler(>=6.4)
        return "swift-6.4"
        #elseif compiler(>=6.3)
        return "swift-6.3"
        #elseif compiler(>=6.2)
        return "swift-6.2"
        #elseif compiler(>=6.1)
        return "swift-6.1"
        #else
        return "swift-6.0"
        #endif
    }()
}

/// Warnings the host writes to stderr (never stdout: it may carry a protocol).
enum HostLog {
    static func warning(_ message: String) {
        writeStandardError("skillhost: warning: \(TerminalText.escaped(message))\n")
    }
}
