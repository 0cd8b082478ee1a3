import Foundation

/// One VEVENT, as written in the file (before recurrence expansion).
public struct ICSEvent: Sendable, Equatable {
    /// How the end of the event was given.
    public enum End: Sendable, Equatable {
        case dtend(ICSDateValue)
        case duration(ICSDuration)
        /// Neither: a DATE start lasts one day, a DATE-TIME start lasts zero seconds (RFC 5545 §3.6.1).
        case none
    }

    public var uid: String
    public var summary: String?
    public var description: String?
    public var location: String?
    /// Uppercased STATUS (`CONFIRMED`, `TENTATIVE`, `CANCELLED`), if present.
    public var status: String?
    /// False for `TRANSP:TRANSPARENT` (does not block time).
    public var isOpaque: Bool = true
    public var start: ICSDateValue
    public var end: End = .none
    public var rule: RecurrenceRule?
    public var rdates: [RDate] = []
    public var exdates: [ICSDateValue] = []
    /// Set on an override of one instance of a recurring event.
    public var recurrenceID: ICSDateValue?
    public var sequence: Int = 0
    /// Display name of the calendar the event came from.
    public var calendar: String
    /// Where the event was defined, for messages.
    public var file: String
    public var line: Int

    public init(uid: String, start: ICSDateValue, calendar: String, file: String, line: Int) {
        self.uid = uid
        self.start = start
        self.calendar = calendar
        self.file = file
        self.line = line
    }

    public var isCancelled: Bool { status == "CANCELLED" }
    public var isAllDay: Bool { start.isDate }
}

/// One RDATE value: a date, a date-time, or a PERIOD (`start/end` or `start/duration`), whose end then
/// gives that occurrence its own length.
public struct RDate: Sendable, Hashable {
    public var start: ICSDateValue
    public var end: ICSDateValue?

    public init(_ start: ICSDateValue, end: ICSDateValue? = nil) {
        self.start = start
        self.end = end
    }
}

/// A problem found while reading a calendar file: `work.ics:42: event skipped: …`.
public struct ICSDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case warning, error }

    public var severity: Severity
    public var file: String
    public var line: Int
    public var message: String

    public init(_ severity: Severity, file: String, line: Int, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }
}

/// A parsed calendar file.
public struct ICSCalendar: Sendable {
    /// `X-WR-CALNAME`, else the file name without `.ics`.
    public var name: String
    public var path: String
    public var events: [ICSEvent]
    public var diagnostics: [ICSDiagnostic]

    public init(name: String, path: String, events: [ICSEvent], diagnostics: [ICSDiagnostic]) {
        self.name = name
        self.path = path
        self.events = events
        self.diagnostics = diagnostics
    }
}
