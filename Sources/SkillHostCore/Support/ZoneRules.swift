import Glibc

/// The rules of one IANA time zone, read from the system's TZif file (RFC 8536) — so that every call
/// and every `ask` request carries its zone explicitly, and the process environment (`TZ`) never
/// decides what "today" or "3 pm" means. Immutable; safe from any thread.
///
/// Offsets come from the file's transitions; instants after the last one follow the POSIX TZ rule in
/// its footer ("CET-1CEST,M3.5.0,M10.5.0/3"), as the C library does.
public struct ZoneRules: Sendable {
    /// The IANA name ("Europe/Warsaw", "UTC").
    public let name: String
    private let transitions: [Int64]
    /// Offset (seconds east of UTC) in force from each transition.
    private let offsets: [Int32]
    /// In force before the first transition.
    private let initialOffset: Int32
    private let footer: PosixRule?

    public static let zoneinfo = "/usr/share/zoneinfo/"

    /// UTC, always available.
    public static let utc = ZoneRules(name: "UTC", transitions: [], offsets: [], initialOffset: 0, footer: nil)

    private init(name: String, transitions: [Int64], offsets: [Int32], initialOffset: Int32, footer: PosixRule?) {
        (self.name, self.transitions, self.offsets, self.initialOffset, self.footer) = (name, transitions, offsets, initialOffset, footer)
    }

    /// The rules of `name` from /usr/share/zoneinfo, or nil when there is no such zone (or the file is
    /// not TZif). "UTC", "Etc/UTC" and "Z" need no file.
    public static func load(_ name: String) -> ZoneRules? {
        if ["UTC", "Etc/UTC", "Z", "GMT", "Etc/GMT"].contains(name) { return .utc }
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains(".."),
              let bytes = readFile(zoneinfo + name) else { return nil }
        return parse(bytes, name: name)
    }

    /// Seconds east of UTC in force at `instant` (seconds since the epoch).
    public func offset(at instant: Int) -> Int {
        let t = Int64(instant)
        guard let last = transitions.last, t >= transitions[0] else {
            if transitions.isEmpty, let footer { return footer.offset(at: instant) }
            return Int(initialOffset)
        }
        if t >= last, let footer { return footer.offset(at: instant) }
        // The last transition at or before t.
        var lo = 0, hi = transitions.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if transitions[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return Int(offsets[lo])
    }

    /// The local day and time of an instant.
    public func civil(_ instant: Int) -> (date: CivilDate, hour: Int, minute: Int, second: Int) {
        let local = instant + offset(at: instant)
        let day = Int((Double(local) / 86400).rounded(.down))
        let rest = local - day * 86400
        return (CivilDate(dayNumber: day), rest / 3600, rest % 3600 / 60, rest % 60)
    }

    /// The instant of a local day and time. In a gap (clocks moved forward) the time is read with the
    /// offset before the gap; in an overlap, the earlier of the two instants.
    public func instant(_ date: CivilDate, hour: Int, minute: Int, second: Int = 0) -> Int {
        let local = date.dayNumber * 86400 + hour * 3600 + minute * 60 + second
        let before = offset(at: local - 86400), after = offset(at: local + 86400)
        // Try the earlier offset first (the larger one gives the earlier instant).
        for o in [max(before, after), min(before, after)] where offset(at: local - o) == o { return local - o }
        return local - before
    }

    /// RFC 3339 with this zone's offset ("2026-11-30T10:00:00+01:00"; "Z" for a zero offset).
    public func rfc3339(_ instant: Int) -> String {
        let off = offset(at: instant)
        let c = civil(instant)
        let base = TimeText.padded(c.date.year, 4) + "-" + TimeText.padded(c.date.month, 2) + "-" + TimeText.padded(c.date.day, 2)
            + "T" + TimeText.padded(c.hour, 2) + ":" + TimeText.padded(c.minute, 2) + ":" + TimeText.padded(c.second, 2)
        guard off != 0 else { return base + "Z" }
        return base + (off < 0 ? "-" : "+") + TimeText.padded(abs(off) / 3600, 2) + ":" + TimeText.padded(abs(off) % 3600 / 60, 2)
    }

    // MARK: - TZif

    private static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size < 1 << 20 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var off = 0
        while off < out.count {
            let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            off += n
        }
        return out
    }

    static func parse(_ b: [UInt8], name: String) -> ZoneRules? {
        func u32(_ i: Int) -> Int? {
            guard i + 4 <= b.count else { return nil }
            return Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
        }
        func i64(_ i: Int, width: Int) -> Int64? {
            guard i + width <= b.count else { return nil }
            var v: UInt64 = 0
            for k in 0..<width { v = v << 8 | UInt64(b[i + k]) }
            return width == 4 ? Int64(Int32(bitPattern: UInt32(v))) : Int64(bitPattern: v)
        }
        guard b.count >= 44, b[0] == 0x54, b[1] == 0x5a, b[2] == 0x69, b[3] == 0x66 else { return nil }  // "TZif"
        let version = b[4]
        // Counts of the v1 block, to skip it when a v2+ block follows.
        guard let isut = u32(20), let isstd = u32(24), let leap = u32(28), let time = u32(32), let type = u32(36), let chars = u32(40) else { return nil }
        var start = 44, width = 4
        var counts = (isut, isstd, leap, time, type, chars)
        if version >= 0x32 {  // '2' or later: the 64-bit block
            let h = 44 + time * 5 + type * 6 + chars + leap * 8 + isstd + isut
            guard h + 44 <= b.count, b[h] == 0x54, let c1 = u32(h + 20), let c2 = u32(h + 24), let c3 = u32(h + 28),
                  let c4 = u32(h + 32), let c5 = u32(h + 36), let c6 = u32(h + 40) else { return nil }
            counts = (c1, c2, c3, c4, c5, c6)
            start = h + 44
            width = 8
        }
        let (isutN, isstdN, leapN, timeN, typeN, charsN) = counts
        guard typeN > 0 else { return nil }
        let typesAt = start + timeN * width + timeN
        guard typesAt + typeN * 6 <= b.count else { return nil }
        var transitions: [Int64] = []
        var offsets: [Int32] = []
        transitions.reserveCapacity(timeN)
        func typeOffset(_ k: Int) -> Int32? {
            guard k < typeN, let v = u32(typesAt + k * 6) else { return nil }
            return Int32(bitPattern: UInt32(v))
        }
        for k in 0..<timeN {
            guard let t = i64(start + k * width, width: width), let o = typeOffset(Int(b[start + timeN * width + k])) else { return nil }
            transitions.append(t)
            offsets.append(o)
        }
        guard let initial = typeOffset(0) else { return nil }
        var footer: PosixRule? = nil
        if width == 8 {
            let end = typesAt + typeN * 6 + charsN + leapN * 12 + isstdN + isutN
            if end < b.count, b[end] == 0x0a, let close = b[(end + 1)...].firstIndex(of: 0x0a) {
                footer = PosixRule(String(decoding: b[(end + 1)..<close], as: UTF8.self))
            }
        }
        return ZoneRules(name: name, transitions: transitions, offsets: offsets, initialOffset: initial, footer: footer)
    }
}

/// A POSIX TZ rule ("EST5EDT,M3.2.0,M11.1.0", "<+03>-3"), as TZif footers carry them: standard offset,
/// and optionally a daylight offset with the rules for when it starts and ends.
struct PosixRule: Sendable {
    /// Seconds east of UTC.
    let standard: Int
    let daylight: (offset: Int, start: Change, end: Change)?

    /// A moment of the year the offset changes, in local time of the offset in force before it.
    enum Change: Sendable {
        /// Mm.w.d: day `d` (0 = Sunday) of week `w` (5 = last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int, time: Int)
        /// Jn: day n (1–365), February 29 never counted.
        case julian(day: Int, time: Int)
        /// n: day n (0–365), February 29 counted.
        case zeroBased(day: Int, time: Int)
    }

    init?(_ text: String) {
        var s = Substring(text)
        guard Self.name(&s), let std = Self.offset(&s) else { return nil }
        standard = -std
        if s.isEmpty { daylight = nil; return }
        guard Self.name(&s) else { return nil }
        var dst = -(std - 3600)
        if let first = s.first, first != "," { guard let o = Self.offset(&s) else { return nil }; dst = -o }
        guard s.first == ",", case _ = s.removeFirst(), let start = Self.change(&s), s.first == ",", case _ = s.removeFirst(),
              let end = Self.change(&s), s.isEmpty else { return nil }
        daylight = (dst, start, end)
    }

    func offset(at instant: Int) -> Int {
        guard let (dst, start, end) = daylight else { return standard }
        // The year in standard time; the changes of that year, as instants.
        let year = CivilDate(dayNumber: Int((Double(instant + standard) / 86400).rounded(.down))).year
        let on = Self.local(start, year: year) - standard
        let off = Self.local(end, year: year) - dst
        if on < off { return instant >= on && instant < off ? dst : standard }
        return instant >= off && instant < on ? standard : dst  // southern hemisphere: daylight spans the new year
    }

    /// Seconds since the epoch of `c` in `year`, read as UTC (the caller subtracts the offset).
    static func local(_ c: Change, year: Int) -> Int {
        switch c {
        case .monthWeekDay(let m, let w, let d, let time):
            let first = CivilDate(year: year, month: m, day: 1)
            let firstWeekday = first.weekday % 7  // 0 = Sunday
            var day = 1 + (d - firstWeekday + 7) % 7 + (w - 1) * 7
            let length = CivilDate(year: m == 12 ? year + 1 : year, month: m == 12 ? 1 : m + 1, day: 1).dayNumber - first.dayNumber
            while day > length { day -= 7 }
            return (first.dayNumber + day - 1) * 86400 + time
        case .julian(let n, let time):
            let jan1 = CivilDate(year: year, month: 1, day: 1).dayNumber
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return (jan1 + n - 1 + (leap && n >= 60 ? 1 : 0)) * 86400 + time
        case .zeroBased(let n, let time):
            return (CivilDate(year: year, month: 1, day: 1).dayNumber + n) * 86400 + time
        }
    }

    private static func name(_ s: inout Substring) -> Bool {
        if s.first == "<" {
            guard let close = s.firstIndex(of: ">") else { return false }
            s = s[s.index(after: close)...]
            return true
        }
        let n = s.prefix { $0.isLetter }
        guard n.count >= 3 else { return false }
        s = s.dropFirst(n.count)
        return true
    }

    /// [+-]hh[:mm[:ss]] as seconds (the POSIX sign: positive is west of Greenwich).
    private static func offset(_ s: inout Substring) -> Int? {
        var sign = 1
        if s.first == "+" { s.removeFirst() } else if s.first == "-" { sign = -1; s.removeFirst() }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let v = Int(digits) else { break }
            parts.append(v)
            s = s.dropFirst(digits.count)
            guard s.first == ":" else { break }
            s.removeFirst()
        }
        guard let h = parts.first else { return nil }
        return sign * (h * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0))
    }

    private static func change(_ s: inout Substring) -> Change? {
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return nil }
            s = s.dropFirst(digits.count)
            return Int(digits)
        }
        func time() -> Int? {
            guard s.first == "/" else { return 7200 }  // 02:00 by default
            s.removeFirst()
            return offset(&s)
        }
        if s.first == "M" {
            s.removeFirst()
            guard let m = number(), s.first == ".", case _ = s.removeFirst(), let w = number(), s.first == ".",
                  case _ = s.removeFirst(), let d = number(), (1...12).contains(m), (1...5).contains(w), (0...6).contains(d),
                  let t = time() else { return nil }
            return .monthWeekDay(month: m, week: w, weekday: d, time: t)
        }
        if s.first == "J" {
            s.removeFirst()
            guard let n = number(), (1...365).contains(n), let t = time() else { return nil }
            return .julian(day: n, time: t)
        }
        guard let n = number(), (0...365).contains(n), let t = time() else { return nil }
        return .zeroBased(day: n, time: t)
    }
}
