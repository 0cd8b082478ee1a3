import Foundation
import XCTest
@testable import MailCore

/// Paths of the committed sample mailbox, and helpers to build throwaway mailboxes.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let maildir = packageRoot + "/Samples/Maildir"
    static let mbox = packageRoot + "/Samples/archive.mbox"
    static let warsaw = TimeZone(identifier: "Europe/Warsaw")!

    /// A new empty temporary directory (removed by the caller's tearDown via `removeTemporary`).
    static func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "mailskill-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A Maildir with cur/, new/, tmp/ and `files` (relative path → content).
    static func maildir(_ files: [String: String]) throws -> String {
        let dir = try temporaryDirectory()
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        return dir
    }

    /// Parses `text` (LF line ends, or CRLF when `crlf`).
    static func message(_ text: String, crlf: Bool = false) throws -> MailMessage {
        let t = crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
        return try MailMessage.parse(Array(t.utf8))
    }

    /// The sample mailbox triaged with default options.
    static func triage(_ path: String, options: TriageOptions = TriageOptions(limit: 1000, floatingZone: warsaw)) throws -> TriageRun {
        try MailTriage.run(path: path, options: options)
    }
}

extension TriageRun {
    /// The message with this id; fails the test when missing.
    func message(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws -> TriagedMessage {
        try XCTUnwrap(messages.first { $0.id == id }, "no message \(id) in \(messages.map(\.id))", file: file, line: line)
    }
}
