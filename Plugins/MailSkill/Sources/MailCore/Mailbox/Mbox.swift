import Foundation

/// mbox (RFC 4155): messages one after another, each starting with a `From ` line (the envelope sender
/// and an asctime date); body lines that began with `From ` were escaped with `>`.
///
/// Contract: a line starting with `From ` begins a new message when it is the first line of the file or
/// follows an empty line (so an unescaped `From ` inside a paragraph does not split a message). The blank
/// line before the next separator is removed. Unescaping follows mboxrd: one `>` is removed from each
/// line matching `^>+From ` (this also undoes the older mboxo escaping of `From ` lines). An empty file
/// is an empty mailbox; a file that does not start with `From ` is not an mbox.
enum Mbox {
    static func read(_ path: String) throws(MailboxError) -> Mailbox {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: Mailbox.mboxLimit) } catch { throw .unreadable(path: path, reason: error.description) }
        let name = (path as NSString).lastPathComponent
        let trimmed = bytes[...].trimmed()
        if trimmed.isEmpty { return Mailbox(path: path, format: .mbox, messages: [], skipped: []) }
        guard bytes[...].hasPrefix(fromPrefix) else {
            let looksLikeMessage = bytes.prefix(200).contains(ASCII.colon)
            throw .notAMailbox(path: path, reason: "a file that does not start with a \"From \" line, so not an mbox"
                               + (looksLikeMessage ? " (a single message? put it into a Maildir's new/ folder)" : ""))
        }
        let messages = split(bytes).enumerated().map { n, m in
            StoredMessage(source: "\(name)#\(n + 1)", fallbackID: "\(name)#\(n + 1)", seen: nil,
                          delivered: MailDate(asctime: m.envelope)?.date, content: .bytes(m.body))
        }
        return Mailbox(path: path, format: .mbox, messages: messages, skipped: [])
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
