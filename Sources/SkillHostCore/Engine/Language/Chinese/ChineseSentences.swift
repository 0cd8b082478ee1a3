/// The engine's own sentences in Chinese.
struct ChineseSentences: EngineSentences {
    func needs(skill: String, fields: [(name: String, description: String?)]) -> String {
        let list = fields.map { "“\($0.name)”" + ($0.description.map { "（\($0)）" } ?? "") }.joined(separator: "、")
        return "我可以用\(skill)来做，但还需要\(list)。请补充后再说一次。"
    }
    func allFailed(_ notes: [String]) -> String { notes.joined(separator: "；") + "。" }
    func someFailed(_ notes: [String]) -> String { notes.joined(separator: "；") + "。以下是其余的结果：" }
    func done(intent: String) -> String { "\(intent)已完成。" }
    func notRun(intent: String, reason: String) -> String { "（未执行\(intent)：\(reason)）" }
    func unavailable(_ what: String) -> String { "暂时无法使用\(what)" }
    func timedOut(_ what: String) -> String { "\(what)响应超时" }
    func refusedInput(_ what: String, message: String) -> String { "\(what)不接受这个请求：\(message)" }
    func denied(_ what: String, message: String) -> String { "不允许调用\(what)：\(message)" }
    func failed(_ what: String, message: String) -> String { "\(what)出错了：\(message)" }
    func notLearned(abilities: [String]) -> String {
        abilities.isEmpty ? "抱歉，我还没学会这个，而且现在没有可用的技能。"
            : "抱歉，我还没学会这个。我现在可以帮你：\n" + abilities.map { "  • " + $0 }.joined(separator: "\n")
    }
    let cancelled = "已取消。"
    func nothingCalled(_ reference: String) -> String { "我没找到“\(reference)”，请说出它的完整名称。" }
    func severalMatch(_ reference: String, labels: [String]) -> String {
        "有几个符合“\(reference)”：\(labels.map { "“\($0)”" }.joined(separator: "、"))。你指的是哪一个？"
    }
    func didYouMean(example: String, skill: String, intent: String) -> String {
        "你是想让我做这个吗：“\(example)”？（\(skill)，\(intent)）请说得更具体一些。"
    }
    func sayItAsARequest(example: String) -> String { "如果要我这样做，请直接说，例如“\(example)”。" }
    func readsAsQuestion(_ description: String) -> String { "这听起来是个问题，所以我没有执行“\(description)”。" }
    func saidNotTo(learned: Bool) -> String { learned ? "听起来你是说不要，所以我什么都没改。" : "你说了不要，所以我什么都没改。" }
    let quotedText = "这段话像是引用或粘贴的内容，里面的指令我不会执行，什么都没改。"
    let notLearnedToDo = "这听起来是我还不会做的事，所以我什么都没改。"
    func unsure(_ description: String, percent: Int) -> String { "我不确定你要“\(description)”（把握 \(percent)%），所以没有执行。" }
    func noIdentifierFromText(_ field: String) -> String { "我不会从一句话里猜“\(field)”，请先列出来再指定是哪一个。" }
}
