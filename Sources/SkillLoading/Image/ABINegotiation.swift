import SkillABI

/// The ABI negotiation (skillhost.h, "Versioning" and "Negotiation"), in one place: the scan's
/// manifest check and every load at run time ask it.
///
/// The host reads abi_major, abi_minor and struct_size first. Another major: nothing more is read,
/// refused. The skill names the oldest minor it can work with (abi_minor_required, 1.1+, 0 when the
/// struct is too small to have it); a skill that needs a newer minor than this host serves is
/// refused; otherwise it is served as MAJOR.min(abi_minor, host minor) — "served as 1.1".
public enum ABINegotiation {
    public static let hostMajor = UInt32(SKH_ABI_VERSION_MAJOR)
    public static let hostMinor = UInt32(SKH_ABI_VERSION_MINOR)
    /// "1.0–1.1": the range a message names.
    public static var hostRange: String { hostMinor == 0 ? "\(hostMajor).0" : "\(hostMajor).0–\(hostMajor).\(hostMinor)" }

    /// The minor this host serves a skill built for `major.minor` that requires `required`, or why not.
    /// `id` (when known) is named in messages.
    public static func servedMinor(major: UInt32, minor: UInt32, required: UInt32, file: String, id: String?) -> Result<UInt32, SkillLoadError> {
        if major != hostMajor {
            let direction = major > hostMajor ? "upgrade skillhost to a version that serves ABI \(major), or rebuild the skill against skillhost.h \(hostMajor).x"
                                              : "rebuild the skill against skillhost.h \(hostMajor).x (the SDK/header that ships with this host)"
            return .failure(SkillLoadError(.abiMismatch, "incompatible skill \"\(file)\": ABI version mismatch — host serves ABI \(hostRange), skill was built for ABI \(major).\(minor)", hint: direction))
        }
        let idText = id.map { " (\($0))" } ?? ""
        if required > minor {
            return .failure(SkillLoadError(.badManifest, "bad manifest in \"\(file)\"\(idText): field \"abi_minor_required\": expected at most abi_minor (\(minor)), found \(required)",
                                           hint: "set abi_minor_required to the oldest minor whose fields and services the skill cannot do without"))
        }
        if required > hostMinor {
            return .failure(SkillLoadError(.abiMismatch, "incompatible skill \"\(file)\"\(idText): skill needs ABI \(major).\(required) or newer (built for \(major).\(minor)), this host serves ABI \(hostRange)",
                                           hint: "upgrade skillhost to a version that serves ABI \(major).\(required), or use a build of the skill that works with ABI \(major).\(hostMinor) (abi_minor_required ≤ \(hostMinor))"))
        }
        return .success(min(minor, hostMinor))
    }

    /// True when a struct of `size` bytes (as the skill compiled it) contains the field ending at `end`.
    public static func has(_ size: UInt32, _ end: Int) -> Bool { Int(size) >= end }

    /// The offset just past field `kp`.
    public static func end<Root, T>(_ kp: KeyPath<Root, T>) -> Int { MemoryLayout<Root>.offset(of: kp)! + MemoryLayout<T>.size }
}
