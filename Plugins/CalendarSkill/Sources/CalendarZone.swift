import Foundation

/// A clock that calendar times are read on: an IANA zone Foundation knows, or the observances of a
/// file's VTIMEZONE (RFC 5545 §3.6.5) when its TZID is not an IANA zone.
///
/// Contract: `secondsFromGMT(for:)` is total (defined for every instant, before the first and after the
/// last known transition) and cheap (a binary search for VTIMEZONE rules), so wall-clock arithmetic can
/// call it freely. Two zones are equal when they denote the same rules.
public struct CalendarZone: Sendable, Hashable, CustomStringConvertible {
    enum Storage: Sendable, Hashable {
        case foundation(TimeZone)
        case rules(VTimeZoneRules)
    }

    let storage: Storage

    public init(_ zone: TimeZone) {
        storage = .foundation(zone)
    }

    public init(rules: VTimeZoneRules) {
        storage = .rules(rules)
    }

    public static let utc = CalendarZone(TimeZone(identifier: "UTC")!)

    /// The IANA id, or the VTIMEZONE's TZID.
    public var identifier: String {
        switch storage {
        case .foundation(let zone): return zone.identifier
        case .rules(let rules): return rules.tzid
        }
    }

    /// The Foundation zone, when this is one.
    public var foundationZone: TimeZone? {
        if case .foundation(let zone) = storage { return zone }
        return nil
    }

    /// Offset east of UTC in force at `date`.
    public func secondsFromGMT(for date: Date) -> Int {
        switch storage {
        case .foundation(let zone): return zone.secondsFromGMT(for: date)
        case .rules(let rules): return rules.offset(at: Int(floor(date.timeIntervalSince1970)))
        }
    }

    public var description: String { identifier }
}

/// The transitions a VTIMEZONE's STANDARD and DAYLIGHT observances produce, as UTC instants with the
/// offset in force from each one on. Built by `VTimeZone.rules()`.
public struct VTimeZoneRules: Sendable, Hashable {
    public let tzid: String
    /// Seconds since 1970 (UTC) of each onset, ascending.
    let onsets: [Int]
    /// The offset in force from the matching onset on (its TZOFFSETTO).
    let offsets: [Int]
    /// The offset before the first onset (the earliest observance's TZOFFSETFROM).
    let initialOffset: Int

    init(tzid: String, onsets: [Int], offsets: [Int], initialOffset: Int) {
        self.tzid = tzid
        self.onsets = onsets
        self.offsets = offsets
        self.initialOffset = initialOffset
    }

    /// The offset at `utcSeconds`: that of the last onset at or before it.
    func offset(at utcSeconds: Int) -> Int {
        var low = 0, high = onsets.count   // first index with onset > utcSeconds
        while low < high {
            let mid = (low + high) / 2
            if onsets[mid] <= utcSeconds { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    public static func == (lhs: VTimeZoneRules, rhs: VTimeZoneRules) -> Bool {
        lhs.tzid == rhs.tzid && lhs.initialOffset == rhs.initialOffset && lhs.onsets == rhs.onsets && lhs.offsets == rhs.offsets
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tzid)
        hasher.combine(onsets.count)
    }
}
