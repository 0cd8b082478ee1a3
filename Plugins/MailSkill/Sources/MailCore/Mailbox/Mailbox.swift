import Foundation

/// A mailbox on disk, found by `Mailbox.open`: its format, the messages it stores (not yet read for a
/// Maildir) and the entries that could not be taken as messages.
///
/// Contract of `open(path:)`: a directory with a `cur/` or `new/` folder is a Maildir; a regular file that
/// is empty or starts with a `From ` line is an mbox. Anything else throws `MailboxError` naming the path
/// and what was expected. Individual unreadable entries never throw: they are listed in `skipped`.
public struct Mailbox: Sendable {
    public enum Format: String, Sendable { case maildir, mbox }

    public let path: String
    public let format: Format
    public let messages: [StoredMessage]
    public let skipped: [SkippedMessage]

    /// Largest single message read (a Maildir file, or one message of an mbox); larger ones are skipped.
    public static let messageLimit = 32 * 1_048_576

    public static func open(path: String) throws(MailboxError) -> Mailbox {
        switch FileBytes.kind(path) {
        case .failure(let f) where f.description.contains("No such file"):
            throw .notFound(path: path)
        case .failure(let f):
            throw .unreadable(path: path, reason: f.description)
        case .success(.directory):
            func isDirectory(_ p: String) -> Bool { if case .success(.directory) = FileBytes.kind(p) { true } else { false } }
            guard isDirectory(path + "/cur") || isDirectory(path + "/new") else {
                throw .notAMailbox(path: path, reason: "a folder without cur/ or new/ inside, so not a Maildir")
            }
            return try Maildir.read(path)
        case .success(.file):
            return try Mbox.read(path)
        case .success(.other):
            throw .notAMailbox(path: path, reason: "neither a folder nor a regular file")
        }
    }
}

/// One stored message, read when `load()` is called (a Maildir file; a byte range of an mbox).
public struct StoredMessage: Sendable {
    /// Where it is, for people: `new/1795680000.M1P1001.sample` or `archive.mbox#2`.
    public let source: String
    /// A stable id when the message has no Message-ID: the Maildir unique name, or `archive.mbox#2`.
    public let fallbackID: String
    /// Maildir: seen (S flag in `cur/`); mbox: nil (its Status header decides).
    public let seen: Bool?
    /// When it was delivered: the Maildir name's timestamp, the mbox `From ` line's date.
    public let delivered: Date?
    let content: Content

    enum Content: Sendable {
        case file(String)
        case mbox(path: String, range: Range<Int>)
        case bytes(ArraySlice<UInt8>)
    }

    /// The message bytes. Throws the reason a Maildir file cannot be read.
    public func load() throws(MailboxError) -> ArraySlice<UInt8> {
        switch content {
        case .bytes(let b): return b
        case .mbox(let path, let range):
            guard range.count <= Mailbox.messageLimit else {
                throw .unreadable(path: path, reason: "message \(source) is larger than \(Mailbox.messageLimit / 1_048_576) MB")
            }
            return try Mbox.load(path, range: range)
        case .file(let path):
            do { return try FileBytes.read(path, limit: Mailbox.messageLimit)[...] } catch { throw .unreadable(path: path, reason: error.description) }
        }
    }
}

/// An entry that is not a readable message, and why.
public struct SkippedMessage: Sendable, Equatable, Encodable {
    public let source: String
    public let reason: String

    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }
}

public enum MailboxError: Error, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case notAMailbox(path: String, reason: String)
    case unreadable(path: String, reason: String)

    public var path: String {
        switch self {
        case .notFound(let p), .notAMailbox(let p, _), .unreadable(let p, _): p
        }
    }

    public var description: String {
        switch self {
        case .notFound(let p): "\"\(p)\" does not exist; expected a Maildir folder (with cur/ and new/) or an mbox file"
        case .notAMailbox(let p, let why): "\"\(p)\" is not a Maildir nor an mbox: \(why)"
        case .unreadable(let p, let why): "cannot read \"\(p)\": \(why)"
        }
    }
}
