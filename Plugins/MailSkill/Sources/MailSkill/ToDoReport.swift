import Foundation
import MailCore

/// The result of `mail.todos` (see `MailIntents.todosOutput` for every field), and its sentence.
struct ToDoReport: Encodable {
    struct Item: Encodable {
        let text: String
        let kind: String
        let due: String?
        let source: Source
    }

    struct Source: Encodable {
        let id: String
        let subject: String
        let from: String
        let date: String?
    }

    let mailbox: String
    let format: String
    let messages: Int
    let count: Int
    let todos: [Item]
    let skipped: [SkippedMessage]
    let message: String

    /// To-dos sorted by due day (undated last), then in message order (newest first).
    init(_ run: TriageRun, language: TextLanguage) {
        var items: [(item: Item, due: CivilDay?, order: Int)] = []
        for (n, m) in run.messages.enumerated() {
            let source = Source(id: m.id, subject: m.message.subject, from: m.message.from?.display ?? "", date: m.date?.rfc3339)
            for todo in ToDoExtractor.todos(m, language: language) {
                items.append((Item(text: todo.text, kind: todo.kind.rawValue, due: todo.due?.description, source: source), todo.due, n))
            }
        }
        items.sort { a, b in
            switch (a.due, b.due) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.order < b.order
            }
        }
        mailbox = run.path
        format = run.format.rawValue
        messages = run.messages.count
        todos = items.map(\.item)
        count = todos.count
        skipped = run.skipped
        message = Self.sentence(todos, messages: messages, language: language)
    }

    /// "6 to-dos from 8 messages; the first due (2026-11-26): Please confirm by tonight."
    static func sentence(_ todos: [Item], messages: Int, language: TextLanguage) -> String {
        let first = todos.first { $0.due != nil }
        switch language {
        case .en:
            if todos.isEmpty { return "No to-dos in \(messages) message\(messages == 1 ? "" : "s")." }
            var s = "\(todos.count) to-do\(todos.count == 1 ? "" : "s") from \(messages) message\(messages == 1 ? "" : "s")"
            if let first, let due = first.due { s += "; the first due (\(due)): \(first.text)" }
            return ".?!。？！".contains(s.last ?? " ") ? s : s + "."
        case .zh:
            if todos.isEmpty { return "\(messages) 封邮件中没有待办事项。" }
            var s = "从 \(messages) 封邮件中找到 \(todos.count) 项待办"
            if let first, let due = first.due { s += "；最早截止（\(due)）：\(first.text)" }
            return ".?!。？！".contains(s.last ?? " ") ? s : s + "。"
        }
    }
}
