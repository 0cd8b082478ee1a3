import Glibc

/// Dates and numbers as text, without Foundation's formatters (the host links FoundationEssentials only).
public enum TimeText {
    /// `n` with at least `width` digits, zero-padded.
    static func padded(_ n: Int, _ width: Int) -> String {
        let s = String(abs(n))
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// RFC 3339 for `seconds` since the epoch, in UTC ("2026-11-30T09:00:00Z"); for a zone's local
    /// time with its offset, `ZoneRules.rfc3339`.
    public static func rfc3339(_ seconds: Int) -> String { ZoneRules.utc.rfc3339(seconds) }

    /// The current time as RFC 3339 in UTC.
    public static func nowUTC() -> String { rfc3339(time(nil)) }

    /// `value` with one decimal ("5.6").
    public static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return (tenths < 0 ? "-" : "") + String(abs(tenths) / 10) + "." + String(abs(tenths) % 10)
    }
}

/// The time zone the host works in: the config's `timeZone`, else `$TZ`, else the system's
/// (/etc/localtime), as an IANA name. It is passed explicitly (to calls' contexts, to requests, to
/// workers' environments), never applied to this process: a request may carry another zone.
enum HostTimeZone {
    /// The zone's IANA name. An unknown configured name is reported and ignored.
    static func resolve(configured: String?, environment: [String: String]) -> String {
        if let name = configured {
            if ZoneRules.load(name) != nil { return name }
            HostLog.warning("config: unknown time zone \"\(name)\" (no \(ZoneRules.zoneinfo)\(name)); using the system's")
        }
        if let tz = environment["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            let zone = name.hasPrefix(ZoneRules.zoneinfo) ? String(name.dropFirst(ZoneRules.zoneinfo.count)) : name
            if ZoneRules.load(zone) != nil { return zone }
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
