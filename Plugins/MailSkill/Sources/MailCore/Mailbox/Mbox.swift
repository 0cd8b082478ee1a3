import Foundation

/// mbox (RFC 4155): messages one after another, each starting with a `From ` line (the envelope sender
/// and an asctime date); body lines that began with `From ` were escaped with `>`.
///
/// Contract: a line starting with `From ` begins a new message when it is the first line of the file or
/// follows an empty line (so an unescaped `From ` inside a paragraph does not split a message). The blank
/// line before the next separator is removed. Unescaping follows mboxrd: one `>` is removed from each
/// line matching `^>+From ` (this also undoes the older mboxo escaping of `From ` lines). An empty file
/// is an empty mailbox; a file that does not start with `From ` is not an mbox.
/// Reading is streamed: `read` scans the file once in 1 MB chunks and keeps only where each message
/// starts (and its envelope line), so a mailbox of any size costs memory per message count, not per byte;
/// each message's bytes are read (`pread`) and unescaped when it is loaded. A file that changes between
/// the scan and a load makes that message unreadable (skipped with the reason), not wrong.
/// mboxo and mboxrd cannot be told apart from the file; reading a `>From ` line as `From ` is right for
/// both, and only a body line that really began with `>From ` in an mboxo file loses its `>`.
enum Mbox {
    static func read(_ path: String) throws(MailboxError) -> Mailbox {
        let separators: [Separator]
        let size: Int
        do { (separators, size) = try scan(path) } catch { throw .unreadable(path: path, reason: error.description) }
        let name = (path as NSString).lastPathComponent
        guard let first = separators.first else {
            if size == 0 || isBlank(path) { return Mailbox(path: path, format: .mbox, messages: [], skipped: []) }
            let looksLikeMessage = ((try? FileBytes.read(path, offset: 0, count: 200)) ?? []).contains(ASCII.colon)
            throw .notAMailbox(path: path, reason: "a file that does not start with a \"From \" line, so not an mbox"
                               + (looksLikeMessage ? " (a single message? put it into a Maildir's new/ folder)" : ""))
        }
        guard first.start == 0 || isBlank(path, before: first.start) else {
            throw .notAMailbox(path: path, reason: "a file that does not start with a \"From \" line, so not an mbox")
        }
        let messages = separators.enumerated().map { n, separator in
            let end = n + 1 < separators.count ? separators[n + 1].start : size
            return StoredMessage(source: "\(name)#\(n + 1)", fallbackID: "\(name)#\(n + 1)", seen: nil,
                                 delivered: MailDate(asctime: separator.envelope)?.date,
                                 content: .mbox(path: path, range: separator.start..<end))
        }
        return Mailbox(path: path, format: .mbox, messages: messages, skipped: [])
    }

    /// Where a message's `From ` line starts, and the rest of that line.
    struct Separator: Equatable {
        let start: Int
        let envelope: String
    }

    /// The separators of the file at `path` and its size, by the rule `split` uses, in one streamed pass.
    static func scan(_ path: String) throws(FileBytes.Failure) -> (separators: [Separator], size: Int) {
        var separators: [Separator] = []
        var previousEmpty = true
        var line: [UInt8] = []          // the current line's first `lineCap` bytes
        var lineLength = 0              // its full length so far
        var lineStart = 0
        let lineCap = 1024
        func endLine() {
            var content = line[...]
            if lineLength <= lineCap, content.last == ASCII.cr { content = content.dropLast() }
            let empty = lineLength == 0 || (lineLength == 1 && content.isEmpty)
            if previousEmpty && content.hasPrefix(fromPrefix) {
                separators.append(Separator(start: lineStart, envelope: String(decoding: content.dropFirst(5), as: UTF8.self)))
                previousEmpty = false
            } else {
                previousEmpty = empty
            }
            line.removeAll(keepingCapacity: true)
            lineLength = 0
        }
        let size = try FileBytes.stream(path, chunk: 1 << 20) { chunk, offset in
            var i = chunk.startIndex
            while i < chunk.endIndex {
                let lf = chunk[i...].firstIndex(of: ASCII.lf)
                let end = lf ?? chunk.endIndex
                if line.count < lineCap { line += chunk[i..<min(end, i + lineCap - line.count)] }
                lineLength += end - i
                guard let lf else { break }
                endLine()
                lineStart = offset + lf + 1
                i = lf + 1
            }
        }
        if lineLength > 0 { endLine() }
        return (separators, size)
    }

    /// Whether the file holds only blank characters (before `before`, when given).
    private static func isBlank(_ path: String, before: Int? = nil) -> Bool {
        guard let bytes = try? FileBytes.read(path, offset: 0, count: min(before ?? 4096, 4096)) else { return false }
        return bytes.allSatisfy(ASCII.isWhitespace) && (before != nil || bytes.count < 4096)
    }

    /// One message's bytes (from its `From ` line to the next), unescaped.
    static func load(_ path: String, range: Range<Int>) throws(MailboxError) -> ArraySlice<UInt8> {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, offset: range.lowerBound, count: range.count) } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        let parts = split(bytes)
        guard bytes.count == range.count, parts.count == 1, let message = parts.first else {
            throw .unreadable(path: path, reason: "the mbox changed while it was read (bytes \(range.lowerBound)–\(range.upperBound) are no longer one message)")
        }
        return message.body
    }

    static let fromPrefix = Array("From ".utf8)

    /// The messages of an mbox buffer: envelope line text and the unescaped message bytes.
    static func split(_ bytes: [UInt8]) -> [(envelope: String, body: ArraySlice<UInt8>)] {
        let all = bytes[...]
        var result: [(String, ArraySlice<UInt8>)] = []
        var envelope: String?
        var current: [UInt8] = []
        var previousEmpty = true
        var pendingEmpty = 0   // empty lines held back: the last one before a separator is not content
        func finish() {
            if let envelope { result.append((envelope, current[...])) }
            current = []
        }
        for line in all.lines() {
            let content = all[line.content]
            if previousEmpty && content.hasPrefix(fromPrefix) {
                for _ in 0..<max(0, pendingEmpty - 1) { current.append(ASCII.lf) }
                finish()
                envelope = String(decoding: content.dropFirst(5), as: UTF8.self)
                pendingEmpty = 0
                previousEmpty = false
                continue
            }
            previousEmpty = content.isEmpty
            if content.isEmpty { pendingEmpty += 1; continue }
            for _ in 0..<pendingEmpty { current.append(ASCII.lf) }
            pendingEmpty = 0
            let gt = content.prefix { $0 == UInt8(ascii: ">") }.count
            if gt > 0 && content.dropFirst(gt).hasPrefix(fromPrefix) {
                current += content.dropFirst()
            } else {
                current += content
            }
            current.append(ASCII.lf)
        }
        // Empty lines at the very end: all but one belong to the last message (the last is the separator).
        for _ in 0..<max(0, pendingEmpty - 1) { current.append(ASCII.lf) }
        finish()
        return result
    }
}
