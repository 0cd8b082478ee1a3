import Foundation

/// Which messages a triage run returns.
public struct TriageOptions: Sendable {
    /// Only messages dated at or after this instant (messages without any date are left out then).
    public var since: Date?
    /// At most this many messages, the newest first.
    public var limit: Int
    public var unreadOnly: Bool
    /// The zone for floating calendar times (no TZID, no `Z`).
    public var floatingZone: TimeZone

    public init(since: Date? = nil, limit: Int = 50, unreadOnly: Bool = false, floatingZone: TimeZone = .current) {
        self.since = since
        self.limit = limit
        self.unreadOnly = unreadOnly
        self.floatingZone = floatingZone
    }
}

/// A message with everything triage found out about it.
public struct TriagedMessage: Sendable {
    /// Message-ID without angle brackets, else the Maildir unique name or `file.mbox#N`.
    public let id: String
    public let source: String
    public let message: MailMessage
    /// The Date header, else the delivery time (Maildir name, mbox `From ` line) in UTC; nil if neither.
    public let date: MailDate?
    public let seen: Bool
    public let labels: [MailLabel]
    public let summary: String
    public let invitation: Invitation?
    /// Message problems (charsets, MIME, dates, calendar) — the message was still read.
    public let problems: [String]
}

/// The result of reading and triaging a mailbox.
public struct TriageRun: Sendable {
    public let path: String
    public let format: Mailbox.Format
    /// Messages read successfully, before filters.
    public let total: Int
    /// The messages that pass the filters, newest first, at most `limit`.
    public let messages: [TriagedMessage]
    /// How many passed the filters before `limit` cut the list.
    public let matched: Int
    public let skipped: [SkippedMessage]
    /// True when `isCancelled` stopped the run early (the other fields cover what was read).
    public let cancelled: Bool
}

/// Reads a mailbox, parses and classifies every message, filters, sorts and limits. Only the newest
/// `limit` messages that pass the filters are kept while reading, so memory follows `limit`, not the
/// size of the mailbox.
///
/// Contract: throws only `MailboxError` (the path is not a mailbox, or cannot be read at all). A message
/// that cannot be read or is not a message is skipped with its reason; one that is read with problems is
/// kept and carries them. Seen: Maildir flags (`S` in `cur/`); mbox `Status:` containing `R`. Order:
/// newest first, undated last, then by source. `isCancelled` is polled between messages.
public enum MailTriage {
    public static func run(path: String, options: TriageOptions, isCancelled: () -> Bool = { false }) throws(MailboxError) -> TriageRun {
        let mailbox = try Mailbox.open(path: path)
        var skipped = mailbox.skipped
        var total = 0, matched = 0
        var kept: [TriagedMessage] = []   // newest first, at most limit
        let limit = max(0, options.limit)
        var cancelled = false
        for stored in mailbox.messages {
            if isCancelled() { cancelled = true; break }
            do {
                let m = try triage(stored, options: options)
                total += 1
                guard passes(m, options) else { continue }
                matched += 1
                guard kept.count < limit || newestFirst(m, kept[kept.count - 1]) else { continue }
                kept.insert(m, at: kept.firstIndex { newestFirst(m, $0) } ?? kept.count)
                if kept.count > limit { kept.removeLast() }
            } catch let error as MailboxError {
                if case .unreadable(_, let reason) = error { skipped.append(SkippedMessage(source: stored.source, reason: reason)) }
            } catch let error as MailMessage.ParseError {
                skipped.append(SkippedMessage(source: stored.source, reason: error.description))
            } catch {
                skipped.append(SkippedMessage(source: stored.source, reason: String(describing: error)))
            }
        }
        return TriageRun(path: mailbox.path, format: mailbox.format, total: total, messages: kept, matched: matched,
                         skipped: skipped, cancelled: cancelled)
    }

    /// The `unreadOnly` and `since` filters.
    static func passes(_ m: TriagedMessage, _ options: TriageOptions) -> Bool {
        if options.unreadOnly && m.seen { return false }
        if let since = options.since { return (m.date?.date).map { $0 >= since } ?? false }
        return true
    }

    /// Parses and classifies one stored message.
    public static func triage(_ stored: StoredMessage, options: TriageOptions) throws -> TriagedMessage {
        let message = try MailMessage.parse(try stored.load())
        var problems = message.problems
        var date = message.date
        if date == nil, let delivered = stored.delivered {
            date = MailDate(date: delivered, offsetSeconds: 0)
            problems.append(message.headers["Date"] == nil ? "no Date header; the delivery time is used" : "the delivery time is used instead")
        }
        let invitation = message.calendars.lazy.compactMap { Invitation(ics: $0, fallbackZone: options.floatingZone) }.first
        problems += invitation?.problems ?? []
        let seen = stored.seen ?? (message.headers["Status"]?.contains("R") ?? false)
        return TriagedMessage(id: message.messageID ?? stored.fallbackID, source: stored.source, message: message,
                              date: date, seen: seen, labels: Classifier.labels(message, invitation: invitation),
                              summary: ReadableText.summary(message.text), invitation: invitation, problems: problems)
    }

    static func newestFirst(_ a: TriagedMessage, _ b: TriagedMessage) -> Bool {
        switch (a.date?.date, b.date?.date) {
        case let (x?, y?) where x != y: return x > y
        case (nil, _?): return false
        case (_?, nil): return true
        default: return a.source < b.source
        }
    }
}
