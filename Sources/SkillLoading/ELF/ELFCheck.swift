import Glibc

/// Checks, from its first bytes and size alone, that a file is an ELF shared library for this
/// machine and is not cut short. Cheap (one read of 64 bytes from the checked descriptor) and runs
/// before any code of the file is loaded, so the common mistakes get precise messages instead of a
/// loader error.
public enum ELFCheck {
    public static let hostMachine: UInt16 = {
        #if arch(x86_64)
        return 62
        #elseif arch(arm64)
        return 183
        #else
        return 0
        #endif
    }()

    public static func machineName(_ m: UInt16) -> String {
        switch m {
        case 3: return "x86 (32-bit)"
        case 8: return "MIPS"
        case 20: return "PowerPC"
        case 21: return "PowerPC64"
        case 40: return "ARM (32-bit)"
        case 62: return "x86-64"
        case 183: return "AArch64"
        case 243: return "RISC-V"
        default: return "machine \(m)"
        }
    }

    /// nil when `file` looks like a loadable shared library for this host; otherwise why not.
    public static func check(_ file: CheckedSkillFile) -> SkillLoadError? {
        check(path: file.path, size: Int(file.identity.size)) { file.read(count: 64) }
    }

    /// The check on the first 64 bytes `header()` reads from a file of `size` bytes named `path`.
    static func check(path: String, size: Int, header: () -> [UInt8]?) -> SkillLoadError? {
        func refuse(_ r: SkillLoadError.Reason, _ m: String, _ h: String?) -> SkillLoadError {
            SkillLoadError(r, m, hint: h)
        }
        let rebuild = "rebuild the skill as a shared library for \(machineName(hostMachine)) Linux (swift build, or cc -shared -fPIC)"
        if size == 0 {
            return refuse(.notASkill, "\"\(path)\" is empty (0 bytes); expected an ELF shared library", "copy the file again; it may have been cut off while copying")
        }
        guard var h = header() else {
            return refuse(.loadFailed, "cannot read \"\(path)\": \(errnoText(errno))", "check that the file is readable by you")
        }
        let n = h.count
        h += [UInt8](repeating: 0, count: 64 - n)
        guard n >= 4, h[0] == 0x7f, h[1] == 0x45, h[2] == 0x4c, h[3] == 0x46 else {
            let shown = h.prefix(max(0, min(n, 16))).map { (32..<127).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
            return refuse(.notASkill, "\"\(path)\" is not a shared library: expected the ELF magic \\x7fELF, found \"\(shown)\"", "only skill .so files belong in the skill folder; move other files elsewhere")
        }
        guard n == 64 else {
            return refuse(.truncated, "\"\(path)\" is a truncated ELF file: the header needs 64 bytes, the file has \(size)", "copy the file again; it was cut off")
        }
        if h[4] != 2 || h[5] != 1 {
            return refuse(.wrongArchitecture, "\"\(path)\" is a \(h[4] == 1 ? "32-bit" : "non-64-bit")\(h[5] == 2 ? " big-endian" : "") ELF file; this host is 64-bit little-endian \(machineName(hostMachine))", rebuild)
        }
        func u16(_ o: Int) -> UInt16 { UInt16(h[o]) | UInt16(h[o + 1]) << 8 }
        func u64(_ o: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(h[o + $1]) << (8 * UInt64($1)) } }
        let type = u16(16), machine = u16(18)
        if machine != hostMachine {
            return refuse(.wrongArchitecture, "\"\(path)\" was built for \(machineName(machine)); this host is \(machineName(hostMachine))", rebuild)
        }
        if type != 3 {
            let what = type == 1 ? "a relocatable object (.o)" : type == 2 ? "an executable" : type == 4 ? "a core dump" : "ELF type \(type)"
            return refuse(.notASkill, "\"\(path)\" is \(what), not a shared library", "link it with -shared (SwiftPM: .library(type: .dynamic))")
        }
        let phEnd = u64(32) &+ UInt64(u16(54)) &* UInt64(u16(56))
        let shEnd = u64(40) &+ UInt64(u16(58)) &* UInt64(u16(60))
        let needed = max(phEnd, u16(60) == 0 ? 0 : shEnd)
        if needed > UInt64(size) {
            return refuse(.truncated, "\"\(path)\" is a truncated ELF file: its headers reach byte \(needed), the file has \(size) bytes", "copy the file again; it was cut off (use `skillhost install`, which copies atomically)")
        }
        return nil
    }
}
