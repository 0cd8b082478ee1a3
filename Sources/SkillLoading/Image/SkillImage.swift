import Glibc
import SkillABI

/// Loads skill images into this process from checked descriptors, finds their entry and negotiates
/// the ABI: the one implementation the host (trusted skills), the worker and the scan child share.
///
/// Every image is loaded with `dlopen("/proc/self/fd/N", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)`, so
/// the bytes loaded are those of the descriptor that was checked, never whatever a path names later.
///
/// Rationale for keeping descriptors: glibc's `dlopen` first compares the *name* it is given with the
/// names of the images already loaded (and adds `/proc/self/fd/N` to an image found by device and
/// inode). If descriptor N were closed and its number reused for another file, a later
/// `dlopen("/proc/self/fd/N")` would return the first image. So a descriptor an image was loaded from
/// is kept open for the life of the process: its number, and so the name, is never reused.
/// Images are never unloaded (Swift images cannot be). Thread-safe (loads are serialized).
public enum SkillImage {
    /// A skill whose ABI this host serves.
    public struct Negotiated: @unchecked Sendable {
        public let skill: UnsafePointer<skh_skill>
        /// The minor this host serves it as: min(its abi_minor, the host's).
        public let servedMinor: UInt32
        public var threadSafe: Bool { skill.pointee.flags & UInt32(SKH_SKILL_THREAD_SAFE) != 0 }
    }

    private struct Image: Sendable {
        var identity: DescriptorIdentity
        var handle: UInt
    }

    /// Images loaded by this process, by (device, inode) of the file they came from.
    private static let images = ImageTable()

    private struct FileKey: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// `[FileKey: Image]` behind a pthread mutex (not Synchronization's `Mutex`: the scan process
    /// links this module and no library beyond the Swift core, see Package.swift's `coreOnly`).
    /// Static, never freed.
    private final class ImageTable: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
            let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            pthread_mutex_init(m, nil)
            return m
        }()
        private var images: [FileKey: Image] = [:]

        func withLock<R>(_ body: (inout [FileKey: Image]) -> R) -> R {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&images)
        }
    }

    // MARK: - Loading

    /// Loads `file`, looks up `skillhost_entry`, negotiates the ABI and, when `expectedID` is given,
    /// checks that the skill is the one the scan recorded. Does not call the skill's `init`.
    public static func open(_ file: CheckedSkillFile, expectedID: String?) -> Result<Negotiated, SkillLoadError> {
        load(file).flatMap { entry($0, path: file.path) }.flatMap { negotiate($0, path: file.path, expectedID: expectedID) }
    }

    /// The `dlopen` handle for `file`'s image, loading it once per process.
    ///
    /// The same file (device, inode, size, mtime) loaded again returns the first handle (and `file`
    /// is closed as usual). A file rewritten in place (same device and inode, other size or mtime)
    /// would get the old image from glibc (it matches images by device and inode too), so its checked
    /// bytes are copied into a memfd and loaded from there.
    public static func load(_ file: CheckedSkillFile) -> Result<UnsafeMutableRawPointer, SkillLoadError> {
        let key = FileKey(device: file.identity.device, inode: file.identity.inode)
        return images.withLock { images -> Result<UnsafeMutableRawPointer, SkillLoadError> in
            if let known = images[key] {
                if known.identity.matches(file.identity) { return .success(UnsafeMutableRawPointer(bitPattern: known.handle)!) }
                // Rewritten in place: load a private copy of the bytes this descriptor has.
                guard let copy = memoryCopy(of: file) else {
                    return .failure(SkillLoadError(.loadFailed, "cannot load the new version of \"\(file.path)\": copying it into memory failed: \(errnoText(errno))",
                                                   hint: "replace skill files with a rename (`skillhost install` does), not by rewriting them in place"))
                }
                let result = dlopenKeeping(fd: copy, path: file.path)
                switch result {
                case .success(let handle): images[key] = Image(identity: file.identity, handle: UInt(bitPattern: handle))
                case .failure: Glibc.close(copy)
                }
                return result
            }
            let result = dlopenKeeping(fd: file.fd, path: file.path)
            if case .success(let handle) = result {
                file.keptForever = true
                images[key] = Image(identity: file.identity, handle: UInt(bitPattern: handle))
            }
            return result
        }
    }

    /// `skillhost_entry()` of a loaded image.
    public static func entry(_ handle: UnsafeMutableRawPointer, path: String) -> Result<UnsafePointer<skh_skill>, SkillLoadError> {
        guard let sym = dlsym(handle, SKH_ENTRY_SYMBOL) else {
            return .failure(SkillLoadError(.missingSymbol, "\"\(path)\" is a shared library but not a skill: it does not export the symbol \(SKH_ENTRY_SYMBOL)",
                                           hint: "a C skill defines `const skh_skill *skillhost_entry(void)`; a Swift skill adds `@_cdecl(\"skillhost_entry\") public func …` (it must be public; check with `nm -D \(path)`)"))
        }
        guard let skill = unsafeBitCast(sym, to: skh_entry_fn.self)() else {
            return .failure(SkillLoadError(.badManifest, "\"\(path)\": \(SKH_ENTRY_SYMBOL)() returned NULL; expected a pointer to a static skh_skill"))
        }
        return .success(skill)
    }

    /// Negotiates `skill`'s ABI (see `ABINegotiation`) and checks its id against `expectedID`.
    public static func negotiate(_ skill: UnsafePointer<skh_skill>, path: String, expectedID: String?) -> Result<Negotiated, SkillLoadError> {
        let s = skill.pointee
        let size = s.struct_size
        let hasID = ABINegotiation.has(size, ABINegotiation.end(\skh_skill.id))
        let id = hasID ? s.id.map { String(cString: $0) } : nil
        let required = ABINegotiation.has(size, ABINegotiation.end(\skh_skill.abi_minor_required)) ? s.abi_minor_required : 0
        let served: UInt32
        switch ABINegotiation.servedMinor(major: s.abi_major, minor: s.abi_minor, required: required, file: path, id: id) {
        case .failure(let e): return .failure(e)
        case .success(let m): served = m
        }
        if let expectedID, id != expectedID {
            return .failure(SkillLoadError(.changedSinceScan, "\"\(path)\" is not the skill the scan recorded: expected id \"\(expectedID)\", found \(id.map { "\"\($0)\"" } ?? "none")",
                                           hint: "run the command again; the folder will be rescanned"))
        }
        return .success(Negotiated(skill: skill, servedMinor: served))
    }

    // MARK: - Internals

    private static func dlopenKeeping(fd: Int32, path: String) -> Result<UnsafeMutableRawPointer, SkillLoadError> {
        guard let handle = dlopen("/proc/self/fd/\(fd)", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let why = dlerror().map { String(cString: $0) } ?? "unknown error"
            // The loader names the file by the descriptor's name; say which file it is.
            return .failure(SkillLoadError(.loadFailed, "cannot load \"\(path)\": \(why.replacingProcName(fd: fd, with: path))",
                                           hint: "check its dependencies with `ldd \(path)`"))
        }
        return .success(handle)
    }

    private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32

    /// memfd_create(2), looked up with dlsym: Swift's Glibc module hides it (it needs _GNU_SOURCE).
    private static let memfdCreate: MemfdCreate? = {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create").map { unsafeBitCast($0, to: MemfdCreate.self) }
    }()

    /// A close-on-exec memfd holding the bytes of `file` (read through its descriptor), or nil.
    private static func memoryCopy(of file: CheckedSkillFile) -> Int32? {
        guard let memfdCreate else { errno = ENOSYS; return nil }
        let fd = memfdCreate("skillhost-skill", 1 /* MFD_CLOEXEC */)
        guard fd >= 0 else { return nil }
        var offset: Int64 = 0
        while true {
            guard let chunk = file.read(count: 1 << 20, at: offset) else { Glibc.close(fd); return nil }
            if chunk.isEmpty { break }
            var done = 0
            while done < chunk.count {
                let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress! + done, chunk.count - done) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { Glibc.close(fd); return nil }
                done += n
            }
            offset += Int64(chunk.count)
        }
        return fd
    }
}

extension String {
    /// This text with "/proc/self/fd/N" replaced by `path`.
    /// (Compared byte for byte: this module links no _StringProcessing, see Package.swift's `coreOnly`.)
    func replacingProcName(fd: Int32, with path: String) -> String {
        let name = Array("/proc/self/fd/\(fd)".utf8), text = Array(utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            if i + name.count <= text.count && text[i..<(i + name.count)].elementsEqual(name) {
                out += path.utf8
                i += name.count
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
