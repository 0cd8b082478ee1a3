/// The outcome of one conformance check of `skillhost validate`.
public struct ValidationCheck: Sendable {
    public enum Status: String, Sendable {
        /// The skill does what the check asks.
        case pass
        /// Not wrong, but worth fixing (no examples, an unhealthy answer under a bare configuration, …).
        case warn
        /// The skill breaks the contract; `install` refuses it (unless `--force`).
        case fail
        /// Not run, and the message says why (an earlier failure, nothing to call, not claimed).
        case skip
    }

    /// A stable name: file, manifest, abi, load, health, examples, wrong-input, exactly-once,
    /// concurrency, memory.
    public var name: String
    public var status: Status
    /// What was expected, what was found, and — for warn and fail — the fix.
    public var message: String
    /// Specifics for `--json` (per-intent findings, measurements), when there are any.
    public var details: JSON?

    public init(_ name: String, _ status: Status, _ message: String, details: JSON? = nil) {
        self.name = name
        self.status = status
        self.message = message
        self.details = details
    }

    public var json: JSON {
        var o = JSONObject([("name", .string(name)), ("status", .string(status.rawValue)), ("message", .string(message))])
        if let details { o["details"] = details }
        return .object(o)
    }
}

/// What `skillhost validate FILE` found: one `ValidationCheck` per check, in a fixed order.
public struct ValidationReport: Sendable {
    /// The file as given, made absolute.
    public var file: String
    /// The skill's id and version, once its manifest could be read.
    public var id: String?
    public var version: String?
    public var checks: [ValidationCheck] = []
    /// What the skill asks to reach (skh_skill.permissions), once its manifest was read. Validation
    /// runs the skill sandboxed with only what the config grants it already (nothing, before install).
    public var permissions: Permissions?
    /// Set when a static check (file, manifest, abi) refused the file, exactly as a scan would.
    public var refusal: Refusal?

    /// True when no check failed (warnings and skips allowed).
    public var ok: Bool { !checks.contains { $0.status == .fail } }

    public func count(_ status: ValidationCheck.Status) -> Int { checks.filter { $0.status == status }.count }

    /// The checks that failed.
    public var failures: [ValidationCheck] { checks.filter { $0.status == .fail } }

    /// "7 passed, 1 warning, 0 failed" (and ", 2 skipped" when some were).
    public var tally: String {
        let w = count(.warn), s = count(.skip)
        return "\(count(.pass)) passed, \(w) warning\(w == 1 ? "" : "s"), \(count(.fail)) failed" + (s > 0 ? ", \(s) skipped" : "")
    }

    /// `{"file","id","version","ok","checks":[{"name","status","message","details"?}],"requestedPermissions"}`.
    public var json: JSON {
        .object(JSONObject([("file", .string(file)), ("id", id.map(JSON.string) ?? .null),
                            ("version", version.map(JSON.string) ?? .null), ("ok", .bool(ok)),
                            ("checks", .array(checks.map(\.json))), ("requestedPermissions", permissions?.json ?? .null)]))
    }
}
