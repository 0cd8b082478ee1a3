import Foundation

/// Maildir (https://cr.yp.to/proto/maildir.html): messages are the files in `new/` (not yet seen by a
/// mail reader) and `cur/`; `tmp/` holds deliveries in progress and is never read.
///
/// Contract: hidden files (a leading `.`) are ignored. A name `unique:2,FLAGS` carries flags; `S` means
/// seen, so a message is seen only in `cur/` with `S`. The unique part's leading number is the delivery
/// time (seconds since 1970) when it is one. An entry that is not a regular file is skipped with its
/// reason; file contents are read later, by `StoredMessage.load()`. Order: by name within `new/`, `cur/`.
enum Maildir {
    static func read(_ root: String) throws(MailboxError) -> Mailbox {
        var messages: [StoredMessage] = []
        var skipped: [SkippedMessage] = []
        for folder in ["new", "cur"] {
            let dir = root + "/" + folder
            guard case .success(.directory) = FileBytes.kind(dir) else { continue }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            } catch {
                throw .unreadable(path: dir, reason: "cannot list the folder")
            }
            for name in names where !name.hasPrefix(".") {
                let source = folder + "/" + name
                switch FileBytes.kind(dir + "/" + name) {
                case .success(.file): break
                case .success(.directory), .success(.other):
                    skipped.append(SkippedMessage(source: source, reason: "not a regular file"))
                    continue
                case .failure(let f):
                    skipped.append(SkippedMessage(source: source, reason: f.description))
                    continue
                }
                let (unique, flags) = split(name)
                messages.append(StoredMessage(source: source, fallbackID: unique,
                                              seen: folder == "cur" && (flags?.contains("S") ?? false),
                                              delivered: deliveryTime(unique), content: .file(dir + "/" + name)))
            }
        }
        return Mailbox(path: root, format: .maildir, messages: messages, skipped: skipped)
    }

    /// `1795680000.M1P1001.host:2,RS` → ("1795680000.M1P1001.host", "RS"); no `:2,` → flags nil.
    static func split(_ name: String) -> (unique: String, flags: String?) {
        guard let r = name.range(of: ":2,", options: .backwards) else { return (name, nil) }
        return (String(name[..<r.lowerBound]), String(name[r.upperBound...]))
    }

    static func deliveryTime(_ unique: String) -> Date? {
        let digits = unique.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 9, digits.count <= 11, let t = Double(digits) else { return nil }
        return Date(timeIntervalSince1970: t)
    }
}
