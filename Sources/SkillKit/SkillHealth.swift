/// What `AgentSkill.healthCheck(context:)` reports. The bridge turns it into an `SKH_HEALTH_*` code and a
/// detail object `{"latencyMs": …, "message": …}` for the host.
public struct SkillHealth: Sendable, Equatable {
    /// Whether the skill can serve now.
    public enum Status: Sendable, Equatable {
        /// Ready to serve every intent (`SKH_HEALTH_OK`).
        case ok
        /// Serving, but slow or partly broken (`SKH_HEALTH_DEGRADED`); say what in `message`.
        case degraded
        /// Cannot serve now (`SKH_HEALTH_UNAVAILABLE`); say why and what would fix it in `message`.
        case unavailable
    }

    public var status: Status
    /// One sentence for people: what is wrong and how to fix it, or what was checked.
    public var message: String
    /// How long the check took. `nil` lets the bridge report the time `healthCheck` took.
    public var latencyMs: Double?

    public init(status: Status, message: String, latencyMs: Double? = nil) {
        self.status = status
        self.message = message
        self.latencyMs = latencyMs
    }

    /// Healthy, with the message "ok".
    public static let ok = SkillHealth(status: .ok, message: "ok")

    /// Serving, but not fully; `message` says what is degraded.
    public static func degraded(_ message: String, latencyMs: Double? = nil) -> SkillHealth {
        SkillHealth(status: .degraded, message: message, latencyMs: latencyMs)
    }

    /// Cannot serve; `message` says why and what would fix it.
    public static func unavailable(_ message: String, latencyMs: Double? = nil) -> SkillHealth {
        SkillHealth(status: .unavailable, message: message, latencyMs: latencyMs)
    }
}
