import Glibc

/// Why a skill file was not loaded: one small value for the host, the scan child and the worker.
///
/// `reason` is precise (it becomes a refusal's `reason` in `list --all` and `doctor`); `kind` is the
/// error kind a call would get. The message says what was expected and what was found and names the
/// file or folder; the hint is the command that fixes it (PostgreSQL's loader is the model).
public struct SkillLoadError: Error, Sendable, Equatable {
    /// The error kind of a call that needed this skill.
    public enum Kind: String, Sendable {
        /// The file cannot be used (missing, unsafe, not a library, the loader refused it).
        case loadFailed = "load_failed"
        /// The file is a skill for another machine or another ABI.
        case incompatible
    }

    /// What exactly is wrong. Raw values match the host's refusal reasons where one exists.
    public enum Reason: String, Sendable {
        /// Not an ELF shared library (empty, text, an object or executable).
        case notASkill = "not_a_skill"
        /// An ELF file cut short.
        case truncated
        /// Built for another CPU or ELF class.
        case wrongArchitecture = "wrong_architecture"
        /// Cannot be opened, or the dynamic loader refused it.
        case loadFailed = "load_failed"
        /// No `skillhost_entry` symbol.
        case missingSymbol = "missing_symbol"
        /// `skillhost_entry` returned NULL, or a field the loader needs is missing.
        case badManifest = "bad_manifest"
        /// Built for another ABI major, or needs a newer minor than this host serves.
        case abiMismatch = "abi_mismatch"
        /// The file, or a folder above it, can be changed by someone other than this user or root.
        case insecurePermissions = "insecure_permissions"
        /// The file is not the one the scan recorded (replaced, rewritten, or another skill id).
        case changedSinceScan = "changed_since_scan"
    }

    public var reason: Reason
    public var message: String
    public var hint: String?

    public init(_ reason: Reason, _ message: String, hint: String? = nil) {
        self.reason = reason
        self.message = message
        self.hint = hint
    }

    public var kind: Kind {
        switch reason {
        case .wrongArchitecture, .abiMismatch: return .incompatible
        default: return .loadFailed
        }
    }
}

/// `strerror(errno)` as a String.
func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
