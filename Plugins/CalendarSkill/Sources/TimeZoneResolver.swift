import Foundation

/// Resolves `TZID` parameter values to the zone their times are read in.
///
/// Order, first match wins:
/// 1. an IANA id Foundation knows (`Europe/Warsaw`), also after normalization: surrounding quotes and
///    spaces dropped, spaces inside a path read as `_` (`America/Los Angeles`), and a leading slash or a
///    vendor prefix stripped (`/Europe/Stockholm`, `/mozilla.org/20050126_1/Europe/Berlin`,
///    `/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires`);
/// 2. the file's VTIMEZONE with that TZID, its STANDARD/DAYLIGHT observances evaluated (RFC 5545 §3.6.5),
///    or, when it has no usable observance, its `X-LIC-LOCATION`;
/// 3. a Windows zone name or display label through CLDR's windowsZones (`W. Europe Standard Time`,
///    `W. Europe Daylight Time`, `W. Europe`, `(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm,
///    Vienna`), plus a few older labels with an unambiguous meaning (`Western/Central Europe`).
/// Anything else is `.unknown`; the caller reads such times as floating and says so.
public struct TimeZoneResolver: Sendable {
    public enum Resolution: Sendable, Equatable {
        /// An IANA zone; `via` names the rule that found it when the TZID was not the id itself.
        case iana(TimeZone, via: String?)
        /// The file's VTIMEZONE, evaluated.
        case vtimezone(VTimeZoneRules)
        case unknown

        public var zone: CalendarZone? {
            switch self {
            case .iana(let zone, _): return CalendarZone(zone)
            case .vtimezone(let rules): return CalendarZone(rules: rules)
            case .unknown: return nil
            }
        }
    }

    public var vtimezones: [String: VTimeZone]

    public init(vtimezones: [String: VTimeZone] = [:]) {
        self.vtimezones = vtimezones
    }

    public func resolve(_ tzid: String) -> Resolution {
        let id = Self.trimmed(tzid)
        if let zone = Self.iana(id) { return .iana(zone, via: nil) }
        if let (zone, rule) = Self.normalizedIANA(id) { return .iana(zone, via: rule) }
        if let vtz = vtimezones[tzid] ?? vtimezones[id] {
            if let rules = vtz.rules() { return .vtimezone(rules) }
            if let location = vtz.location, let zone = Self.iana(Self.trimmed(location)) {
                return .iana(zone, via: "its VTIMEZONE's X-LIC-LOCATION")
            }
        }
        if let name = Self.windowsZone(id), let zone = Self.iana(name) { return .iana(zone, via: "CLDR windowsZones") }
        return .unknown
    }

    // MARK: - Normalization

    static func trimmed(_ tzid: String) -> String {
        var id = tzid.trimmedSpaces
        if id.count >= 2, id.hasPrefix("\""), id.hasSuffix("\"") { id = String(id.dropFirst().dropLast()) }
        return id.trimmedSpaces
    }

    /// An id Foundation knows as written. Ids that merely look like offsets (`UTC+11`, `GMT-3`) are not
    /// taken: their sign conventions differ between writers, and the file's VTIMEZONE says what is meant.
    static func iana(_ id: String) -> TimeZone? {
        guard !id.isEmpty, !id.contains(" "), id.unicodeScalars.allSatisfy({ $0.isASCII }) else { return nil }
        let upper = id.uppercased()
        if (upper.hasPrefix("UTC") || upper.hasPrefix("GMT")) && upper.count > 3 && !upper.hasPrefix("GMT0") {
            return nil
        }
        return TimeZone(identifier: id)
    }

    /// IANA ids hidden behind a leading slash, a vendor prefix or spaces for underscores.
    static func normalizedIANA(_ id: String) -> (TimeZone, String)? {
        if id.contains("/"), id.contains(" ") {
            let underscored = id.split(separator: "/").map { $0.trimmedSpaces.replacingOccurrences(of: " ", with: "_") }
                .joined(separator: "/")
            if let zone = iana(underscored) { return (zone, "spaces read as underscores") }
        }
        let parts = id.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 2 || id.hasPrefix("/") else { return nil }
        for take in [3, 2, 1] where parts.count >= take && (take > 1 || ["UTC", "GMT", "Etc/UTC"].contains(String(parts.last!))) {
            let tail = parts.suffix(take).joined(separator: "/")
            if tail != id, let zone = iana(tail) { return (zone, "prefix \"\(id.dropLast(tail.count))\" stripped") }
        }
        return nil
    }

    /// Windows names (exact, `… Daylight Time` read as `… Standard Time`, or without `Standard Time`),
    /// Windows display labels (`(UTC+01:00) …`, also written `(GMT+01.00) …`), and a few older labels.
    static func windowsZone(_ id: String) -> String? {
        let key = normalizedKey(id)
        if let zone = windowsTables.names[key] { return zone }
        if key.hasSuffix(" daylight time"), let zone = windowsTables.names[String(key.dropLast(" daylight time".count)) + " standard time"] {
            return zone
        }
        if let zone = windowsTables.names[key + " standard time"] { return zone }
        if let zone = windowsTables.labels[key] { return zone }
        // "(GMT+01.00) Amsterdam, Berlin, …": older Windows spelled the offset differently.
        if key.hasPrefix("(gmt") {
            var label = "(utc" + key.dropFirst(4)
            if let close = label.firstIndex(of: ")") {
                label = label[..<close].replacingOccurrences(of: ".", with: ":") + label[close...]
            }
            if let zone = windowsTables.labels[label] { return zone }
        }
        return legacyLabels[key]
    }

    /// Labels older Exchange and Lotus Notes servers wrote, not in CLDR, each with one sensible reading.
    static let legacyLabels: [String: String] = [
        "western/central europe": "Europe/Berlin",   // Exchange 2003's name for W. Europe Standard Time
    ]

    /// Lowercased, diacritics folded, runs of spaces collapsed.
    static func normalizedKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    static let windowsTables: (names: [String: String], labels: [String: String]) = {
        var names: [String: String] = [:]
        var labels: [String: String] = [:]
        for (name, zone) in WindowsZones.names { names[normalizedKey(name)] = zone }
        for (label, zone) in WindowsZones.labels {
            labels[normalizedKey(label)] = zone
            // The label without its "(UTC+01:00) " prefix, when that is not shared by two zones.
            if let close = label.firstIndex(of: ")") {
                let bare = normalizedKey(String(label[label.index(after: close)...]))
                if !bare.isEmpty { labels[bare] = labels[bare] == nil || labels[bare] == zone ? zone : "" }
            }
        }
        return (names, labels.filter { !$0.value.isEmpty })
    }()

    /// `+0100`, `-0530`, `+013045` → seconds east of UTC; nil unless hours < 24 and minutes, seconds < 60.
    public static func parseUTCOffset(_ raw: String) -> Int? {
        let bytes = Array(raw.trimmedSpaces.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              let h = CivilDate.digits(bytes[1..<3]), let m = CivilDate.digits(bytes[3..<5]), h < 24, m < 60 else { return nil }
        let s = bytes.count == 7 ? (CivilDate.digits(bytes[5..<7]) ?? 60) : 0
        guard s < 60 else { return nil }
        let value = h * 3600 + m * 60 + s
        return bytes[0] == UInt8(ascii: "-") ? -value : value
    }
}
