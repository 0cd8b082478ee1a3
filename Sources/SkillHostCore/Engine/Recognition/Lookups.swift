/// An identifier is never taken from free text; it is looked up. For an intent that changes something
/// and needs an identifier the request cannot give ("mark the milk reminder as done" needs the
/// reminder's `id`), the engine finds, in the same domain, a read-only intent with no required input
/// whose result lists items carrying that identifier and a label (`title`, `name`, `summary`) — for
/// `reminder.complete`, `reminder.list` — and plans it first; the dependent step takes the identifier
/// of the one item whose label the request names (`Feed.Pick.matching`), is skipped when none does,
/// and asks back (exit 10) when several do. Everything comes from the skills' schemas: the engine
/// names no intent.
enum Lookups {
    static let labels = ["title", "name", "summary", "subject"]

    /// `recognition` with each intent whose only missing inputs are identifiers given a lookup, when
    /// the catalog has one (those identifiers are then no longer missing).
    static func attach(_ recognition: Recognition, catalog: IntentCatalog) -> Recognition {
        var out = recognition
        for i in out.intents.indices {
            let found = out.intents[i]
            guard found.missing.count == 1, let field = found.missing.first, WriteGuard.isIdentifier(field),
                  let entry = catalog.entries.first(where: { $0.intent == found.intent }),
                  let (lookup, items, label) = lookupIntent(for: entry, field: field, catalog: catalog) else { continue }
            let reference = ParameterFiller.title(from: found.clause, removing: found.matched) ?? ""
            out.intents[i].lookup = Lookup(field: field, intent: lookup.intent, skillID: lookup.skillID, items: items, label: label,
                                           reference: reference)
            out.intents[i].missing = []
        }
        return out
    }

    /// The read-only intent of `entry`'s domain, with nothing required, whose output has an array of
    /// objects with `field` and a label: (that intent, the array's name, the label's name).
    static func lookupIntent(for entry: IntentCatalog.Entry, field: String, catalog: IntentCatalog) -> (IntentCatalog.Entry, String, String)? {
        for e in catalog.entries where e.domain == entry.domain && e.flags.contains(.readOnly) && e.skillID == entry.skillID {
            guard (e.inputSchema["required"]?.arrayValue ?? []).isEmpty,
                  let properties = e.outputSchema?["properties"]?.objectValue else { continue }
            for (name, p) in properties where p["type"]?.stringValue == "array" {
                guard let itemProps = p["items"]?["properties"]?.objectValue, itemProps[field] != nil,
                      let label = labels.first(where: { itemProps[$0] != nil }) else { continue }
                return (e, name, label)
            }
        }
        return nil
    }

    /// How well `label` is named by `reference`: the share of the label's words (Chinese: character
    /// pairs) found in the reference, 0–1.
    static func match(label: String, reference: String) -> Double {
        let l = label.lowercased(), r = reference.lowercased()
        if TextMatching.hasCJK(l) {
            let pairs = TextMatching.bigrams(l)
            guard !pairs.isEmpty else { return 0 }
            return Double(pairs.filter { r.contains($0) }.count) / Double(pairs.count)
        }
        let words = TextMatching.words(l).filter { !TextMatching.stopwords.contains($0) }
        let have = Set(TextMatching.words(r))
        guard !words.isEmpty else { return 0 }
        return Double(words.filter { have.contains($0) }.count) / Double(words.count)
    }
}

/// A planned lookup of an identifier: which intent lists the items, where they are in its result, the
/// label to match and what the request called the item.
public struct Lookup: Sendable {
    public var field: String
    public var intent: String
    public var skillID: String
    /// The result member that holds the items ("reminders").
    public var items: String
    /// The item member matched against the request ("title").
    public var label: String
    /// What the request said about the item ("the milk reminder").
    public var reference: String

    public var json: JSON {
        .object(JSONObject([("field", .string(field)), ("intent", .string(intent)), ("items", .string(items)),
                            ("label", .string(label)), ("reference", .string(reference))]))
    }
}
