/// Synthesis: one answer in the request's language, from the skills' own sentences (each result may
/// carry a one-sentence `message`; skills get the request's locale, so they can write it in that
/// language) — with a partial answer when some steps failed, the questions the engine has to ask, and
/// a friendly "I haven't learned that yet" with what it can do when nothing was understood.
enum Synthesizer {
    enum Status: String, Sendable {
        /// Every step answered.
        case answered
        /// Some steps answered, some failed or were skipped.
        case partial
        /// Steps ran and all failed.
        case failed
        /// Nothing ran: the engine asks a question back.
        case clarify
        /// Nothing in the request matches what the skills can do.
        case notUnderstood = "not_understood"
        /// The caller cancelled the request (set by the engine, not here).
        case cancelled
    }

    static func answer(_ request: AgentRequest, recognition: Recognition, records: [StepRecord], catalog: IntentCatalog) -> (text: String, status: Status) {
        let say = request.sentences
        let ok = records.filter { $0.status == .ok }
        let failed = records.filter { $0.status == .error }
        var questions = recognition.questions.map(\.question)
        for r in recognition.intents where !r.missing.isEmpty {
            let entry = catalog.entries.first { $0.intent == r.intent }
            let fields = r.missing.map { f in (name: f, description: entry?.inputSchema["properties"]?[f]?["description"]?.stringValue) }
            questions.append(say.needs(skill: entry.map { "\($0.skillName), \(r.intent)" } ?? r.intent, fields: fields))
        }

        if records.isEmpty {
            if !questions.isEmpty { return (questions.joined(separator: "\n"), .clarify) }
            return (notLearned(request, catalog: catalog), .notUnderstood)
        }
        var lines: [String] = []
        if !failed.isEmpty {
            let notes = failed.map { note(for: $0, catalog: catalog, say: say) }
            lines.append(ok.isEmpty ? say.allFailed(notes) : say.someFailed(notes))
        }
        for r in ok {
            lines.append(r.message ?? say.done(intent: r.step.intent))
        }
        for r in records where r.status == .skipped && r.question == nil {
            lines.append(say.notRun(intent: r.step.intent, reason: r.skipped ?? ""))
        }
        lines += questions
        // A step waiting for the person to say which item they meant: the request asks back.
        let asks = records.compactMap(\.question)
        if !asks.isEmpty {
            lines += asks
            return (lines.joined(separator: "\n"), .clarify)
        }
        let status: Status = failed.isEmpty && questions.isEmpty && !records.contains { $0.status == .skipped && $0.step.feeds.isEmpty }
            ? .answered : (ok.isEmpty ? .failed : .partial)
        return (lines.joined(separator: "\n"), status)
    }

    /// "I couldn't reach Weather (weather.forecast): …" — what went wrong, in the request's language.
    static func note(for r: StepRecord, catalog: IntentCatalog, say: any EngineSentences) -> String {
        let name = catalog.entries.first { $0.intent == r.step.intent }?.skillName ?? r.step.skillID
        let what = "\(name) (\(r.step.intent))"
        let message = r.error?.message ?? ""
        // Unreachable and slow skills: the short version (the details are in the trace and --json).
        switch r.error?.kind {
        case .unavailable?: return say.unavailable(what)
        case .timeout?: return say.timedOut(what)
        case .invalidInput?: return say.refusedInput(what, message: message)
        case .denied?: return say.denied(what, message: message)
        default: return say.failed(what, message: message)
        }
    }

    /// The friendly fallback: what the engine can do, one example per skill, in the request's language.
    static func notLearned(_ request: AgentRequest, catalog: IntentCatalog) -> String {
        var seen = Set<String>()
        var abilities: [String] = []
        // Per skill, its first intent with an example in the request's language (else any example, else a description).
        for e in catalog.entries where !seen.contains(e.skillID) {
            let sameSkill = catalog.entries.filter { $0.skillID == e.skillID }
            let example = sameSkill.lazy.compactMap { s in s.examples.first { $0.lang.hasPrefix(request.language) }?.text }.first
                ?? sameSkill.lazy.compactMap { $0.examples.first?.text }.first
            seen.insert(e.skillID)
            abilities.append(example.map { "\(e.skillName): “\($0)”" } ?? "\(e.skillName): \(e.description)")
        }
        return request.sentences.notLearned(abilities: abilities)
    }
}
