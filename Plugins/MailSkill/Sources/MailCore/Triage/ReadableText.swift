import Foundation

/// The readable lines of a text body, its summary, and its sentences.
///
/// Contract: `lines` stops at a signature (`-- `), a sign-off ("Cheers,", "谢谢！"), a reply header
/// ("On … wrote:", "在…写道：") and an original/forwarded-message marker; drops quoted lines (`>`),
/// greetings ("Hi Ada,", "王芳：", "尊敬的客户：") and a last line that is only a name ("Anna", "王磊");
/// collapses blanks; keeps order. `summary` joins the first two
/// lines, at most `maxSummary` characters (cut with "…"). `sentences` splits the lines at `.` `!` `?`
/// (followed by a space or the end), `。` `！` `？` and `；`, keeping the end mark.
public enum ReadableText {
    public static let maxSummary = 200

    public static func lines(_ text: String) -> [String] {
        var out: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if raw == "-- " || raw == "--" { break }
            let line = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{A0}" }).joined(separator: " ")
            let lower = line.lowercased()
            if Vocabulary.quoteStarts.contains(where: { lower.hasPrefix($0) }) { break }
            if isReplyHeader(lower) { break }
            if isSignOff(lower) { break }
            if line.isEmpty || line.hasPrefix(">") || isGreeting(line) { continue }
            out.append(line)
        }
        if let last = out.last, out.count > 1, isSignature(last) { out.removeLast() }
        return out
    }

    /// A last line that is only a name ("Anna", "王磊", "Blue Bottle Coffee"): at most three words and
    /// 24 characters, no sentence punctuation, no digits.
    static func isSignature(_ line: String) -> Bool {
        line.count <= 24 && line.split(separator: " ").count <= 3
            && !line.contains(where: { ".!?。！？：:,，".contains($0) || $0.isNumber })
    }

    public static func summary(_ text: String) -> String {
        let joined = lines(text).prefix(2).joined(separator: " ")
        guard joined.count > maxSummary else { return joined }
        return String(joined.prefix(maxSummary - 1)) + "…"
    }

    public static func sentences(_ text: String) -> [String] {
        var out: [String] = []
        for line in lines(text) {
            var current = ""
            let chars = Array(line)
            for (i, c) in chars.enumerated() {
                current.append(c)
                let next = i + 1 < chars.count ? chars[i + 1] : " "
                let ends = "。！？；".contains(c) || (".!?".contains(c) && next == " ")
                if ends {
                    append(current, to: &out)
                    current = ""
                }
            }
            append(current, to: &out)
        }
        return out
    }

    private static func append(_ s: String, to out: inout [String]) {
        let t = s.trimmingCharacters(in: .whitespaces)
        if !t.isEmpty { out.append(t) }
    }

    /// "On Tue, 24 Nov 2026, Anna wrote:", "在 2026年11月24日，李娜 写道：".
    static func isReplyHeader(_ lower: String) -> Bool {
        (lower.hasPrefix("on ") && lower.hasSuffix("wrote:")) || (lower.hasPrefix("在") && lower.hasSuffix("写道："))
    }

    /// A short line ending in `,` `:` `，` `：` that opens the message ("Hi Ada,", "王芳，您好：").
    static func isGreeting(_ line: String) -> Bool {
        guard let last = line.last, ",:，：".contains(last), line.count <= 30 else { return false }
        let lower = line.lowercased()
        if ["hi", "hello", "hey", "dear", "good morning", "good afternoon", "good evening"].contains(where: { lower.hasPrefix($0) }) { return true }
        if line.contains("您好") || line.contains("你好") || line.hasPrefix("尊敬的") || line.hasPrefix("亲爱的") { return true }
        // "王芳：" — a bare name: no spaces and no sentence punctuation before the colon.
        return line.count <= 8 && !line.dropLast().contains(where: { " .,!?。，！？".contains($0) })
    }

    static func isSignOff(_ lower: String) -> Bool {
        let core = lower.trimmingCharacters(in: CharacterSet(charactersIn: ",.!，。！ "))
        return Vocabulary.signOffs.contains(core)
    }
}
