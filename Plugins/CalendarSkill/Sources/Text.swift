extension StringProtocol {
    /// Without spaces and tabs (Unicode space separators) at either end: what
    /// `trimmingCharacters(in: .whitespaces)` does, without its round trip through NSString, which on
    /// Linux cost a sixth of the time of reading a large calendar.
    var trimmedSpaces: String {
        trimmed { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Without any Unicode white space (newlines included) at either end.
    var trimmedSpacesAndNewlines: String {
        trimmed { $0.properties.isWhitespace }
    }

    func trimmed(where isSpace: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return "" }
        if !isSpace(first) && !isSpace(last) { return String(self) }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }), let end = scalars.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[start...end])
        return String(kept)
    }
}
