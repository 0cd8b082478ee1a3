import Foundation
import SkillKit

/// Names, schemas, keywords and examples of `mail.triage` and `mail.todos`. Every field of the input and
/// of the results is described here; the host validates both against these schemas.
enum MailIntents {
    static let triage = "mail.triage"
    static let todos = "mail.todos"

    static let input = #"""
    {"type":"object","properties":{"path":{"type":"string","minLength":1,"description":"A Maildir folder (with cur/ and new/) or an mbox file. ~ is expanded; a relative path is resolved against the host's working directory. Default: the mailbox in this skill's config (key \"mailbox\")."},"since":{"type":"string","description":"Only messages dated on or after this: a day YYYY-MM-DD (from its start in the caller's time zone) or an RFC 3339 date-time."},"limit":{"type":"integer","minimum":1,"maximum":1000,"default":50,"description":"At most this many messages, the newest first."},"unreadOnly":{"type":"boolean","default":false,"description":"Only messages not yet seen (Maildir: no S flag or still in new/; mbox: no R in the Status header)."}},"additionalProperties":false}
    """#

    static let skipped = #"""
    {"type":"array","description":"Mailbox entries that are not readable messages; each was left out, the others were read.","items":{"type":"object","properties":{"source":{"type":"string","description":"The file in the Maildir (new/… or cur/…) or file.mbox#N."},"reason":{"type":"string","description":"Why, e.g. \"empty file\", \"Permission denied\"."}},"required":["source","reason"],"additionalProperties":false}}
    """#

    static let mailboxFields = #"""
    "mailbox":{"type":"string","description":"The mailbox read, as an absolute path."},"format":{"type":"string","enum":["maildir","mbox"],"description":"What the path was read as."}
    """#.trimmingCharacters(in: .whitespacesAndNewlines)

    static let labelEnum = #"["invoice","meeting","newsletter","personal"]"#

    static let triageOutput = #"""
    {"type":"object","properties":{\#(mailboxFields),"total":{"type":"integer","minimum":0,"description":"Messages read from the mailbox, before since, unreadOnly and limit."},"matched":{"type":"integer","minimum":0,"description":"Messages that pass since and unreadOnly, before limit."},"messages":{"type":"array","description":"The messages, newest first.","items":{"type":"object","properties":{"id":{"type":"string","description":"The Message-ID without angle brackets; without one, the Maildir file's unique name or file.mbox#N."},"source":{"type":"string","description":"Where the message is: new/… or cur/… in the Maildir, or file.mbox#N."},"from":{"type":"string","description":"The sender as \"Name <address>\" (name decoded), or the address alone; empty without a From header."},"fromAddress":{"type":"string","description":"The sender's address alone."},"subject":{"type":"string","description":"The subject, RFC 2047 encoded words decoded (UTF-8, GB2312/GBK, ISO-8859-1 …)."},"date":{"type":"string","format":"date-time","description":"RFC 3339 with the sender's offset, from the Date header (else the delivery time in UTC); absent when there is neither."},"labels":{"type":"array","items":{"type":"string","enum":\#(labelEnum)},"description":"invoice: invoice/receipt/amount-due words (en, zh) in the subject or an attachment name, or in the body with an amount; meeting: a text/calendar part with METHOD:REQUEST or invitation words; newsletter: List-Unsubscribe, List-Id or Precedence: bulk; personal: none of these, from a person (not noreply, billing, notifications …)."},"seen":{"type":"boolean","description":"Read already: Maildir S flag (in cur/), mbox Status R."},"summary":{"type":"string","description":"The first meaningful lines of the text (greetings, quotes and signatures left out), at most 200 characters."},"event":{"type":"object","description":"For a message with a calendar part: its first event.","properties":{"summary":{"type":"string","description":"The event's SUMMARY (else the subject)."},"start":{"type":"string","description":"RFC 3339 with the offset of the event's time zone (TZID; UTC for …Z times; the caller's zone for floating times), or YYYY-MM-DD for an all-day event."},"end":{"type":"string","description":"Same form as start (exclusive end)."},"location":{"type":"string","description":"The event's LOCATION."}},"required":["summary"],"additionalProperties":false},"attachments":{"type":"array","description":"Parts that are attachments (not the message text).","items":{"type":"object","properties":{"name":{"type":"string","description":"The file name, decoded."},"type":{"type":"string","description":"The MIME type, e.g. application/pdf."},"bytes":{"type":"integer","minimum":0,"description":"Decoded size."},"message":{"type":"object","description":"For an attached (forwarded) message/rfc822 part: the message inside, opened to 3 levels.","properties":{"from":{"type":"string"},"fromAddress":{"type":"string"},"subject":{"type":"string"},"date":{"type":"string","format":"date-time"},"text":{"type":"string","description":"Its text (at most 2000 characters)."},"attachments":{"type":"array","description":"Its own attachments, same shape.","items":{"type":"object"}}},"required":["from","fromAddress","subject","text","attachments"],"additionalProperties":false}},"required":["type","bytes"],"additionalProperties":false}},"problems":{"type":"array","items":{"type":"string"},"description":"What could not be read exactly (an unknown charset, broken MIME, a bad date); the rest of the message was read."}},"required":["id","source","from","fromAddress","subject","labels","seen","summary","attachments","problems"],"additionalProperties":false}},"counts":{"type":"object","description":"Messages per label among those returned, and how many are unread.","properties":{"invoice":{"type":"integer","minimum":0},"meeting":{"type":"integer","minimum":0},"newsletter":{"type":"integer","minimum":0},"personal":{"type":"integer","minimum":0},"unread":{"type":"integer","minimum":0}},"required":["invoice","meeting","newsletter","personal","unread"],"additionalProperties":false},"skipped":\#(skipped),"message":{"type":"string","description":"One sentence for people, in Chinese when the caller's locale starts with zh: \"8 messages: 2 invoices, 2 meeting invitations, …; 2 unread.\""}},"required":["mailbox","format","total","matched","messages","counts","skipped","message"],"additionalProperties":false}
    """#

    static let todosOutput = #"""
    {"type":"object","properties":{\#(mailboxFields),"messages":{"type":"integer","minimum":0,"description":"Messages looked at (after since, unreadOnly and limit)."},"count":{"type":"integer","minimum":0,"description":"Number of to-dos."},"todos":{"type":"array","description":"Sorted by due day (undated last), then newest message first.","items":{"type":"object","properties":{"text":{"type":"string","description":"The request sentence as written, or for invoices \"Pay invoice N (amount, due day)\" and for invitations \"Reply to invitation: …\" (in Chinese for a zh locale)."},"kind":{"type":"string","enum":["request","deadline","payment","invitation"],"description":"request: the sender asks for something; deadline: a request with deadline words (deadline, due, 截止, 之前); payment: an invoice to pay; invitation: an invitation to answer."},"due":{"type":"string","format":"date","description":"The day it is due, YYYY-MM-DD: a day the text names (tomorrow, Friday, 12月5日, 明天 …) resolved against the message's Date in the sender's time zone; an invoice's due date; an invitation's start day. Absent when none is known."},"source":{"type":"object","description":"The message it comes from.","properties":{"id":{"type":"string","description":"As in mail.triage."},"subject":{"type":"string","description":"Decoded subject."},"from":{"type":"string","description":"Sender as \"Name <address>\"."},"date":{"type":"string","format":"date-time","description":"The message's date, RFC 3339."}},"required":["id","subject","from"],"additionalProperties":false}},"required":["text","kind","source"],"additionalProperties":false}},"skipped":\#(skipped),"message":{"type":"string","description":"One sentence for people (Chinese for a zh locale): how many to-dos and the first one due."}},"required":["mailbox","format","messages","count","todos","skipped","message"],"additionalProperties":false}
    """#

    static let all: [SkillIntent] = [
        SkillIntent(
            name: triage,
            description: "Read a mailbox (Maildir or mbox) and label each message as invoice, meeting invitation, newsletter or personal, with sender, decoded subject, date, read state, a short summary and, for invitations, the event.",
            inputSchema: input,
            outputSchema: triageOutput,
            flags: [.readOnly, .idempotent],
            keywords: ["en": ["mail", "email", "inbox", "triage", "unread", "newsletter", "invoice", "invitation", "mailbox"],
                       "zh": ["邮件", "收件箱", "邮箱", "未读", "分类", "发票", "会议邀请"]],
            examples: [
                SkillExample(lang: "en", text: "What's in my inbox?", input: "{}"),
                SkillExample(lang: "en", text: "Any unread mail since November 25?", input: #"{"since":"2026-11-25","unreadOnly":true}"#),
                SkillExample(lang: "zh", text: "帮我整理一下收件箱", input: "{}"),
                SkillExample(lang: "zh", text: "最近十封邮件里有发票吗？", input: #"{"limit":10}"#),
            ],
            // The meeting invitations found feed the calendar for those days (`skillhost ask`).
            feeds: [SkillFeed(intent: "calendar.events.list", fields: [
                "from": .init(path: "messages[*].event.start", pick: .earliestDay),
                "to": .init(path: "messages[*].event.start", pick: .latestDay)])]),
        SkillIntent(
            name: todos,
            description: "Find the to-dos in a mailbox (Maildir or mbox): requests and deadlines in messages (en and zh), invoices to pay and invitations to answer, each with its due day when one is named.",
            inputSchema: input,
            outputSchema: todosOutput,
            flags: [.readOnly, .idempotent],
            keywords: ["en": ["to-do", "todo", "action items", "tasks", "deadline", "what do I need to do", "follow up", "reply"],
                       "zh": ["待办", "任务", "截止", "需要做什么", "要回复", "要处理"]],
            examples: [
                SkillExample(lang: "en", text: "What do my emails ask me to do?", input: "{}"),
                SkillExample(lang: "en", text: "Action items from unread mail", input: #"{"unreadOnly":true}"#),
                SkillExample(lang: "zh", text: "邮件里有哪些待办事项？", input: "{}"),
                SkillExample(lang: "zh", text: "这周的邮件里有什么要截止的？", input: #"{"since":"2026-11-23"}"#),
            ]),
    ]
}
