import Foundation
import SkillKit

/// One reminder, as `reminder.*` intents return it. Field names are a contract with callers.
/// Times are RFC 3339 strings: `due` exactly as the caller gave it, `createdAt`/`completedAt` in the
/// caller's time zone at the moment of the call.
struct Reminder: Codable, Sendable, Equatable {
    var id: String
    var title: String
    var due: String?
    var notes: String?
    var createdAt: String
    var completed: Bool
    var completedAt: String?

    /// `due` as an instant (`nil` when absent or unreadable).
    var dueDate: Date? { due.flatMap(SkillDates.parseInstant) }
    var createdDate: Date? { SkillDates.parseInstant(createdAt) }

    /// The order of `reminder.list`: by due (no due last), then createdAt (`ReminderStore.list` breaks
    /// remaining ties by log order).
    static func listOrder(_ a: Reminder, _ b: Reminder) -> Bool {
        switch (a.dueDate, b.dueDate) {
        case let (x?, y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return (a.createdDate ?? .distantPast) < (b.createdDate ?? .distantPast)
        }
    }
}

/// One line of the store's event log.
///   `{"op":"create","id":…,"title":…,"due":…?,"notes":…?,"createdAt":…}`
///   `{"op":"complete","id":…,"at":…}`
struct ReminderEvent: Codable, Sendable, Equatable {
    var op: String
    var id: String
    var title: String?
    var due: String?
    var notes: String?
    var createdAt: String?
    var at: String?

    static func create(_ r: Reminder) -> ReminderEvent {
        ReminderEvent(op: "create", id: r.id, title: r.title, due: r.due, notes: r.notes, createdAt: r.createdAt, at: nil)
    }

    static func complete(id: String, at: String) -> ReminderEvent {
        ReminderEvent(op: "complete", id: id, title: nil, due: nil, notes: nil, createdAt: nil, at: at)
    }
}
