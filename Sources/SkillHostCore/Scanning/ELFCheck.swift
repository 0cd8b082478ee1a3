import Glibc

/// Checks, from its first bytes and size alone, that a file is an ELF shared library for this
/// machine and is not cut short. Cheap (one read of 64 bytes) and runs before any code of the
/// file is loaded, so the common mistakes get precise messages instead of a loader error.
enum ELFCheck {
    static let hostMachine: UInt16 = {
        #if arch(x86_64)
        return 62
        #elseif arch(arm64)
        return 183
        #else
        return 0
        #endif
    }()

    static func machineName(_ m: UInt16) -> String {
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

    /// nil when the file looks like a loadable shared library for this host; otherwise the refusal.
    static func check(path: String, size: Int) -> Refusal? {
        func refuse(_ r: Refusal.Reason, _ m: String, _ h: String?) -> Refusal {
            Refusal(file: path, reason: r, message: m, hint: h)
        }
        let rebuild = "rebuild the skill as a shared library for \(machineName(hostMachine)) Linux (swift build, or cc -shared -fPIC)"
        if size == 0 {
            return refuse(.notASkill, "\"\(path)\" is empty (0 bytes); expected an ELF shared library", "copy the file again; it may have been cut off while copying")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return refuse(.loadFailed, "cannot open \"\(path)\": \(String(cString: strerror(errno)))", "check that the file is readable by you")
        }
        defer { close(fd) }
        var h = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &h, 64)
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
