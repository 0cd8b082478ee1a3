import Foundation

/// One header field: its name as written and its unfolded value (RFC 5322 §2.2.3), not yet RFC 2047
/// decoded. `value` reads the bytes as UTF-8 when valid (RFC 6532), else as ISO-8859-1 — enough for
/// structured fields; `raw` keeps the bytes for text fields whose 8-bit bytes need a charset guess.
public struct HeaderField: Sendable, Equatable {
    public let name: String
    public let value: String
    /// The unfolded, trimmed value bytes.
    public let raw: [UInt8]

    public init(name: String, value: String, raw: [UInt8]? = nil) {
        self.name = name
        self.value = value
        self.raw = raw ?? Array(value.utf8)
    }
}

/// The header section of a message or a MIME part.
///
/// Contract of `parse`: the section ends at the first empty line; the body is everything after it (empty
/// when there is no empty line). A line starting with a space or tab continues the previous field
/// (unfolding removes only the line break). An mbox `From ` envelope line before the first field is
/// skipped. Any other line without a colon ends the header section early: it is taken as the first line
/// of the body (a missing blank line is the usual cause) and counted in `malformedLines`. Names are
/// matched case-insensitively.
public struct Headers: Sendable {
    public let fields: [HeaderField]
    /// Lines that were neither a field nor a continuation (see above).
    public let malformedLines: Int

    public init(fields: [HeaderField], malformedLines: Int = 0) {
        self.fields = fields
        self.malformedLines = malformedLines
    }

    /// The first field called `name` (any case), unfolded and trimmed.
    public subscript(_ name: String) -> String? {
        let key = name.lowercased()
        return fields.first { $0.name.lowercased() == key }?.value
    }

    /// Every field called `name`, in order.
    public func all(_ name: String) -> [String] {
        let key = name.lowercased()
        return fields.filter { $0.name.lowercased() == key }.map(\.value)
    }

    /// The first field called `name` as text: UTF-8 when valid; raw 8-bit bytes in any other charset
    /// (mailers that skip RFC 2047) are read by `CharsetGuess` with `hint` (a charset the message declares
    /// elsewhere), and the guess is appended to `problems` ("Subject: raw 8-bit bytes read as GB18030
    /// (guessed)"). Encoded words are left as they are.
    public func text(_ name: String, hint: String? = nil, problems: inout [String]) -> String? {
        let key = name.lowercased()
        guard let field = fields.first(where: { $0.name.lowercased() == key }) else { return nil }
        let guess = CharsetGuess.guess(field.raw, hint: hint)
        if guess.guessed { problems.append("\(name): raw 8-bit bytes read as \(guess.charset) (guessed)") }
        return guess.text
    }

    /// The first field called `name` as `text` gives it, with RFC 2047 encoded words decoded (problems
    /// are appended).
    public func decoded(_ name: String, hint: String? = nil, problems: inout [String]) -> String? {
        guard let raw = text(name, hint: hint, problems: &problems) else { return nil }
        let d = EncodedWords.decode(raw)
        problems.append(contentsOf: d.problems.map { "\(name): \($0)" })
        return d.text
    }

    /// Splits `bytes` into headers and body as described on the type.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> (headers: Headers, body: ArraySlice<UInt8>) {
        var fields: [(name: String, value: [UInt8])] = []
        var malformed = 0
        var bodyStart = bytes.endIndex
        for (n, line) in bytes.lines().enumerated() {
            let content = bytes[line.content]
            if content.isEmpty { bodyStart = line.next; break }
            if ASCII.isBlank(content[content.startIndex]) {
                if fields.isEmpty { malformed += 1; continue }
                fields[fields.count - 1].value += content
                continue
            }
            if let colon = fieldColon(content) {
                let name = String(decoding: content[content.startIndex..<colon], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                fields.append((name, Array(content[(colon + 1)...])))
                continue
            }
            if n == 0 && content.hasPrefix(Array("From ".utf8)) { continue }
            malformed += 1
            bodyStart = line.content.lowerBound
            break
        }
        let parsed = fields.map { f in
            let raw = f.value[...].trimmed()
            return HeaderField(name: f.name, value: TextBytes.utf8OrLatin1(raw), raw: Array(raw))
        }
        return (Headers(fields: parsed, malformedLines: malformed), bytes[bodyStart...])
    }

    /// The index of the colon ending a field name: printable ASCII without spaces (trailing blanks before the
    /// colon are tolerated, as obsolete syntax allows), at least one character.
    private static func fieldColon(_ line: ArraySlice<UInt8>) -> Int? {
        var i = line.startIndex
        while i < line.endIndex, line[i] > 32, line[i] < 127, line[i] != ASCII.colon { i += 1 }
        guard i > line.startIndex else { return nil }
        var j = i
        while j < line.endIndex, ASCII.isBlank(line[j]) { j += 1 }
        return j < line.endIndex && line[j] == ASCII.colon ? j : nil
    }
}
