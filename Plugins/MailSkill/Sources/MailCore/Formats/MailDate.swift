import Foundation

/// An instant and the UTC offset it was written with: an RFC 5322 `Date:` header, or the asctime date of
/// an mbox `From ` line.
///
/// Contract of `init?(rfc5322:)`: `[Day,] D Mon YYYY HH:MM[:SS] zone`, leniently: comments such as
/// `(CET)` ignored, any case, two-digit years (< 50 → 20xx, else 19xx, RFC 5322 §4.3), zones `+hhmm`,
/// `-hhmm`, `UT`, `GMT`, `Z` and the US names (`EST` … `PDT`); a missing or unknown zone means UTC
/// (`-0000`, "no zone information"). Impossible dates and times, and years outside 1000–9999, give nil. `rfc3339` keeps the offset.
public struct MailDate: Sendable, Equatable {
    public let date: Date
    public let offsetSeconds: Int

    public init(date: Date, offsetSeconds: Int) {
        self.date = date
        self.offsetSeconds = offsetSeconds
    }

    public var rfc3339: String { RFC3339.format(date, offsetSeconds: offsetSeconds) }
    /// The calendar day where the sender was.
    public var day: CivilDay { CivilDay(date, offsetSeconds: offsetSeconds) }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let zones: [String: Int] = ["ut": 0, "utc": 0, "gmt": 0, "z": 0, "edt": -4, "est": -5, "cdt": -5,
                                       "cst": -6, "mdt": -6, "mst": -7, "pdt": -7, "pst": -8]

    public init?(rfc5322 raw: String) {
        var text = ""
        var depth = 0
        for c in raw {
            if c == "(" { depth += 1 } else if c == ")" { depth = max(0, depth - 1) } else if depth == 0 { text.append(c) }
        }
        var tokens = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
        if let first = tokens.first, first.count >= 3, first.allSatisfy(\.isLetter) { tokens.removeFirst() }
        guard tokens.count >= 4, let day = Int(tokens[0]), let month = Self.month(tokens[1]),
              var year = Int(tokens[2]), let time = Self.time(tokens[3]) else { return nil }
        if tokens[2].count <= 2 { year += year < 50 ? 2000 : 1900 } else if tokens[2].count == 3 { year += 1900 }
        let offset = tokens.count > 4 ? Self.offset(tokens[4]) : 0
        self.init(day: day, month: month, year: year, time: time, offset: offset)
    }

    /// The date of an mbox `From sender Www Mmm dd hh:mm:ss yyyy` line (asctime, UTC by convention).
    public init?(asctime raw: String) {
        let t = raw.lowercased().split(separator: " ").map(String.init)
        guard let m = t.firstIndex(where: { Self.month($0) != nil }), m + 3 < t.count,
              let month = Self.month(t[m]), let day = Int(t[m + 1]), let time = Self.time(t[m + 2]),
              let year = Int(t[m + 3]) else { return nil }
        self.init(day: day, month: month, year: year, time: time, offset: 0)
    }

    private init?(day: Int, month: Int, year: Int, time: (Int, Int, Int), offset: Int) {
        guard (1000...9999).contains(year), let civil = CivilDay(year: year, month: month, day: day) else { return nil }
        let seconds = civil.dayNumber * 86_400 + time.0 * 3600 + time.1 * 60 + time.2 - offset
        self.init(date: Date(timeIntervalSince1970: TimeInterval(seconds)), offsetSeconds: offset)
    }

    private static func month(_ s: String) -> Int? {
        months.firstIndex(of: String(s.prefix(3))).map { $0 + 1 }
    }

    private static func time(_ s: String) -> (Int, Int, Int)? {
        let p = s.split(separator: ":").map { Int($0) }
        guard p.count == 2 || p.count == 3, let h = p[0], let m = p[1], h < 24, m < 60 else { return nil }
        let sec = p.count == 3 ? p[2] : 0
        guard let sec, sec <= 60 else { return nil }
        return (h, m, min(sec, 59))
    }

    private static func offset(_ s: String) -> Int {
        if let hours = zones[s] { return hours * 3600 }
        let b = Array(s.utf8)
        guard b.count == 5, b[0] == 43 || b[0] == 45, let v = Int(s.dropFirst()) else { return 0 }
        let seconds = (v / 100) * 3600 + (v % 100) * 60
        return b[0] == 45 ? -seconds : seconds
    }
}
