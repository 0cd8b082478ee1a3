import SkillABI

/// What this build of skillhost is, for `skillhost --version`, MCP's `serverInfo` and bug reports: the
/// product version, the Swift toolchain it was built with (Swift skills must come from the same one:
/// Swift has no stable ABI on Linux), and the skill ABI it serves.
public enum BuildInfo {
    public static let version = "1.2.0"
    public static var toolchain: String { HostToolchain.name }
    /// The skill ABI this host serves: major, and every minor from 0 up to this one.
    public static let abiMajor = Int(SKH_ABI_VERSION_MAJOR), abiMinor = Int(SKH_ABI_VERSION_MINOR)

    public static var json: JSON {
        .object(JSONObject([("version", .string(version)), ("toolchain", .string(toolchain)),
                            ("abi", .object(JSONObject([("major", .int(Int64(abiMajor))), ("minors", .string("0–\(abiMinor)"))])))]))
    }

    public static var text: String {
        "skillhost \(version)\ntoolchain: \(toolchain) (skills written in Swift must be built with the same one; C skills need not)\n"
            + "skill ABI: \(abiMajor).0–\(abiMajor).\(abiMinor) (skillhost.h)"
    }
}
