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
        keywords: ["en": ["remind", "reminder", "remember", "todo", "don't let me forget", "set a reminder", "ping me", "note to self", "make a note"],
                   "zh": ["提醒", "记得", "别忘了", "待办", "叫我", "记一下", "记着", "设个提醒", "别让我忘了"]],
        examples: [
            SkillExample(lang: "en", text: "Remind me to call mom tomorrow at 9am",
                         input: #"{"title":"Call mom","due":"2025-03-02T09:00:00+08:00"}"#),
            SkillExample(lang: "zh", text: "提醒我明天下午三点开会",
                         input: #"{"title":"开会","due":"2025-03-02T15:00:00+08:00"}"#),
            SkillExample(lang: "en", text: "Add a todo: buy milk", input: #"{"title":"Buy milk"}"#),
            SkillExample(lang: "en", text: "Set a reminder to pay the bills on Friday"),
            SkillExample(lang: "en", text: "Don't let me forget the dentist at 3pm"),
            SkillExample(lang: "en", text: "Ping me in 2 hours to check the laundry"),
            SkillExample(lang: "en", text: "Make a note to buy stamps"),
            SkillExample(lang: "en", text: "Remember to call the bank tomorrow morning"),
            SkillExample(lang: "zh", text: "叫我明天七点起床"),
            SkillExample(lang: "zh", text: "记一下，周五交报告"),
            SkillExample(lang: "zh", text: "别让我忘了下午去银行"),
            SkillExample(lang: "zh", text: "给我设个提醒：晚上八点吃药"),
            SkillExample(lang: "zh", text: "三小时后提醒我关窗户"),
            SkillExample(lang: "zh", text: "加个待办：明天取快递"),
        ])

    static let list = SkillIntent(
        name: "reminder.list",
        description: "List reminders, soonest due first (reminders without a due time last); completed ones only if asked.",
        inputSchema: #"""
        {"type":"object","properties":{"includeCompleted":{"type":"boolean","default":false,"description":"Also list completed reminders."}},"additionalProperties":false}
        """#,
        outputSchema: #"{"type":"object","properties":{"reminders":{"type":"array","items":"# + reminderSchema + #"}},"required":["reminders"]}"#,
        flags: [.readOnly, .idempotent],
        keywords: ["en": ["reminders", "my reminders", "todo list", "to-do list", "my todos", "todos", "open reminders"],
                   "zh": ["提醒事项", "我的提醒", "待办事项", "待办清单", "哪些提醒", "什么提醒", "提醒列表", "我的待办", "哪些待办"]],
        examples: [
            SkillExample(lang: "en", text: "What are my reminders?", input: "{}"),
            SkillExample(lang: "zh", text: "我有哪些待办？", input: "{}"),
            SkillExample(lang: "en", text: "Show my reminders"),
            SkillExample(lang: "en", text: "List my todos"),
            SkillExample(lang: "en", text: "What's on my to-do list?"),
            SkillExample(lang: "en", text: "Which reminders are still open?"),
            SkillExample(lang: "en", text: "Do I have any reminders today?"),
            SkillExample(lang: "zh", text: "看看我的提醒"),
            SkillExample(lang: "zh", text: "我还有哪些待办"),
            SkillExample(lang: "zh", text: "列出所有提醒"),
            SkillExample(lang: "zh", text: "今天有什么提醒？"),
            SkillExample(lang: "zh", text: "我的待办清单"),
        ])

    static let complete = SkillIntent(
        name: "reminder.complete",
        description: "Mark a reminder as done, by its id. Completing a completed reminder changes nothing.",
        inputSchema: #"""
        {"type":"object","properties":{"id":{"type":"string","minLength":1,"description":"The reminder's id, as reminder.create or reminder.list returned it."}},"required":["id"],"additionalProperties":false}
        """#,
        outputSchema: reminderSchema,
        flags: [.idempotent],
        keywords: ["en": ["done", "complete", "finished", "mark as done", "tick off", "check off", "mark done"],
                   "zh": ["完成", "做完了", "已完成", "搞定", "标记完成", "做好了", "完成了"]],
        examples: [SkillExample(lang: "en", text: "Mark the milk reminder as done"),
                   SkillExample(lang: "en", text: "I've finished the report, check it off"),
                   SkillExample(lang: "en", text: "Tick off the call mom reminder"),
                   SkillExample(lang: "zh", text: "把买牛奶的提醒标记为完成"),
                   SkillExample(lang: "zh", text: "交报告那个已经做完了"),
                   SkillExample(lang: "zh", text: "给妈妈打电话的待办完成了")])

    static let all = [create, list, complete]
}
