/// A quantity and the unit to convert it to, read from a clause for a schema that wants them: a required
/// number property and string properties whose enums list unit symbols ("km", "mi", "C", "F"). Unit
/// words come from the language packs (`UnitWord`: "公里" → km, "miles" → mi, "斤" → 500 g); only
/// symbols the schema's enum lists count. The amount is the number a unit word follows ("5 km",
/// "72°F", "3公里", "0.5斤" — numerals are digits after normalization), or precedes ("华氏72度"); the
/// target is another unit word of the clause ("… in miles", "…是多少克"). Nothing is filled when no
/// amount with a unit is found: the engine then asks.
enum Quantities {
    struct Mention {
        var unit: String
        var factor: Double
        var range: Range<Int>
    }

    static func fill(properties: JSONObject, required: Set<String>, clause: String) -> JSONObject {
        let unitProps = properties.filter { m in
            m.value["type"]?.stringValue == "string" && (m.value["enum"]?.arrayValue ?? []).contains { v in
                LanguagePacks.unitWords.contains { $0.unit == v.stringValue }
            }
        }
        guard !unitProps.isEmpty,
              let amountName = properties.first(where: { required.contains($0.key) && ["number", "integer"].contains($0.value["type"]?.stringValue ?? "") })?.key
        else { return JSONObject() }
        let symbols = Set(unitProps.flatMap { ($0.value["enum"]?.arrayValue ?? []).compactMap(\.stringValue) })
        let chars = Array(clause.lowercased())
        let mentions = self.mentions(in: chars, symbols: symbols)
        guard let (value, source) = amount(in: chars, mentions: mentions) else { return JSONObject() }
        let targetName = unitProps.first { m in ["to", "target", "into"].contains { m.key.lowercased().hasPrefix($0) } }?.key
        let sourceName = unitProps.first { $0.key != targetName }?.key
        var out = JSONObject()
        out[amountName] = value.rounded() == value && abs(value) < 1e15 ? .int(Int64(value)) : .double(value)
        if let sourceName { out[sourceName] = .string(source.unit) }
        if let targetName, let target = mentions.first(where: { $0.range != source.range }) {
            out[targetName] = .string(target.unit)
        }
        return out
    }

    /// Every unit word in the text, longest first at each position; words of letters only as whole
    /// words, one-letter ones ("c", "f", "m") only right after a number or after "to"/"in"/"into".
    static func mentions(in chars: [Character], symbols: Set<String>) -> [Mention] {
        let words = LanguagePacks.unitWords.filter { symbols.contains($0.unit) }.sorted { $0.word.count > $1.word.count }
        var out: [Mention] = []
        var i = 0
        func isLetter(_ k: Int) -> Bool { k >= 0 && k < chars.count && chars[k].isLetter && chars[k].isASCII }
        while i < chars.count {
            var found: Mention? = nil
            for w in words {
                let u = Array(w.word)
                guard i + u.count <= chars.count, Array(chars[i..<i + u.count]) == u else { continue }
                if u.last?.isASCII == true && u.last!.isLetter {
                    // Whole words only; "°f" may follow a digit directly.
                    if isLetter(i - 1) || isLetter(i + u.count) { continue }
                    if u.count <= 2 && u.allSatisfy(\.isLetter) {
                        let before = String(chars[max(0, i - 5)..<i])
                        let afterNumber = i > 0 && (chars[i - 1].isNumber || (chars[i - 1] == " " && i > 1 && chars[i - 2].isNumber))
                        if !afterNumber && !(before.hasSuffix("to ") || before.hasSuffix("in ") || before.hasSuffix("into ")) { continue }
                        if u == ["i", "n"] && !afterNumber { continue }
                    }
                }
                found = Mention(unit: w.unit, factor: w.factor, range: i..<i + u.count)
                break
            }
            if let m = found { out.append(m); i = m.range.upperBound } else { i += 1 }
        }
        return out
    }

    /// The amount in the unit's symbol (× the word's factor) and the mention that gave its unit.
    static func amount(in chars: [Character], mentions: [Mention]) -> (Double, Mention)? {
        let text = String(chars)
        for m in text.matches(of: #/-?[0-9]+(?:\.[0-9]+)?/#) {
            guard let v = Double(m.output) else { continue }
            let start = text.distance(from: text.startIndex, to: m.range.lowerBound)
            var end = text.distance(from: text.startIndex, to: m.range.upperBound)
            // A minus sign only at the start or after a space ("-40 C"), not between words ("x-1").
            if m.output.hasPrefix("-"), start > 0, !chars[start - 1].isWhitespace { continue }
            while end < chars.count, chars[end] == " " { end += 1 }
            if let after = mentions.first(where: { $0.range.lowerBound == end }) { return (v * after.factor, after) }
            if let before = mentions.last(where: { $0.range.upperBound == start }) { return (v * before.factor, before) }
        }
        return nil
    }
}
