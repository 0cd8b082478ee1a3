/// A parsed iCalendar content line: `NAME *(";" param) ":" value` (RFC 5545 §3.1).
public struct ContentLine: Sendable, Equatable {
    /// Property name, uppercased (`DTSTART`, `X-WR-CALNAME`).
    public let name: String
    /// Parameters by uppercased name; each may carry several comma-separated values. Quotes are removed
    /// and RFC 6868 caret escapes (`^n`, `^^`, `^'`) are decoded.
    public let parameters: [String: [String]]
    /// The raw value, still escaped (use `ContentLine.unescapeText` for TEXT values).
    public let value: String
    public let lineNumber: Int

    public init(name: String, parameters: [String: [String]], value: String, lineNumber: Int) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.lineNumber = lineNumber
    }

    /// The first value of parameter `name` (case-insensitive), if present.
    public func parameter(_ name: String) -> String? {
        parameters[name.uppercased()]?.first
    }

    /// Parses one unfolded line. Throws a message (without the line number) when the line is not a
    /// well-formed content line.
    public static func parse(_ line: ICSLine) throws(ICSSyntaxError) -> ContentLine {
        // Fast path for the common `NAME:value` (no parameters), on UTF-8 bytes.
        let utf8 = line.text.utf8
        var cursor = utf8.startIndex
        while cursor != utf8.endIndex, isNameByte(utf8[cursor]) { cursor = utf8.index(after: cursor) }
        if cursor != utf8.startIndex, cursor != utf8.endIndex, utf8[cursor] == UInt8(ascii: ":") {
            let name = String(decoding: utf8[..<cursor], as: UTF8.self).uppercased()
            let value = String(line.text[line.text.index(after: cursor)...])
            return ContentLine(name: name, parameters: [:], value: value, lineNumber: line.lineNumber)
        }

        let scalars = Array(line.text.unicodeScalars)
        var i = 0

        func isNameChar(_ c: Unicode.Scalar) -> Bool {
            (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c == "-"
        }
        func readName() -> String {
            var s = String.UnicodeScalarView()
            while i < scalars.count, isNameChar(scalars[i]) {
                s.append(scalars[i])
                i += 1
            }
            return String(s).uppercased()
        }

        let name = readName()
        guard !name.isEmpty else {
            throw ICSSyntaxError("expected a property name at the start of \"\(preview(line.text))\"")
        }
        var parameters: [String: [String]] = [:]
        while i < scalars.count, scalars[i] == ";" {
            i += 1
            let paramName = readName()
            guard !paramName.isEmpty else {
                throw ICSSyntaxError("empty parameter name in \(name)")
            }
            guard i < scalars.count, scalars[i] == "=" else {
                throw ICSSyntaxError("parameter \(paramName) of \(name) has no '='")
            }
            i += 1
            var values: [String] = []
            while true {
                var value = String.UnicodeScalarView()
                if i < scalars.count, scalars[i] == "\"" {
                    i += 1
                    while i < scalars.count, scalars[i] != "\"" {
                        value.append(scalars[i])
                        i += 1
                    }
                    guard i < scalars.count else {
                        throw ICSSyntaxError("unterminated quoted value of parameter \(paramName) in \(name)")
                    }
                    i += 1   // closing quote
                } else {
                    while i < scalars.count, scalars[i] != ";", scalars[i] != ":", scalars[i] != ",",
                          scalars[i] != "\"" {
                        value.append(scalars[i])
                        i += 1
                    }
                    if i < scalars.count, scalars[i] == "\"" {
                        throw ICSSyntaxError("stray '\"' in parameter \(paramName) of \(name)")
                    }
                }
                values.append(decodeCaret(String(value)))
                if i < scalars.count, scalars[i] == "," {
                    i += 1
                    continue
                }
                break
            }
            parameters[paramName, default: []].append(contentsOf: values)
        }
        guard i < scalars.count, scalars[i] == ":" else {
            if i >= scalars.count { throw ICSSyntaxError("\(name) has no ':' before its value") }
            throw ICSSyntaxError("unexpected '\(scalars[i])' in \"\(preview(line.text))\" (expected NAME;PARAM=…:VALUE)")
        }
        i += 1
        var value = String.UnicodeScalarView()
        value.append(contentsOf: scalars[i...])
        return ContentLine(name: name, parameters: parameters, value: String(value), lineNumber: line.lineNumber)
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 45
    }

    /// Decodes TEXT escapes (RFC 5545 §3.3.11): `\\` → `\`, `\;` → `;`, `\,` → `,`, `\n`/`\N` → newline.
    /// An unknown escape keeps the escaped character; a trailing lone backslash is kept.
    public static func unescapeText(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var out = String.UnicodeScalarView()
        var escaping = false
        for c in text.unicodeScalars {
            if escaping {
                switch c {
                case "n", "N": out.append("\n")
                default: out.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        if escaping { out.append("\\") }
        return String(out)
    }

    /// RFC 6868: `^n` → newline, `^^` → `^`, `^'` → `"`; any other `^x` is kept as is.
    static func decodeCaret(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "^")) else { return text }
        var out = String.UnicodeScalarView()
        var pendingCaret = false
        for c in text.unicodeScalars {
            if pendingCaret {
                switch c {
                case "n": out.append("\n")
                case "^": out.append("^")
                case "'": out.append("\"")
                default:
                    out.append("^")
                    out.append(c)
                }
                pendingCaret = false
            } else if c == "^" {
                pendingCaret = true
            } else {
                out.append(c)
            }
        }
        if pendingCaret { out.append("^") }
        return String(out)
    }

    static func preview(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

/// A syntax problem in one line or value; the parser adds the file and line.
public struct ICSSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
