/// One logical iCalendar line after unfolding, with the 1-based physical line it started on.
public struct ICSLine: Sendable, Equatable {
    public let text: String
    public let lineNumber: Int

    public init(text: String, lineNumber: Int) {
        self.text = text
        self.lineNumber = lineNumber
    }
}

/// Splits iCalendar text into logical lines (RFC 5545 §3.1).
///
/// Accepts CRLF (the standard), bare LF and bare CR line ends. A physical line starting with a space or a
/// horizontal tab continues the previous one; that one whitespace character is removed. Unfolding works on
/// bytes, so a fold in the middle of a multi-byte UTF-8 sequence (which some writers produce) is restored
/// correctly. A leading UTF-8 byte-order mark is dropped; empty lines are skipped.
public enum ICSLexer {
    public static func unfold(_ text: String) -> [ICSLine] {
        unfold(bytes: Array(text.utf8))
    }

    public static func unfold(bytes input: [UInt8]) -> [ICSLine] {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }

        var lines: [ICSLine] = []
        var current: [UInt8] = []
        var currentStart = 0       // physical line number `current` started on; 0 = nothing pending
        var physical = 0

        func flush() {
            if currentStart != 0, !current.isEmpty {
                lines.append(ICSLine(text: String(decoding: current, as: UTF8.self), lineNumber: currentStart))
            }
            current.removeAll(keepingCapacity: true)
            currentStart = 0
        }

        var index = bytes.startIndex
        while index < bytes.endIndex {
            // Find the end of this physical line.
            var end = index
            while end < bytes.endIndex, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            physical += 1
            let line = bytes[index..<end]
            if let first = line.first, first == 0x20 || first == 0x09 {
                if currentStart == 0 { currentStart = physical }   // a continuation with nothing before it
                current.append(contentsOf: line.dropFirst())
            } else if !line.isEmpty {
                flush()
                currentStart = physical
                current.append(contentsOf: line)
            }
            // Consume the line end: CRLF, LF or CR.
            if end < bytes.endIndex {
                if bytes[end] == 0x0D, end + 1 < bytes.endIndex, bytes[end + 1] == 0x0A {
                    index = end + 2
                } else {
                    index = end + 1
                }
            } else {
                index = end
            }
        }
        flush()
        return lines
    }
}
