/// The words the classifier and the to-do extractor look for, in English and Chinese, in one place.
///
/// Contract: English entries are lowercase and matched against lowercased text; Chinese entries are
/// matched as substrings. Changing a list changes behaviour the tests pin on the sample mailbox.
enum Vocabulary {
    /// Invoice, bill or receipt (subject, attachment name, or body together with an amount).
    static let invoice = ["invoice", "receipt", "amount due", "balance due", "payment due", "billing statement",
                          "your bill", "statement of account", "payment reminder", "overdue",
                          "发票", "账单", "付款", "缴费", "应付", "收据", "扣款", "对账单"]

    /// An invoice that still has to be paid (a receipt for a payment made has none of these).
    static let payable = ["amount due", "balance due", "total due", "payment due", "due date", "please pay", "pay by",
                          "outstanding", "应付", "付款截止", "待支付", "待付款", "请于", "缴费"]

    /// An invitation, in the subject.
    static let invitationSubject = ["invitation", "invite", "meeting request", "you're invited", "you are invited",
                                    "邀请", "会议通知", "邀您"]
    /// An invitation, in the body text.
    static let invitationBody = ["has invited you", "have been invited", "you are invited", "you're invited", "invites you",
                                 "join the meeting", "meeting invitation",
                                 "诚邀", "邀请您参加", "邀请你参加", "会议邀请", "邀您参加"]

    /// Local parts (before `@`) of senders that are machines, not people.
    static let automatedSenders: Set<String> = [
        "noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "mailer-daemon", "postmaster",
        "notifications", "notification", "notify", "alerts", "alert", "billing", "invoice", "invoices",
        "receipts", "receipt", "accounts", "newsletter", "news", "marketing", "info", "support", "updates",
        "bounce", "bounces", "calendar", "system", "admin", "service", "services", "deals", "hello", "team",
    ]
    /// Fragments that mark an automated local part wherever they appear (`jira-noreply`, `shop.notifications`).
    static let automatedFragments = ["noreply", "no-reply", "donotreply", "do-not-reply", "notification", "mailer-daemon", "bounce"]

    /// A sentence asks the reader to do something (English, lowercased sentence contains one).
    static let requestPhrasesEN = ["please", "could you", "can you", "would you", "will you", "make sure", "don't forget",
                                   "do not forget", "remember to", "need you to", "action required", "let me know", "rsvp",
                                   "asap", "deadline", "due by", "due on", "no later than"]
    /// Sentences starting with one of these verbs are imperatives.
    static let imperativeVerbs: Set<String> = ["send", "review", "sign", "submit", "reply", "confirm", "call", "book",
                                               "bring", "prepare", "pay", "update", "check", "fill", "complete", "approve",
                                               "schedule", "share", "forward", "finish", "read", "register"]
    /// A sentence asks the reader to do something (Chinese). `请` counts only when it is not part of
    /// 邀请/申请/聘请/宴请 (see `ToDoExtractor`).
    static let requestPhrasesZH = ["请", "麻烦", "记得", "务必", "别忘", "尽快", "截止", "需要你", "需要您", "一定要"]

    /// A sentence about a deadline rather than a plain request.
    static let deadline = ["deadline", "due", "no later than", "截止", "最晚", "之前", "以前"]

    /// Lines that end the readable part of a text body: reply headers and forwarded/original markers.
    static let quoteStarts = ["-----original message-----", "________________________________", "begin forwarded message",
                              "---------- forwarded message", "-------- 原始邮件 --------", "------------------ 原始邮件"]

    /// Closing words that are not content ("Thanks,", "谢谢！").
    static let signOffs: Set<String> = ["thanks", "thank you", "cheers", "best", "best regards", "regards", "kind regards",
                                        "many thanks", "bye", "à bientôt", "谢谢", "此致", "敬礼", "祝好", "多谢", "顺祝商祺"]

    static func containsAny(_ text: String, _ words: [String]) -> Bool {
        words.contains { text.contains($0) }
    }
}
