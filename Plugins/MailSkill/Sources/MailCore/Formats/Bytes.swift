/// Byte-level helpers shared by the parsers. Mail is bytes until a charset is known, so the parsers
/// split lines and compare ASCII on `[UInt8]` / `ArraySlice<UInt8>` and only then make Strings.
///
/// Contract: line breaks are LF or CRLF (a lone CR is kept as content); every function is total (no
/// input makes it trap) and keeps the slice's own indices.
enum ASCII {
    static let cr: UInt8 = 13, lf: UInt8 = 10, space: UInt8 = 32, tab: UInt8 = 9
    static let colon: UInt8 = 58, equals: UInt8 = 61, question: UInt8 = 63, dash: UInt8 = 45

    static func isBlank(_ b: UInt8) -> Bool { b == space || b == tab }
    static func isWhitespace(_ b: UInt8) -> Bool { b == space || b == tab || b == cr || b == lf }
    static func lower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

    /// The value of a hexadecimal digit (either case), or nil.
    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }
}

/// One line of a buffer: `content` excludes the line break, `next` is where the following line starts.
struct ByteLine {
    let content: Range<Int>
    let next: Int
}

extension ArraySlice where Element == UInt8 {
    /// The lines of the slice (LF or CRLF breaks). A final line without a break is included; an empty
    /// slice has no lines.
    func lines() -> [ByteLine] {
        var result: [ByteLine] = []
        var start = startIndex
        var i = startIndex
        while i < endIndex {
            if self[i] == ASCII.lf {
                let end = i > start && self[i - 1] == ASCII.cr ? i - 1 : i
                result.append(ByteLine(content: start..<end, next: i + 1))
                start = i + 1
            }
            i += 1
        }
        if start < endIndex { result.append(ByteLine(content: start..<endIndex, next: endIndex)) }
        return result
    }

    /// True when the slice begins with `prefix` (exact bytes).
    func hasPrefix(_ prefix: [UInt8]) -> Bool {
        count >= prefix.count && zip(self, prefix).allSatisfy { $0 == $1 }
    }

    /// The slice without leading and trailing spaces, tabs, CRs and LFs.
    func trimmed() -> ArraySlice<UInt8> {
        var s = startIndex, e = endIndex
        while s < e, ASCII.isWhitespace(self[s]) { s += 1 }
        while e > s, ASCII.isWhitespace(self[e - 1]) { e -= 1 }
        return self[s..<e]
    }
}

enum TextBytes {
    /// UTF-8 when the bytes are valid UTF-8, else ISO-8859-1 (every byte is a character). Used for header
    /// values, where RFC 6532 allows raw UTF-8 and older mailers send raw Latin-1.
    static func utf8OrLatin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        return latin1(bytes)
    }

    /// ISO-8859-1: byte n is U+00nn.
    static func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var s = String.UnicodeScalarView()
        for b in bytes { s.append(Unicode.Scalar(b)) }
        return String(s)
    }
}
