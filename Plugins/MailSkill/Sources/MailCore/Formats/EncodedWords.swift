/// RFC 2047 encoded words in header text: `=?charset?B?base64?=` and `=?charset?Q?quoted?=`.
///
/// Contract: text outside encoded words is kept as is. Whitespace between two adjacent encoded words is
/// dropped (RFC 2047 §6.2), so a subject split over several words (and folded lines) reads as one. Adjacent
/// words in the same charset are joined *before* charset decoding, so a multi-byte GBK or UTF-8 character
/// split across two words (a common violation) still decodes. A charset label may carry an RFC 2231
/// language (`UTF-8*en`). Something that only looks like an encoded word (a space inside, an unknown
/// encoding letter) stays literal text. Charset problems are returned, never thrown.
public enum EncodedWords {
    public static func decode(_ text: String) -> (text: String, problems: [String]) {
        let b = Array(text.utf8)
        guard b.count >= 8, text.contains("=?") else { return (text, []) }
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var i = 0
        while i < b.count {
            if b[i] == ASCII.equals, i + 1 < b.count, b[i + 1] == ASCII.question, let (word, end) = word(in: b, at: i) {
                if !literal.isEmpty { pieces.append(.text(literal)); literal = [] }
                pieces.append(word)
                i = end
            } else {
                literal.append(b[i])
                i += 1
            }
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        return render(joined(pieces))
    }

    enum Piece {
        case text([UInt8])
        case word(charset: String, bytes: [UInt8])
    }

    /// Parses `=?charset?X?payload?=` starting at `start`; returns the word and the index after it.
    private static func word(in b: [UInt8], at start: Int) -> (Piece, Int)? {
        var i = start + 2
        let charsetStart = i
        while i < b.count, b[i] != ASCII.question, b[i] > 32, b[i] < 127 { i += 1 }
        guard i < b.count, b[i] == ASCII.question, i > charsetStart, i + 2 < b.count, b[i + 2] == ASCII.question else { return nil }
        let charset = String(decoding: b[charsetStart..<i], as: UTF8.self)
        let encoding = ASCII.lower(b[i + 1])
        guard encoding == UInt8(ascii: "b") || encoding == UInt8(ascii: "q") else { return nil }
        let payloadStart = i + 3
        var j = payloadStart
        while j + 1 < b.count, !(b[j] == ASCII.question && b[j + 1] == ASCII.equals) {
            guard b[j] > 32, b[j] < 127 else { return nil }
            j += 1
        }
        guard j + 1 < b.count else { return nil }
        let payload = b[payloadStart..<j]
        let bytes = encoding == UInt8(ascii: "b") ? TransferEncoding.base64(payload) : TransferEncoding.qEncoding(payload)
        return (.word(charset: charset, bytes: bytes), j + 2)
    }

    /// Drops whitespace-only text between words and merges neighbouring words of the same charset.
    private static func joined(_ pieces: [Piece]) -> [Piece] {
        var out: [Piece] = []
        for (n, piece) in pieces.enumerated() {
            if case .text(let t) = piece, t.allSatisfy(ASCII.isWhitespace),
               n > 0, n + 1 < pieces.count, case .word = pieces[n - 1], case .word = pieces[n + 1] {
                continue
            }
            if case .word(let cs, let bytes) = piece, case .word(let prevCS, let prevBytes)? = out.last,
               Charsets.normalize(cs) == Charsets.normalize(prevCS) {
                out[out.count - 1] = .word(charset: prevCS, bytes: prevBytes + bytes)
                continue
            }
            out.append(piece)
        }
        return out
    }

    private static func render(_ pieces: [Piece]) -> (String, [String]) {
        var text = ""
        var problems: [String] = []
        for piece in pieces {
            switch piece {
            case .text(let t):
                text += String(decoding: t, as: UTF8.self)
            case .word(let charset, let bytes):
                let d = Charsets.decode(bytes, charset: charset)
                text += d.text
                if let p = d.problem, !problems.contains(p) { problems.append(p) }
            }
        }
        return (text, problems)
    }
}
