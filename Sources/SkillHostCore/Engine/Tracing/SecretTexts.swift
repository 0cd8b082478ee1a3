import Synchronization

/// The text of every secret one agent request has met so far (each string a schema marked secret,
/// see `TraceRedaction`), and the text of everything else the request shows with those strings cut
/// out: wherever a secret's exact text appears — in the sentence, a clause, a skill's message or
/// progress, an error message, the answer — it becomes `SecretScope.marker`.
///
/// Only texts known to be secret are cut: a secret typed into a sentence and never bound to a secret
/// field cannot be told from the rest of the sentence, and stays. Numbers and booleans marked secret
/// are replaced where they sit, but not searched for in other text. Thread-safe: steps learn and
/// phases are scrubbed from any thread.
final class SecretTexts: Sendable {
    /// Longest first, so a secret that contains another is cut whole.
    private let texts = Mutex<[String]>([])

    /// Whether any secret text is known.
    var isEmpty: Bool { texts.withLock { $0.isEmpty } }

    /// Remembers every string inside `value` (a value a schema marks secret), but the marker itself.
    func learn(_ value: JSON) {
        var found: [String] = []
        func walk(_ v: JSON) {
            switch v {
            case .string(let s) where !s.isEmpty && s != SecretScope.marker: found.append(s)  // the marker: redacted already
            case .array(let a): a.forEach(walk)
            case .object(let o): o.forEach { walk($0.value) }
            default: break
            }
        }
        walk(value)
        guard !found.isEmpty else { return }
        texts.withLock { t in
            for s in found where !t.contains(s) { t.append(s) }
            t.sort { $0.utf8.count > $1.utf8.count }
        }
    }

    /// Whether `text` contains a known secret.
    func occurs(in text: String) -> Bool {
        let known = texts.withLock { $0 }
        return known.contains { text.contains($0) }
    }

    /// `text` with every known secret in it replaced by the marker, in one pass from the left (the
    /// longest secret that starts at a place wins; a marker already there is kept whole, so scrubbing
    /// twice changes nothing).
    func scrub(_ text: String) -> String {
        let known = texts.withLock { $0 }
        guard !known.isEmpty, known.contains(where: { text.contains($0) }) else { return text }
        let bytes = Array(text.utf8), marker = Array(SecretScope.marker.utf8)
        let candidates = known.map { Array($0.utf8) } + [marker]  // the marker too: kept whole
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        scan: while i < bytes.count {
            for s in candidates where i + s.count <= bytes.count && bytes[i] == s[0] && bytes[i..<(i + s.count)].elementsEqual(s) {
                out += marker
                i += s.count
                continue scan
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` with every string and member name scrubbed (`scrub`).
    func scrub(_ value: JSON) -> JSON {
        switch value {
        case .string(let s): return .string(scrub(s))
        case .array(let a): return .array(a.map(scrub))
        case .object(let o): return .object(JSONObject(o.map { (key: scrub($0.key), value: scrub($0.value)) }))
        default: return value
        }
    }

    /// `phase` with the texts it carries from skills (progress, a failure's reason) scrubbed.
    func scrub(_ phase: AgentPhase) -> AgentPhase {
        switch phase {
        case .executing(let skill, let intent, let step, let total, let detail?):
            return .executing(skill: skill, intent: intent, step: step, total: total, detail: scrub(detail))
        case .failed(let reason): return .failed(reason: scrub(reason))
        default: return phase
        }
    }
}
