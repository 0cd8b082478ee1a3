import Foundation
import MailCore
import SkillKit

/// The SkillKit face of mail triage: decodes input and config (`MailRequest`), runs `MailTriage` from
/// MailCore, and encodes the reports. Messages in the request locale's language (en, or zh for `zh…`).
struct MailSkill: AgentSkill {
    let id = "dev.skillhost.mail"
    let name = "Mail"
    let version = "1.0.0"
    let category = "communication"
    let vendor = "skillhost"
    let description = "Reads a Maildir or mbox mailbox (RFC 5322, MIME, UTF-8/GBK/… subjects), labels messages as invoices, meeting invitations, newsletters or personal mail, and extracts to-dos with due dates."

    var supportedIntents: [SkillIntent] { MailIntents.all }
    /// The configured mailbox (`"mailbox"`: a Maildir folder or an mbox file), read-only. A `path` in a
    /// call's input must lie inside what the owner granted.
    var permissions: SkillPermissions { SkillPermissions(read: [.config(MailRequest.configKey)]) }

    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        // Reading files can take long: off the host's thread that called invoke() (see AgentSkill.execute).
        await Task.yield()
        let request = try MailRequest(input: input, context: context)
        let language = TextLanguage(locale: context.locale)
        switch input.intent {
        case MailIntents.triage:
            let report = TriageReport(try request.run(context: context), language: language)
            return try SkillResult(report, message: report.message)
        case MailIntents.todos:
            let report = ToDoReport(try request.run(context: context), language: language)
            return try SkillResult(report, message: report.message)
        default:
            throw SkillError.invalidInput("unknown intent \"\(input.intent)\"")
        }
    }

    /// Lists the configured mailbox (without reading messages); without one the skill is still usable
    /// with `path`.
    func healthCheck(context: SkillContext) async -> SkillHealth {
        let config: MailConfig
        do { config = try context.config() } catch { return .unavailable((error as? SkillError)?.message ?? "\(error)") }
        guard let configured = config.mailbox, !configured.isEmpty else {
            return SkillHealth(status: .ok, message: "no default mailbox (config key \"\(MailRequest.configKey)\"); calls pass \"path\"")
        }
        let path = MailRequest.absolute(configured)
        do {
            let mailbox = try Mailbox.open(path: path)
            return SkillHealth(status: .ok, message: "\(mailbox.format.rawValue) \(path): \(mailbox.messages.count) messages")
        } catch {
            return .unavailable("configured mailbox (config key \"\(MailRequest.configKey)\"): \(error.description)")
        }
    }
}

@_cdecl("skillhost_entry")
public func skillhost_entry() -> UnsafeRawPointer {
    exportSkill(MailSkill())
}
