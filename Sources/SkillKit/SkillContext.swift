import Foundation

/// What a skill knows about the surroundings of a call, and the host services it may use during it.
///
/// Built by the bridge from the call's `context_json` (see `skillhost.h`): `config`, `dataDir`, `locale`,
/// `timeZone`, `now`, `caller`. Unknown members are ignored; missing or unusable ones get defaults:
/// config `{}`, data directory `$XDG_DATA_HOME/skillhost/<skill id>` (or `~/.local/share/…`), locale `"en"`,
/// `TimeZone.current`, the current time, caller `"automation"`.
///
/// **Ambient context** (in `setUp` and `healthCheck`, where there is no call): `healthCheck` gets the
/// context the host passes to the ABI `health` (the same config and data directory a call would get);
/// `setUp`, and a host that passes none, get those of the most recent call (the defaults above before
/// the first call); `now` is
/// the current time, `progress` is a no-op, `isCancelled` is `false`, `log` and the context store go to the
/// host without a call.
///
/// **Lifetime**: the services (`progress`, `log`, `isCancelled`, `contextValue`, `setContextValue`) act on the
/// call only until it completes, i.e. until `execute` returns or throws. Do not keep using them from work
/// that outlives `execute`: afterwards `progress` and `setContextValue` are no-ops (`false`), `contextValue`
/// returns `nil`, `isCancelled` returns `true` (nobody waits for the result any more), and `log` still
/// writes the line, without the call. All members are safe to use from any thread.
public struct SkillContext: Sendable {
    /// This skill's section of the host configuration, as UTF-8 JSON (an object; `{}` when absent).
    public var configJSON: [UInt8] { fields.configJSON }
    /// A directory this skill may keep files in. It may not exist yet: create it on demand.
    public var dataDirectory: String { fields.dataDirectory }
    /// BCP 47 tag of the caller, e.g. `"zh-CN"`.
    public var locale: String { fields.locale }
    /// The caller's time zone.
    public var timeZone: TimeZone { fields.timeZone }
    /// The instant the request counts as "now" (injectable by the host for tests).
    public var now: Date { fields.now }
    /// `"human"`, `"automation"` or `"agent"`.
    public var caller: String { fields.caller }

    /// The members above, shared: a host sends the same context call after call, so the bridge builds
    /// them once per change and each call's context costs one reference, not one per member.
    let fields: ContextFields
    let session: CallSession?

    /// A context that is not attached to any host: services are no-ops, `isCancelled` is `false`.
    /// For calling `execute` directly from unit tests.
    public init(configJSON: [UInt8] = Array("{}".utf8), dataDirectory: String, locale: String = "en",
                timeZone: TimeZone = .current, now: Date = Date(), caller: String = "automation") {
        self.init(fields: ContextFields(configJSON: configJSON, dataDirectory: dataDirectory, locale: locale,
                                        timeZone: timeZone, now: now, caller: caller),
                  session: nil)
    }

    init(fields: ContextFields, session: CallSession?) {
        self.fields = fields
        self.session = session
    }

    /// Decodes this skill's configuration section (from `{}` when the host has none).
    /// - Throws: `SkillError.unavailable` naming the field, e.g.
    ///   `invalid configuration: field "store": expected a string, found a number` (the fix is in the
    ///   host's configuration, not in the input).
    public func config<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try SkillJSON.decode(T.self, from: configJSON)
        } catch let error as DecodingError {
            throw SkillError.unavailable("invalid configuration: " + DecodingErrorMessage.describe(error, json: configJSON))
        }
    }

    /// Reports progress: step `step` of `total` (1-based; `total` 0 = unknown), with an optional message.
    public func progress(step: Int, total: Int = 0, message: String? = nil) {
        session?.progress(step: clamp(step), total: clamp(total), message: message)
    }

    /// Writes one line to the skill's log in the host.
    public func log(_ level: LogLevel, _ message: String) {
        session?.log(level, message)
    }

    /// `true` once the host no longer wants the result (deadline passed, or the caller cancelled). Long
    /// work should check it and throw `SkillError.cancelled`.
    public var isCancelled: Bool {
        session?.isCancelled ?? false
    }

    /// How long the host will still wait for this call's result (its deadline), or `nil` when there is
    /// no deadline, no call, or the host predates ABI 1.1 (then `missingHostServices` lists
    /// `"time_left_ms"`). Use it to bound your own waits, e.g. an HTTP request's timeout.
    public var timeLeft: Duration? {
        session?.millisecondsLeft.map { .milliseconds($0) }
    }

    /// The `skh_host` services this SDK knows that the host does not offer (an older host), by their C
    /// names, e.g. `["time_left_ms"]` on a 1.0 host. Empty on a current host and outside a host.
    public var missingHostServices: [String] {
        session?.host?.missing ?? []
    }

    /// Reads `key` from the host's shared context store: the JSON text, or `nil` if not set.
    public func contextValue(_ key: String) -> [UInt8]? {
        session?.contextValue(key)
    }

    /// Writes `key` = `json` (UTF-8 JSON text) to the host's shared context store.
    /// - Returns: `true` on success; `false` if the JSON is invalid, the store refused it, or there is no host.
    @discardableResult
    public func setContextValue(_ key: String, json: [UInt8]) -> Bool {
        session?.setContextValue(key, json: json) ?? false
    }

    private func clamp(_ v: Int) -> UInt32 { UInt32(clamping: v) }
}

/// The members of a `SkillContext` other than the call's services; immutable.
final class ContextFields: Sendable {
    let configJSON: [UInt8]
    let dataDirectory: String
    let locale: String
    let timeZone: TimeZone
    let now: Date
    let caller: String

    init(configJSON: [UInt8], dataDirectory: String, locale: String, timeZone: TimeZone, now: Date, caller: String) {
        self.configJSON = configJSON
        self.dataDirectory = dataDirectory
        self.locale = locale
        self.timeZone = timeZone
        self.now = now
        self.caller = caller
    }
}
