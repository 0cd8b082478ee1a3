/// How an intent is named in calls: "calendar.events.list" (version 1, or "the newest version" when
/// looked up) or "calendar.events.list@2" (exactly version 2). See skh_intent.version.
public enum IntentAddress {
    /// Two or more dot-separated segments of `[a-z0-9_]`: the names skills may give intents.
    public static func isIntentName(_ s: String) -> Bool { ManifestValidator.isIntentName(s) }

    /// "name" for version 1, "name@N" for N > 1: the form the registry, `list` and skh_call.intent use.
    public static func format(_ name: String, _ version: Int) -> String { version <= 1 ? name : "\(name)@\(version)" }

    /// Splits "name@N" into its name and version; a bare name has no version (nil). Nil overall when the
    /// text after "@" is not a positive integer.
    public static func parse(_ text: String) -> (name: String, version: Int?)? {
        // On the contiguous bytes: no grapheme breaking nor index checks per byte, on every call.
        var copy = text
        guard let at = copy.withUTF8({ $0.lastIndex(of: UInt8(ascii: "@")) }) else { return (text, nil) }
        let split = text.utf8.index(text.utf8.startIndex, offsetBy: at)
        guard let v = Int(text[text.index(after: split)...]), v >= 1 else { return nil }
        return (String(text[..<split]), v)
    }
}
