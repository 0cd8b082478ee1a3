import Foundation
import SkillKit

/// Local reminders: create, list and complete, kept in a JSON-lines event log (see `ReminderStore`).
///
/// Configuration (the skill's section of the host config): `{"store": "/path/reminders.jsonl"}`; a relative
/// path is taken relative to the data directory, `~/` to `$HOME`. Default: `<dataDir>/reminders.jsonl`.
struct RemindersSkill: AgentSkill {
    let id = "dev.skillhost.reminders"
    let name = "Reminders"
    let version = "1.0.0"
    let category = "productivity"
    let vendor = "skillhost"
    let description = "Creates, lists and completes reminders kept in a local file."
    let supportedIntents = ReminderIntents.all
    /// Its store lives in its data folder (always open to it), so it asks for nothing more. A `store`
    /// configured outside that folder needs a write grant from the owner.
    let permissions = SkillPermissions.none

    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        let store = ReminderStore(path: try Self.storePath(context))
        let warn: (String) -> Void = { context.log(.warning, $0) }
        do {
            switch input.intent {
            case "reminder.create":
                let params = try input.decode(CreateInput.self)
                try input.check(!params.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                                "field \"title\" must not be blank")
                if let due = params.due { _ = try SkillDates.instant(due, field: "due") }
                let reminder = try store.create(title: params.title, due: params.due, notes: params.notes,
                                                now: context.now, timeZone: context.timeZone)
                let zh = context.locale.lowercased().hasPrefix("zh")
                let when = reminder.due.map { zh ? "，时间 \($0)" : " due \($0)" } ?? ""
                return try SkillResult(reminder, message: zh ? "已创建提醒“\(reminder.title)”\(when)。" : "Created reminder \"\(reminder.title)\"\(when).")
            case "reminder.list":
                let params = try input.decode(ListInput.self)
                let reminders = try store.list(includeCompleted: params.includeCompleted ?? false, warn: warn)
                let noun = reminders.count == 1 ? "reminder" : "reminders"
                return try SkillResult(ListOutput(reminders: reminders), message: "\(reminders.count) \(noun).")
            case "reminder.complete":
                let params = try input.decode(CompleteInput.self)
                let reminder = try store.complete(id: params.id, now: context.now, timeZone: context.timeZone, warn: warn)
                return try SkillResult(reminder, message: "Completed reminder \"\(reminder.title)\".")
            default:
                throw SkillError.invalidInput("unknown intent \(input.intent)")
            }
        } catch let error as ReminderStoreError {
            switch error {
            case .notFound(let id): throw SkillError.invalidInput("field \"id\": no reminder with id \"\(id)\"")
            case .io: throw SkillError.unavailable("reminders store: \(error)")
            }
        }
    }

    /// Unavailable when the store's directory cannot be created or the log cannot be opened for appending.
    func healthCheck(context: SkillContext) async -> SkillHealth {
        do {
            let path = try Self.storePath(context)
            try ReminderStore(path: path).checkWritable()
            return SkillHealth(status: .ok, message: "reminders store \(path) is writable")
        } catch let error as SkillError {
            return .unavailable(error.message)
        } catch {
            return .unavailable("reminders store: \(error)")
        }
    }

    /// The log's path from the configuration (see the type's documentation).
    static func storePath(_ context: SkillContext) throws -> String {
        let config = try context.config(ReminderConfig.self)
        guard let store = config.store, !store.isEmpty else { return context.dataDirectory + "/reminders.jsonl" }
        if store.hasPrefix("/") { return store }
        if store.hasPrefix("~/") { return NSHomeDirectory() + store.dropFirst(1) }
        return context.dataDirectory + "/" + store
    }
}

struct ReminderConfig: Decodable {
    let store: String?
}

struct CreateInput: Decodable {
    let title: String
    let due: String?
    let notes: String?
}

struct ListInput: Decodable {
    let includeCompleted: Bool?
}

struct ListOutput: Encodable {
    let reminders: [Reminder]
}

struct CompleteInput: Decodable {
    let id: String
}

@_cdecl("skillhost_entry")
public func skillhost_entry() -> UnsafeRawPointer {
    exportSkill(RemindersSkill())
}
