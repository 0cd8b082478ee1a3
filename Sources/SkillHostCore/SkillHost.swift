import Dispatch
import FoundationEssentials
import Glibc
import SkillLoading
import SkillWire
import Synchronization

/// Options every surface passes when it opens the host.
public struct HostOptions: Sendable {
    /// `--skills-dir`; nil means the search path (`HostPaths.skillSearchPath`).
    public var skillsDir: String?
    /// `--config`; nil means `$SKILLHOST_CONFIG`, else the XDG config file.
    public var configPath: String?
    /// `--scan-timeout`, overriding the config.
    public var scanTimeoutMs: Int?
    /// An IANA time zone overriding the config's `timeZone` (`ask --time-zone`, a replayed trace's zone).
    public var timeZone: String?
    public var environment: [String: String]

    public init(skillsDir: String? = nil, configPath: String? = nil, scanTimeoutMs: Int? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.skillsDir = skillsDir
        self.configPath = configPath
        self.scanTimeoutMs = scanTimeoutMs
        self.environment = environment
    }
}

/// What a rescan changed, by skill id.
public struct RegistryChange: Sendable, Equatable, CustomStringConvertible {
    public var added: [String] = []
    public var removed: [String] = []
    /// Same id, another file (a new version, or the same version rebuilt).
    public var replaced: [String] = []

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && replaced.isEmpty }

    init(old: SkillRegistry, new: SkillRegistry) {
        for s in new.skills {
            guard let o = old.skill(id: s.id) else { added.append(s.id); continue }
            if FileIdentity(o.file) != FileIdentity(s.file) || o.summary != s.summary { replaced.append(s.id) }
        }
        removed = old.skills.map(\.id).filter { new.skill(id: $0) == nil }
    }

    public var description: String {
        isEmpty ? "no change" : [("added", added), ("replaced", replaced), ("removed", removed)]
            .filter { !$0.1.isEmpty }.map { "\($0.0) \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
    }
}

/// What `SkillHost.install` did.
public struct Installation: Sendable {
    /// Where the file now is.
    public var path: String
    public var manifest: SkillManifest
    /// The older installed version of the same skill id that the new file now shadows, if any.
    public var shadows: (path: String, version: SemanticVersion)?
}

/// The host core, as the surfaces see it: scan the skill folders, then list, call, probe, inspect
/// and install skills. Opening it scans (answering from the scan cache for unchanged files).
public final class SkillHost: Sendable {
    public let paths: HostPaths
    public let config: HostConfig
    /// The skill search path, every folder on it (see `HostPaths.skillSearchPath`).
    public let searchPath: [SkillFolder]
    /// The folders scanned: those of the search path the user named, and the default ones that exist.
    public let directories: [String]
    /// The last scan of the skill folders (see `rescan`).
    public var scan: ScanReport { lastScan.withLock { $0 } }
    private let lastScan: Mutex<ScanReport>
    /// The skills calls go to now: replaced whole by `rescan`, so a reader sees the old or the new
    /// registry, never half of one.
    public var registry: SkillRegistry { invoker.registry }
    public let invoker: Invoker
    let workerPath: String
    /// The scan program (`skillhost-scan`): $SKILLHOST_SCAN, else the one next to the worker.
    let scanPath: String
    /// The IANA name of the time zone calls run in (see `HostTimeZone`).
    public let timeZone: String
    /// The deadline for reading one manifest (`--scan-timeout`, else the config).
    let scanTimeoutMs: Int

    public init(_ options: HostOptions) throws(SkillError) {
        signal(SIGPIPE, SIG_IGN)
        HostHardening.apply()
        paths = HostPaths(environment: options.environment)
        config = try HostConfig.load(explicit: options.configPath, paths: paths, environment: options.environment)
        timeZone = HostTimeZone.resolve(configured: options.timeZone ?? config.timeZone, environment: options.environment)
        searchPath = paths.skillSearchPath(explicit: options.skillsDir, environment: options.environment)
        directories = searchPath.filter { $0.named || $0.exists }.map(\.path)
        workerPath = options.environment["SKILLHOST_WORKER"] ?? executableDirectory() + "/skillhost-worker"
        scanPath = options.environment["SKILLHOST_SCAN"] ?? PathText.directory(of: workerPath) + "/skillhost-scan"
        scanTimeoutMs = options.scanTimeoutMs ?? config.scanTimeoutMs
        let report = Self.scanFolders(directories, scanPath: scanPath, stateDir: paths.stateDir, timeoutMs: scanTimeoutMs)
        lastScan = Mutex(report)
        invoker = Invoker(registry: Self.registry(of: report, trusted: config.trusted), config: config, paths: paths, timeZone: timeZone,
                          environment: options.environment, workerPath: workerPath)
        if config.workers.eager { startWorkers() }
    }

    private static func scanFolders(_ directories: [String], scanPath: String, stateDir: String, timeoutMs: Int) -> ScanReport {
        Scanner(directories: directories, scanPath: scanPath, cachePath: stateDir + "/scan-cache",
                deadline: .milliseconds(timeoutMs)).scan()
    }

    /// Isolation by default: only the host's owner (the config) can let a skill into this process.
    private static func registry(of report: ScanReport, trusted: Set<String>) -> SkillRegistry {
        SkillRegistry(report.skills.map {
            RegisteredSkill(summary: $0.summary, manifestText: $0.manifestText, file: $0.file,
                            isolation: trusted.contains($0.summary.id) ? .inProcess : .process)
        })
    }

    // MARK: - Changes while running

    /// Scans the skill folders again (the scan cache answers for unchanged files) and swaps in the new
    /// registry atomically. Calls in flight finish on the file they started with; a replaced or
    /// removed file's worker is stopped after their deadline (see `Invoker.swap`).
    @discardableResult
    public func rescan() -> RegistryChange {
        let report = Self.scanFolders(directories, scanPath: scanPath, stateDir: paths.stateDir, timeoutMs: scanTimeoutMs)
        let new = Self.registry(of: report, trusted: config.trusted)
        let change = rescanLock.withLock { _ -> RegistryChange in
            let old = invoker.registry
            lastScan.withLock { $0 = report }
            invoker.swap(to: new)
            return RegistryChange(old: old, new: new)
        }
        if config.workers.eager && !change.isEmpty { startWorkers() }
        return change
    }
    private let rescanLock = Mutex(())
    /// Hashes computed by `fileHashes` for files the scan had none for, by file identity, so a
    /// long-running host (`skillhost mcp`) hashes each file once, not on every agent request.
    private let computedHashes = Mutex<[String: String]>([:])

    /// Watches the skill folders (inotify) and calls `rescan` when `.so` files are added, replaced or
    /// removed — only once a file is complete (see `SkillFolderWatcher`) — then `changed` with what
    /// changed, when anything did. False when the folders cannot be watched.
    public func watch(_ changed: @escaping @Sendable (RegistryChange) -> Void) -> Bool {
        guard let w = SkillFolderWatcher(directories: directories.map(PathText.absolute), changed: { [self] in
            let change = rescan()
            if !change.isEmpty { changed(change) }
        }) else { return false }
        return w.start()
    }

    /// Starts the worker of every skill that runs in one, in parallel, without waiting for them
    /// (`"workers": {"eager": true}`); each is ready, or has failed, by the time its first call comes.
    func startWorkers() {
        let deadline = DispatchTime.now() + .milliseconds(config.invokeTimeoutMs)
        for skill in registry.skills where skill.isolation == .process {
            guard case .success(let r) = invoker.runtime(for: skill), let w = r as? WorkerRuntime else { continue }
            Task { await w.prestart(deadline: deadline) }
        }
    }

    // MARK: - Calls

    /// Runs one call (see `Invoker.invoke`): the task suspends while the skill works. Runs on the
    /// caller's executor (`nonisolated(nonsending)`, as every step below it).
    nonisolated(nonsending) public func invoke(_ request: InvokeRequest) async -> Result<InvokeSuccess, SkillError> {
        await invoker.invoke(request)
    }

    /// `invoke` for a synchronous caller at the edge (a CLI command): blocks this thread until the
    /// call ends. Never from async code.
    public func invokeAndWait(_ request: InvokeRequest) -> Result<InvokeSuccess, SkillError> {
        runBlocking { [self] in await invoker.invoke(request) }
    }

    /// Stops the worker processes this host started (a clean `shutdown`, then SIGKILL for any that
    /// linger) and reaps them. Calls made afterwards start new workers. (When the process exits, the
    /// same happens on its own; see `LiveWorkers`.)
    public func shutdown() { invoker.shutdown() }

    // MARK: - Health

    /// The health of every registered skill as recorded (state, reason, counters, last probe);
    /// `ok` for a skill never seen or whose file changed since.
    public func lastHealth() -> [String: SkillHealth] { invoker.health.all() }

    /// Problems with the recorded health itself (for `doctor`): `health.json` cannot be read or
    /// written (calls are then refused), or a damaged one was kept aside.
    public func healthProblems() -> [(message: String, hint: String)] { invoker.health.problems() }

    /// Probes every registered skill now (in parallel, each with the health deadline), through the
    /// runtime its calls use (a worker process unless trusted), records the answers in the health
    /// state machine, and returns every skill's health afterwards. A skill that cannot even be loaded
    /// is "unavailable"; a quarantined skill is not probed (it is not called at all).
    public func probeHealth() async -> [String: SkillHealth] {
        let before = invoker.health.all()
        let skills = registry.skills.filter { before[$0.id]?.state != .quarantined }
        let stamp = TimeText.nowUTC()
        let timeout = config.healthTimeoutMs
        let invoker = self.invoker
        var all: [String: HealthRecord] = [:]
        await withTaskGroup(of: (String, HealthRecord).self) { group in
            for s in skills {
                group.addTask {
                    switch invoker.runtime(for: s) {
                    case .failure(let e):
                        return (s.id, HealthRecord(status: "unavailable", message: e.message, checkedAt: stamp, latencyMs: nil, sha256: nil))
                    case .success(let runtime):
                        let p = await runtime.health(context: invoker.context(for: s, caller: .automation), deadline: .now() + .milliseconds(timeout))
                        return (s.id, HealthRecord(status: p.status.rawValue, message: p.message, checkedAt: stamp, latencyMs: p.latencyMs, sha256: nil))
                    }
                }
            }
            for await (id, record) in group { all[id] = record }
        }
        for (id, h) in fileHashes() { all[id]?.sha256 = h }
        invoker.health.recordAll(all.keys.sorted().map { ($0, HealthEvent.probed(all[$0]!)) })
        return invoker.health.all()
    }

    /// `skillhost unblock ID`: puts a skill back to `ok` (out of quarantine, or any other state), so
    /// calls reach it again; its counters are kept. Fails with `no_skill` for an id not registered.
    public func unblock(id: String) -> Result<SkillHealth, SkillError> {
        guard registry.skill(id: id) != nil else {
            let near = registry.skills.map(\.id).filter { editDistance($0, id) <= 3 || $0.hasSuffix("." + id) }
            return .failure(SkillError(.noSkill, "no registered skill has the id \"\(id)\"",
                                       hint: near.isEmpty ? "run `skillhost list` to see the skill ids" : "did you mean \(near.joined(separator: ", "))?"))
        }
        if let problem = invoker.health.recordAll([(id, .unblocked)]) {
            return .failure(problem.refusal("that skill \(id) was unblocked", skillID: id))
        }
        return .success(invoker.health.current(id))
    }

    // MARK: - Files

    /// The SHA-256 of the files of the skills `ids` (nil: every registered skill), computing and caching
    /// the ones the scan cache does not know yet (the scan itself does not hash: see `Scanner`).
    public func fileHashes(of ids: Set<String>? = nil) -> [String: String] {
        var out: [String: String] = [:]
        var computed: [(SkillFile, String)] = []
        for s in registry.skills where ids?.contains(s.id) ?? true {
            let key = "\(s.file.path)#\(s.file.inode)#\(s.file.size)#\(s.file.mtimeNs)"
            if let h = s.file.sha256 ?? computedHashes.withLock({ $0[key] }) { out[s.id] = h; continue }
            guard let h = SHA256.hex(ofFile: s.file.path) else { continue }
            out[s.id] = h
            computedHashes.withLock { $0[key] = h }
            computed.append((s.file, h))
        }
        if !computed.isEmpty {
            var cache = ScanCache(path: paths.stateDir + "/scan-cache", hostSignature: Scanner.hostSignature)
            for (f, h) in computed { cache.setHash(f.path, .init(inode: f.inode, size: f.size, mtimeNs: f.mtimeNs), h) }
            if let problem = cache.save() { HostLog.warning(problem) }
        }
        return out
    }

    /// What `file` declares, read in a scan process and validated, without registering it. The file
    /// is opened once and checked like a file in a skill folder (the file and every folder above it);
    /// the scan process loads that descriptor.
    public func inspect(file: String) -> (file: SkillFile?, outcome: Result<SkillManifest, Refusal>) {
        let path = PathText.absolute(file)
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            return (nil, .failure(Refusal(file: path, reason: .notASkill, message: "\"\(file)\" does not exist or is not a regular file")))
        }
        let checked: CheckedSkillFile
        switch CheckedSkillFile.open(path) {
        case .failure(let e): return (nil, .failure(Refusal(file: path, e)))
        case .success(let f): checked = f
        }
        let id = checked.identity
        let info = SkillFile(path: path, inode: id.inode, size: id.size, mtimeNs: id.mtimeNs,
                             sha256: SHA256.hex(ofFile: path), device: id.device)
        if let e = ELFCheck.check(checked) { return (info, .failure(Refusal(file: path, e))) }
        let reader = ManifestReader(scanPath: scanPath, deadline: .milliseconds(scanTimeoutMs))
        switch reader.read([ManifestReader.Item(path: path, file: checked)])[path] {
        case .report(let j)?: return (info, ManifestValidator.validate(report: j, file: path, hostToolchain: HostToolchain.name))
        case .refused(let r)?: return (info, .failure(r))
        case nil: return (info, .failure(Refusal(file: path, reason: .loadFailed, message: "no scan result for \"\(path)\"")))
        }
    }

    /// The folder `install` puts files in: the first of the search path that is writable (or can be
    /// created), else the first (whose error then says why).
    public var installFolder: SkillFolder { searchPath.first(where: \.writable) ?? searchPath[0] }

    /// Validates `file` as a skill, then copies it into `installFolder` under its own name,
    /// atomically (a temporary file in the same folder, fsync'ed, mode 0755, renamed into place), so a
    /// scan never sees half a file. When another installed file provides the same skill id under another
    /// name, only a newer version is installed, and the older file is then shadowed (kept for a
    /// rollback, see `ScanReport.shadowed`); the same or an older version is refused. A file with the
    /// same name is replaced (an upgrade in place).
    public func install(file: String) -> Result<Installation, SkillError> {
        let (info, outcome) = inspect(file: file)
        let manifest: SkillManifest
        switch outcome {
        case .failure(let r): return .failure(SkillError(r.reason.errorKind, "not installed: \(r.message)", hint: r.hint))
        case .success(let m): manifest = m
        }
        let folder = PathText.absolute(installFolder.path)
        let name = PathText.fileName(of: file)
        let target = folder + "/" + name
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            return .failure(SkillError(.internal, "cannot create the skill folder \"\(folder)\": \(error)"))
        }
        // Installs into one folder take turns (an exclusive flock on the folder itself), and each one
        // checks what is installed now — not what was there when this host opened — so of parallel
        // installs of one id and version under different names, the first wins and the others are refused.
        let folderLock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderLock >= 0 else {
            return .failure(SkillError(.internal, "cannot open the skill folder \"\(folder)\": \(String(cString: strerror(errno)))"))
        }
        defer { close(folderLock) }  // closing releases the lock
        while flock(folderLock, LOCK_EX) != 0 && errno == EINTR {}
        let installed = Self.registry(of: Self.scanFolders(directories, scanPath: scanPath, stateDir: paths.stateDir, timeoutMs: scanTimeoutMs),
                                      trusted: config.trusted)
        var shadows: (path: String, version: SemanticVersion)? = nil
        if let other = installed.skill(id: manifest.id), other.file.path != target {
            guard manifest.version > other.summary.version else {
                return .failure(SkillError(.invalidInput, "not installed: skill id \"\(manifest.id)\" is already provided by \"\(other.file.path)\" (version \(other.summary.version)); \"\(file)\" has version \(manifest.version), which would never be used (the newest version of an id wins)",
                                           hint: "to roll back, remove the newer file; to replace it, install the new one under the same file name (\(PathText.fileName(of: other.file.path)))"))
            }
            shadows = (other.file.path, other.summary.version)
        }
        let tmp = folder + "/.\(name).installing.\(getpid())"
        // The bytes copied are those of the file that was validated (same inode, size and mtime).
        guard let info, case .success(let source) = CheckedSkillFile.open(info.path, expected: info.identity),
              let data = source.read(count: Int(source.identity.size)), data.count == Int(source.identity.size) else {
            return .failure(SkillError(.invalidInput, "cannot read \"\(file)\", or it changed while it was validated",
                                       hint: "run the install again"))
        }
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else {
            return .failure(SkillError(.internal, "cannot create \"\(tmp)\": \(String(cString: strerror(errno)))", hint: "check that you can write to \(folder)"))
        }
        let ok = StateFile.writeAll(fd, [UInt8](data)) && fchmod(fd, 0o755) == 0 && fsync(fd) == 0
        close(fd)
        guard ok, rename(tmp, target) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(tmp)
            return .failure(SkillError(.internal, "cannot install into \"\(target)\": \(why)"))
        }
        let dfd = open(folder, O_RDONLY | O_DIRECTORY)
        if dfd >= 0 { fsync(dfd); close(dfd) }
        return .success(Installation(path: target, manifest: manifest, shadows: shadows))
    }
}
