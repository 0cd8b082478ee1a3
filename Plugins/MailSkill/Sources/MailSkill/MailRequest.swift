import Foundation
import MailCore
import SkillKit

/// This skill's config section: `{"mailbox": "~/Maildir/INBOX"}` — the mailbox read when a call passes
/// no `path`.
struct MailConfig: Decodable {
    var mailbox: String?
}

/// The input both intents share, decoded and checked: which mailbox, and which messages.
///
/// Contract: `path` wins over the configured `mailbox`; with neither, `invalid_input` says how to configure
/// one. `~` is expanded; a relative path is resolved against the host's working directory. A path that is
/// missing or not a mailbox is `invalid_input` naming the field (or `unavailable` naming the config key
/// when it came from the config); a mailbox that exists but cannot be read is `unavailable`. `since` is a
/// day (from its start in the caller's time zone) or an RFC 3339 instant.
struct MailRequest {
    static let configKey = "mailbox"

    struct Input: Decodable {
        var path: String?
        var since: String?
        var limit: Int?
        var unreadOnly: Bool?
    }

    let path: String
    let fromConfig: Bool
    let options: TriageOptions

    init(input: SkillInput, context: SkillContext) throws {
        let params = try input.decode(Input.self)
        let config: MailConfig = try context.config()
        if let p = params.path {
            try input.check(!p.trimmingCharacters(in: .whitespaces).isEmpty,
                            "field \"path\": expected a Maildir folder or an mbox file, found an empty string")
            path = Self.absolute(p)
            fromConfig = false
        } else if let m = config.mailbox, !m.isEmpty {
            path = Self.absolute(m)
            fromConfig = true
        } else {
            // Not the input's fault: the skill is not set up yet (a configuration problem).
            throw SkillError.unavailable(
                "no mailbox: pass \"path\" (a Maildir folder or an mbox file), or set a default in this skill's config, "
                + #"e.g. {"skills":{"dev.skillhost.mail":{"mailbox":"~/Maildir"}}}"#)
        }
        let limit = params.limit ?? 50
        try input.check((1...1000).contains(limit), "field \"limit\": expected 1 to 1000, found \(limit)")
        var since: Date?
        if let s = params.since {
            if let d = SkillDates.parseDay(s) {
                since = SkillDates.startOfDay(year: d.year, month: d.month, day: d.day, timeZone: context.timeZone)
            } else if let instant = SkillDates.parseInstant(s) {
                since = instant
            } else {
                throw SkillError.invalidInput("field \"since\": expected a date YYYY-MM-DD or an RFC 3339 date-time, found \"\(s)\"")
            }
        }
        options = TriageOptions(since: since, limit: limit, unreadOnly: params.unreadOnly ?? false, floatingZone: context.timeZone)
    }

    /// Reads and triages the mailbox, mapping mailbox errors to `SkillError` as described on the type.
    func run(context: SkillContext) throws -> TriageRun {
        let run: TriageRun
        do {
            run = try MailTriage.run(path: path, options: options, isCancelled: { context.isCancelled })
        } catch {
            let origin = fromConfig ? "configured mailbox (config key \"\(Self.configKey)\")" : "field \"path\""
            switch error {
            case .notFound, .notAMailbox:
                if fromConfig { throw SkillError.unavailable("\(origin): \(error.description); fix it in this skill's config") }
                throw SkillError.invalidInput("\(origin): \(error.description)")
            case .unreadable:
                throw SkillError.unavailable("\(origin): \(error.description)")
            }
        }
        if run.cancelled { throw SkillError.cancelled("cancelled after reading \(run.total) messages") }
        for s in run.skipped { context.log(.warning, "skipped \(s.source): \(s.reason)") }
        return run
    }

    static func absolute(_ raw: String) -> String {
        var p = raw
        if p == "~" || p.hasPrefix("~/") {
            p = (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + p.dropFirst()
        }
        if !p.hasPrefix("/") { p = FileManager.default.currentDirectoryPath + "/" + p }
        return (p as NSString).standardizingPath
    }
}
