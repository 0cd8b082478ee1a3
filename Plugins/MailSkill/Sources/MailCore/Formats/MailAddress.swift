import Foundation

/// The first mailbox of an address header (`From`), RFC 5322 §3.4, read leniently.
///
/// Contract: `Name <addr>`, `"Quoted, Name" <addr>`, `addr (Comment Name)` and a bare `addr` are
/// understood; the display name is unquoted and RFC 2047 decoded (also inside quotes, as mailers do).
/// `address` is lowercased only in its domain. Returns nil for an empty header.
public struct MailAddress: Sendable, Equatable {
    public let name: String?
    public let address: String

    /// `Name <address>`, or the address alone.
    public var display: String {
        guard let name, !name.isEmpty else { return address }
        return "\(name) <\(address)>"
    }

    /// The part before `@`, lowercased.
    public var localPart: String {
        String(address.split(separator: "@", maxSplits: 1).first ?? "").lowercased()
    }

    public init(name: String?, address: String) {
        self.name = name
        self.address = address
    }

    public init?(header raw: String) {
        let first = Self.firstMailbox(raw).trimmingCharacters(in: .whitespaces)
        guard !first.isEmpty else { return nil }
        var name: String?
        var address: String
        if let open = first.lastIndex(of: "<"), let close = first[open...].firstIndex(of: ">") {
            address = String(first[first.index(after: open)..<close])
            name = String(first[..<open])
        } else if let open = first.firstIndex(of: "("), let close = first.lastIndex(of: ")"), open < close {
            address = String(first[..<open])
            name = String(first[first.index(after: open)..<close])
        } else {
            address = first
        }
        address = address.trimmingCharacters(in: .whitespaces)
        if let at = address.lastIndex(of: "@") {
            address = address[..<at] + address[at...].lowercased()
        }
        name = name.map { EncodedWords.decode(HeaderParameters.unquote($0.trimmingCharacters(in: .whitespaces))).text }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        self.init(name: name?.isEmpty == true ? nil : name, address: address)
    }

    /// The text up to the first comma outside quotes and angle brackets.
    private static func firstMailbox(_ raw: String) -> String {
        var quoted = false, angle = 0
        for (i, c) in zip(raw.indices, raw) {
            switch c {
            case "\"": quoted.toggle()
            case "<" where !quoted: angle += 1
            case ">" where !quoted: angle = max(0, angle - 1)
            case "," where !quoted && angle == 0: return String(raw[..<i])
            default: break
            }
        }
        return raw
    }
}
