import FoundationEssentials
import Glibc

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
}

/// The state of one skill folder.
public struct FolderReport: Sendable {
    public var path: String
    public var exists: Bool
    /// Why the folder's files were not used, if they were not.
    public var problem: String?
    public var hint: String?
}

/// What one scan found.
public struct ScanReport: Sendable {
    public var skills: [ScannedSkill] = []
    public var refusals: [Refusal] = []
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
/// (a README, say) are ignored. Folders are scanned in order and files by name, so when two files
/// declare the same id the first one wins and the other is refused as a duplicate — never a silent
/// overwrite. Call from one thread; it blocks while scan processes run.
public struct Scanner {
    public var directories: [String]
    public var workerPath: String
    public var cachePath: String
    public var deadline: Duration

    public init(directories: [String], workerPath: String, cachePath: String, deadline: Duration) {
        self.directories = directories
        self.workerPath = workerPath
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
        var toRead: [(path: String, key: ScanCache.Key)] = []
        var preRefused: [String: Refusal] = [:]

        for dir in directories {
            let abs = Self.absolute(dir)
            var st = stat()
            guard stat(abs, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                report.folders.append(FolderReport(path: abs, exists: false,
                                                   problem: "skill folder \"\(dir)\" does not exist",
                                                   hint: "create it (mkdir -p \(dir)), or point --skills-dir / SKILLHOST_PATH at the folder that holds your skills"))
                continue
            }
            let folderProblem = Self.insecurity(of: st, what: "folder", path: abs)
            report.folders.append(FolderReport(path: abs, exists: true, problem: folderProblem?.message, hint: folderProblem?.hint))
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: abs)) ?? [])
                .filter { !$0.hasPrefix(".") && $0.hasSuffix(".so") }.sorted()
            for name in names {
                let path = abs + "/" + name
                var fst = stat()
                guard stat(path, &fst) == 0, (fst.st_mode & S_IFMT) == S_IFREG else { continue }
                let key = ScanCache.Key(inode: UInt64(fst.st_ino), size: Int64(fst.st_size),
                                        mtimeNs: Int64(fst.st_mtim.tv_sec) * 1_000_000_000 + Int64(fst.st_mtim.tv_nsec))
                ordered.append((path, key))
                if let p = folderProblem {
                    preRefused[path] = Refusal(file: path, reason: .insecurePermissions,
                                               message: "\"\(path)\" was not loaded: its \(p.message)", hint: p.hint)
                } else if let p = Self.insecurity(of: fst, what: "file", path: path) {
                    preRefused[path] = Refusal(file: path, reason: .insecurePermissions, message: p.message, hint: p.hint)
                } else if cache.lookup(path, key) == nil {
                    if let r = ELFCheck.check(path: path, size: Int(fst.st_size)) {
                        cache.store(path, key: key, outcome: .failure(r))
                    } else {
                        toRead.append((path, key))
                    }
                } else {
                    report.cacheHits += 1
                }
            }
        }

        if !toRead.isEmpty {
            report.scanned = toRead.count
            let keys = Dictionary(toRead.map { ($0.path, $0.key) }, uniquingKeysWith: { a, _ in a })
            // Each answer is validated as it arrives, while the scan process goes on loading the next file.
            ManifestReader(workerPath: workerPath, deadline: deadline).read(toRead.map(\.path)) { p, answer in
                let outcome: Result<SkillManifest, Refusal>
                switch answer {
                case .report(let j): outcome = ManifestValidator.validate(report: j, file: p, hostToolchain: HostToolchain.name)
                case .refused(let r): outcome = .failure(r)
                }
                // Every outcome is cached, timeouts too: otherwise one hanging skill would cost every
                // command the full deadline. Changing the file (or `touch`) makes it be read again.
                cache.store(p, key: keys[p]!, outcome: outcome)
            }
        }

        var seenIDs: [String: String] = [:]
        for (p, key) in ordered {
            if let r = preRefused[p] { report.refusals.append(r); continue }
            guard let entry = cache.lookup(p, key) else { continue }
            switch entry.outcome {
            case .failure(let r): report.refusals.append(r)
            case .success(let stored):
                let m = stored.summary
                if let first = seenIDs[m.id] {
                    report.refusals.append(Refusal(file: p, reason: .duplicateID,
                                                   message: "\"\(p)\" declares skill id \"\(m.id)\" (version \(m.version)), which \"\(first)\" already provides; the first file wins",
                                                   hint: "remove one of the two files, or give one skill another id"))
                    continue
                }
                seenIDs[m.id] = p
                report.skills.append(ScannedSkill(summary: m, manifestText: stored.text,
                                                  file: SkillFile(path: p, inode: key.inode, size: key.size,
                                                                  mtimeNs: key.mtimeNs, sha256: entry.sha256)))
            }
        }
        cache.retain(only: Set(ordered.map(\.path)))
        if let problem = cache.save() { HostLog.warning(problem) }
        return report
    }

    /// Why a file or folder must not be trusted, if it must not: writable by group or others, or
    /// owned by someone who is neither the current user nor root.
    static let currentUser = getuid()

    static func insecurity(of st: stat, what: String, path: String) -> (message: String, hint: String)? {
        let mode = st.st_mode & 0o7777
        if mode & 0o022 != 0 {
            let who = mode & 0o002 != 0 ? "everyone (world-writable)" : "its group (group-writable)"
            return ("\(what) \"\(path)\" can be changed by \(who), mode \(String(mode, radix: 8)); anyone who can write it could make skillhost run their code",
                    "chmod go-w \"\(path)\"")
        }
        let me = currentUser
        if st.st_uid != me && st.st_uid != 0 {
            return ("\(what) \"\(path)\" is owned by uid \(st.st_uid), not by you (uid \(me)) or root; skillhost only runs code its user or root owns",
                    "chown \(me) \"\(path)\" (or install it with `skillhost install`)")
        }
        return nil
    }

    /// `p` as an absolute, standardized path (relative to the current directory).
    static func absolute(_ p: String) -> String { PathText.absolute(p) }
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
        writeStandardError("skillhost: warning: \(message)\n")
    }
}
