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
        let say = request.sentences
        // The text the recognizer read (normalized), so clauses are found in it.
        let text = recognition.text ?? IntentModel.model(for: catalog).normalizer.normalize(request.text)
        for found in recognition.intents {
            guard let entry = catalog.entries.first(where: { $0.intent == found.intent }), !entry.flags.contains(.readOnly) else {
                out.intents.append(found)
                continue
            }
            let act = DialogAct.of(found.clause, in: text, keywords: found.matched)
            let example = entry.examples.first { $0.lang.hasPrefix(request.language) }?.text
            let how = example.map(say.sayItAsARequest) ?? ""
            var refusal: String? = nil
            switch act {
            case .question:
                refusal = say.readsAsQuestion(entry.description)
            case .negated:
                refusal = say.saidNotTo(learned: false)
            case .quoted:
                refusal = say.quotedText
            case .command:
                if let objection = dialogModel.objection(to: found.clause) {
                    refusal = learnedRefusal(objection.label, entry: entry, say: say) + how
                } else if request.caller.surface != .human && found.confidence < minWriteConfidence {
                    refusal = say.unsure(entry.description, percent: Int(found.confidence * 100))
                } else if let id = identifierFilled(found) {
                    refusal = say.noIdentifierFromText(id)
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
    static func learnedRefusal(_ label: DialogModel.Label, entry: IntentCatalog.Entry, say: any EngineSentences) -> String {
        switch label {
        case .question: say.readsAsQuestion(entry.description)
        case .negated: say.saidNotTo(learned: true)
        case .quoted: say.quotedText
        case .outOfScope: say.notLearnedToDo
        case .command: ""
        }
    }

    /// The name of an identifier parameter the recognizer filled from the sentence, if any.
    static func identifierFilled(_ found: RecognizedIntent) -> String? {
        found.parameters.keys.first(where: isIdentifier)
    }

    /// Whether an input member names an identifier (`id`, `…Id`, `…_id`, `…ID`).
    static func isIdentifier(_ k: String) -> Bool { k == "id" || k.hasSuffix("Id") || k.hasSuffix("_id") || k.hasSuffix("ID") }
}
