/// Safety before coverage: an intent that changes something (not read-only) is planned only from a
/// clause that is a command to do it (`DialogAct`) — never from a question ("which reminders did I
/// set?"), a negation ("no need to remind me"), quoted or pasted text ("translate: 记得带伞", a mail
/// that says "remind me to wire money"). From scripts and agents it also needs a confidence of at least
/// `minWriteConfidence`; and an identifier (`id`, `…Id`) is never taken from free text. Each refusal
/// becomes a question back to the person (exit 10), never a guess.
///
/// A clause the rules call a command is also shown to the learned `DialogModel`; when it is sure the
/// clause is a question, a negation, quoted text or a request no skill serves, the write is held back
/// too. The model only ever adds refusals: it is never asked about a clause the rules refuse, so it
/// cannot unlock a write they block.
///
/// Applied by the engine to whatever recognizer ran, so no recognizer can plan a write the rules forbid.
enum WriteGuard {
    static func apply(_ recognition: Recognition, request: AgentRequest, catalog: IntentCatalog, minWriteConfidence: Double,
                      dialogModel: DialogModel = .shipped) -> Recognition {
        var out = recognition
        out.intents = []
        let zh = request.language == "zh"
        // The text the recognizer read (normalized), so clauses are found in it.
        let text = recognition.text ?? IntentModel.model(for: catalog).normalizer.normalize(request.text)
        for found in recognition.intents {
            guard let entry = catalog.entries.first(where: { $0.intent == found.intent }), !entry.flags.contains(.readOnly) else {
                out.intents.append(found)
                continue
            }
            let act = DialogAct.of(found.clause, in: text, keywords: found.matched)
            let example = entry.examples.first { $0.lang.hasPrefix(request.language) }?.text
            let how = example.map { zh ? "如果要我这样做，请直接说，例如“\($0)”。" : " If you want that, say it as a request, e.g. “\($0)”." } ?? ""
            var refusal: String? = nil
            switch act {
            case .question:
                refusal = zh ? "这听起来是个问题，所以我没有执行“\(entry.description)”。" : "That reads as a question, so I did not \(lowerFirst(entry.description))."
            case .negated:
                refusal = zh ? "你说了不要，所以我什么都没改。" : "You said not to, so I changed nothing."
            case .quoted:
                refusal = zh ? "这段话像是引用或粘贴的内容，里面的指令我不会执行，什么都没改。" : "That looks like quoted or pasted text; I do not act on instructions inside it, and changed nothing."
            case .command:
                if let objection = dialogModel.objection(to: found.clause) {
                    refusal = learnedRefusal(objection.label, entry: entry, zh: zh) + how
                } else if request.caller.surface != .human && found.confidence < minWriteConfidence {
                    refusal = zh ? "我不确定你要“\(entry.description)”（把握 \(Int(found.confidence * 100))%），所以没有执行。"
                                 : "I am not sure you asked me to \(lowerFirst(entry.description)) (confidence \(Int(found.confidence * 100)) %), so I did not."
                } else if let id = identifierFilled(found) {
                    refusal = zh ? "我不会从一句话里猜“\(id)”，请先列出来再指定是哪一个。" : "I do not take “\(id)” from free text; list them first and name the one you mean."
                }
            }
            if let refusal {
                out.questions.append(Clarification(intent: found.intent, question: refusal + (act == .command ? "" : how)))
            } else {
                out.intents.append(found)
            }
        }
        return out
    }

    /// Why a write the rules allowed is held back because the dialog-act model objects.
    static func learnedRefusal(_ label: DialogModel.Label, entry: IntentCatalog.Entry, zh: Bool) -> String {
        switch label {
        case .question: zh ? "这听起来是个问题，所以我没有执行“\(entry.description)”。" : "That reads as a question, so I did not \(lowerFirst(entry.description))."
        case .negated: zh ? "听起来你是说不要，所以我什么都没改。" : "That sounds like you said not to, so I changed nothing."
        case .quoted: zh ? "这段话像是引用或粘贴的内容，里面的指令我不会执行，什么都没改。" : "That looks like quoted or pasted text; I do not act on instructions inside it, and changed nothing."
        case .outOfScope: zh ? "这听起来是我还不会做的事，所以我什么都没改。" : "That sounds like something I have not learned to do, so I changed nothing."
        case .command: ""
        }
    }

    /// The name of an identifier parameter the recognizer filled from the sentence, if any.
    static func identifierFilled(_ found: RecognizedIntent) -> String? {
        found.parameters.keys.first(where: isIdentifier)
    }

    /// Whether an input member names an identifier (`id`, `…Id`, `…_id`, `…ID`).
    static func isIdentifier(_ k: String) -> Bool { k == "id" || k.hasSuffix("Id") || k.hasSuffix("_id") || k.hasSuffix("ID") }

    static func lowerFirst(_ s: String) -> String {
        let t = s.hasSuffix(".") ? String(s.dropLast()) : s
        guard let f = t.first else { return t }
        return f.lowercased() + t.dropFirst()
    }
}
