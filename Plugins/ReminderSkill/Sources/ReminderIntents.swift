import SkillKit

/// The `reminder.*` intents. Input and output field names are a contract with other tools.
enum ReminderIntents {
    static let reminderSchema = #"""
    {"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"due":{"type":"string","format":"date-time"},"notes":{"type":"string"},"createdAt":{"type":"string","format":"date-time"},"completed":{"type":"boolean"},"completedAt":{"type":"string","format":"date-time"}},"required":["id","title","createdAt","completed"]}
    """#

    static let create = SkillIntent(
        name: "reminder.create",
        description: "Create a reminder with a title and, optionally, a due time and notes.",
        inputSchema: #"""
        {"type":"object","properties":{"title":{"type":"string","minLength":1,"description":"What to be reminded of."},"due":{"type":"string","format":"date-time","description":"When, as an RFC 3339 date-time with offset, e.g. 2025-03-02T09:00:00+08:00."},"notes":{"type":"string","description":"Extra details."}},"required":["title"],"additionalProperties":false}
        """#,
        outputSchema: reminderSchema,
        flags: [],
        keywords: ["en": ["remind", "reminder", "remember", "todo"], "zh": ["提醒", "记得", "别忘了", "待办"]],
        examples: [
            SkillExample(lang: "en", text: "Remind me to call mom tomorrow at 9am",
                         input: #"{"title":"Call mom","due":"2025-03-02T09:00:00+08:00"}"#),
            SkillExample(lang: "zh", text: "提醒我明天下午三点开会",
                         input: #"{"title":"开会","due":"2025-03-02T15:00:00+08:00"}"#),
            SkillExample(lang: "en", text: "Add a todo: buy milk", input: #"{"title":"Buy milk"}"#),
        ])

    static let list = SkillIntent(
        name: "reminder.list",
        description: "List reminders, soonest due first (reminders without a due time last); completed ones only if asked.",
        inputSchema: #"""
        {"type":"object","properties":{"includeCompleted":{"type":"boolean","default":false,"description":"Also list completed reminders."}},"additionalProperties":false}
        """#,
        outputSchema: #"{"type":"object","properties":{"reminders":{"type":"array","items":"# + reminderSchema + #"}},"required":["reminders"]}"#,
        flags: [.readOnly, .idempotent],
        keywords: ["en": ["reminders", "my reminders", "todo list", "to-do"], "zh": ["提醒事项", "我的提醒", "待办事项", "待办清单"]],
        examples: [
            SkillExample(lang: "en", text: "What are my reminders?", input: "{}"),
            SkillExample(lang: "zh", text: "我有哪些待办？", input: "{}"),
        ])

    static let complete = SkillIntent(
        name: "reminder.complete",
        description: "Mark a reminder as done, by its id. Completing a completed reminder changes nothing.",
        inputSchema: #"""
        {"type":"object","properties":{"id":{"type":"string","minLength":1,"description":"The reminder's id, as reminder.create or reminder.list returned it."}},"required":["id"],"additionalProperties":false}
        """#,
        outputSchema: reminderSchema,
        flags: [.idempotent],
        keywords: ["en": ["done", "complete", "finished", "mark as done"], "zh": ["完成", "做完了", "已完成"]],
        examples: [SkillExample(lang: "en", text: "Mark the milk reminder as done")])

    static let all = [create, list, complete]
}
