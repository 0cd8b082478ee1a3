/// Why a file in a skill folder was not registered. Every refused file keeps one of these, and
/// `list --all` and `doctor` show them.
public struct Refusal: Error, Sendable, Equatable {
    public enum Reason: String, Sendable, Codable {
        /// Not an ELF shared library at all (empty, text, another object type).
        case notASkill = "not_a_skill"
        /// An ELF file cut short.
        case truncated
        /// Built for another CPU or ELF class.
        case wrongArchitecture = "wrong_architecture"
        /// The dynamic loader refused it (missing dependency, bad relocation, …).
        case loadFailed = "load_failed"
        /// A shared library without the `skillhost_entry` symbol.
        case missingSymbol = "missing_symbol"
        /// Built for another ABI major version.
        case abiMismatch = "abi_mismatch"
        /// A Swift skill built by another Swift toolchain.
        case toolchainMismatch = "toolchain_mismatch"
        /// The manifest is wrong; the message says where.
        case badManifest = "bad_manifest"
        /// Another file already provides a skill with this id, in the same version.
        case duplicateID = "duplicate_id"
        /// The skill crashed while its manifest was read (static initializer).
        case crashedDuringScan = "crashed_during_scan"
        /// Reading the manifest took longer than the scan deadline.
        case timedOut = "timed_out"
        /// The file or its folder can be changed by someone other than its owner.
        case insecurePermissions = "insecure_permissions"
        /// The file name is not valid UTF-8 (the message shows it with `\xNN` escapes).
        case badFileName = "bad_file_name"
        /// A symbolic link whose target does not exist, or a loop of links.
        case brokenLink = "broken_link"

        /// The error kind a call to this skill would get.
        public var errorKind: ErrorKind {
            switch self {
            case .wrongArchitecture, .abiMismatch, .toolchainMismatch: return .incompatible
            default: return .loadFailed
            }
        }
    }

    public var file: String
    public var reason: Reason
    /// What was expected and what was found.
    public var message: String
    /// What to do about it.
    public var hint: String?

    public init(file: String, reason: Reason, message: String, hint: String? = nil) {
        self.file = file
        self.reason = reason
        self.message = message
        self.hint = hint
    }

    public var json: JSON {
        var o = JSONObject([("file", .string(file)), ("reason", .string(reason.rawValue)),
                            ("kind", .string(reason.errorKind.rawValue)), ("message", .string(message))])
        if let hint { o["hint"] = .string(hint) }
        return .object(o)
    }

    init?(json: JSON) {
        guard let file = json["file"]?.stringValue, let r = json["reason"]?.stringValue,
              let reason = Reason(rawValue: r), let message = json["message"]?.stringValue else { return nil }
        self.init(file: file, reason: reason, message: message, hint: json["hint"]?.stringValue)
    }
}
