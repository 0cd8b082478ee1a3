import Glibc

/// Dates and numbers as text, without Foundation's formatters (the host links FoundationEssentials only).
public enum TimeText {
    /// `n` with at least `width` digits, zero-padded.
    static func padded(_ n: Int, _ width: Int) -> String {
        let s = String(abs(n))
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// RFC 3339 for `seconds` since the epoch, in UTC ("2026-11-30T09:00:00Z") or, with `local`, in the
    /// process time zone with its offset ("2026-11-30T10:00:00+01:00").
    public static func rfc3339(_ seconds: Int, local: Bool = false) -> String {
        var t = time_t(seconds)
        var tm = Glibc.tm()
        if local { localtime_r(&t, &tm) } else { gmtime_r(&t, &tm) }
        let base = padded(Int(tm.tm_year) + 1900, 4) + "-" + padded(Int(tm.tm_mon) + 1, 2) + "-" + padded(Int(tm.tm_mday), 2)
            + "T" + padded(Int(tm.tm_hour), 2) + ":" + padded(Int(tm.tm_min), 2) + ":" + padded(Int(tm.tm_sec), 2)
        guard local, tm.tm_gmtoff != 0 else { return base + "Z" }
        let off = Int(tm.tm_gmtoff)
        return base + (off < 0 ? "-" : "+") + padded(abs(off) / 3600, 2) + ":" + padded(abs(off) % 3600 / 60, 2)
    }

    /// The current time as RFC 3339 in UTC.
    public static func nowUTC() -> String { rfc3339(time(nil)) }

    /// `value` with one decimal ("5.6").
    public static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return (tenths < 0 ? "-" : "") + String(abs(tenths) / 10) + "." + String(abs(tenths) % 10)
    }
}

/// The time zone the host works in: the config's `timeZone`, else `$TZ`, else the system's
/// (/etc/localtime), as an IANA name. Setting it makes the whole process use it (so in-process skills
/// see the same zone), which is why it is applied once, at start, before any thread exists.
enum HostTimeZone {
    static let zoneinfo = "/usr/share/zoneinfo/"

    /// Applies `configured` (if any) to the process and returns the zone's IANA name. An unknown name
    /// is reported and ignored.
    static func apply(configured: String?, environment: [String: String]) -> String {
        if let name = configured {
            if access(zoneinfo + name, R_OK) == 0, !name.contains("..") {
                setenv("TZ", name, 1)
                tzset()
                return name
            }
            HostLog.warning("config: unknown time zone \"\(name)\" (no \(zoneinfo)\(name)); using the system's")
        }
        tzset()
        if let tz = environment["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            return name.hasPrefix(zoneinfo) ? String(name.dropFirst(zoneinfo.count)) : name
        }
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/etc/localtime", &buf, buf.count - 1)
        if n > 0 {
            let target = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let parts = target.split(separator: "/", omittingEmptySubsequences: true)
            if let z = parts.firstIndex(of: "zoneinfo"), z + 1 < parts.count { return parts[(z + 1)...].joined(separator: "/") }
        }
        return "UTC"
    }
}
