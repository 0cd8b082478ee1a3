import FoundationEssentials
import Glibc
import SkillWire
import SkillSandboxC
import Synchronization

/// What this kernel offers the worker sandbox, probed in the host without changing the host (a
/// prediction: each worker reports what it really applied in its hello, see `SandboxFacts`). What it
/// cannot foresee: a worker whose seccomp filter fails to install although the kernel has seccomp
/// (filters it inherited already fill the kernel's budget). That worker's report replaces the
/// prediction, in this process and, stored (`SandboxReports`), in later ones.
public struct SandboxSupport: Sendable, Equatable {
    /// The Landlock ABI version (0: none). 1–3 files, 4 TCP ports, 6 signal and abstract-socket scoping.
    public var landlockABI: Int
    public var seccomp: Bool
    /// Whether a worker can get a network namespace of its own (root: CLONE_NEWNET; a plain user:
    /// unprivileged user namespaces). Needed only where seccomp is missing or its filter fails to
    /// install: with the filter, a worker without a granted port is denied every `socket()` instead.
    public var networkNamespace: Bool
    /// Whether seccomp can answer a system call with an errno (what a worker checks to refuse sockets
    /// instead of entering a network namespace).
    public var seccompErrno: Bool

    public static let current: SandboxSupport = {
        let abi = Int(skh_landlock_create_ruleset(nil, 0, 1))
        // PR_GET_SECCOMP answers 0 (not filtered) or 2 (filtered) where seccomp exists, EINVAL where not.
        let seccomp = skh_prctl(21 /* PR_GET_SECCOMP */, 0, 0, 0, 0) >= 0
        return SandboxSupport(landlockABI: max(abi, 0), seccomp: seccomp, networkNamespace: userNamespacesUsable(),
                              seccompErrno: skh_seccomp_errno_available() == 0)
    }()

    /// What a worker with (or without) network would lack on this kernel, each with why.
    public func missing(network: Bool) -> [String] {
        var out: [String] = []
        if landlockABI == 0 {
            out.append("landlock (no Landlock in this kernel, or disabled at boot: files and TCP ports are not restricted)")
        } else {
            if landlockABI < 4 { out.append("landlock-network (needs Landlock ABI 4, Linux 6.7)") }
            if landlockABI < 6 { out.append("landlock-scoping (signals and abstract unix sockets; needs Landlock ABI 6, Linux 6.12)") }
        }
        if !seccomp { out.append("seccomp (the kernel has no seccomp filter support)") }
        if !network && !seccompErrno && !networkNamespace { out.append("network-namespace (unprivileged user namespaces are disabled)") }
        return out
    }

    private static func userNamespacesUsable() -> Bool {
        if geteuid() == 0 { return true }
        func number(_ path: String) -> Int? {
            guard let d = FileManager.default.contents(atPath: path) else { return nil }
            return Int(String(decoding: d, as: UTF8.self).filter { !$0.isWhitespace })
        }
        if number("/proc/sys/user/max_user_namespaces") == 0 { return false }
        if number("/proc/sys/kernel/unprivileged_userns_clone") == 0 { return false }
        if number("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1 { return false }
        return true
    }
}

/// What a worker said about its sandbox in its hello. The latest report per skill is kept by its
/// host's `SandboxReports` (partial ones also in the state folder, for later processes), never
/// process-wide: two hosts in one process keep their own.
public enum SandboxFacts {
    public struct Fact: Sendable, Equatable {
        public var mode: String
        public var missing: [String]
        /// How long the worker took to apply its sandbox, in microseconds.
        public var applyMicros: Int
    }

    /// Where a worker's report is kept, and the sandbox plan the worker was started under.
    struct Record: Sendable {
        let reports: SandboxReports
        let plan: String
    }

    /// Keeps the report in a worker's hello (`hello`: its "sandbox" member) in `record` (nil: a worker
    /// started without a host's reports, which keeps nothing); logs a partial sandbox. "off" is not a
    /// report (the config's say, read from the config).
    static func record(skill id: String, hello: JSON?, into record: Record?) {
        guard let h = hello, let mode = h["mode"]?.stringValue, mode != "off" else { return }
        let missing = (h["missing"]?.arrayValue ?? []).compactMap(\.stringValue) + (h["problems"]?.arrayValue ?? []).compactMap(\.stringValue)
        let fact = Fact(mode: mode, missing: missing, applyMicros: Int(h["applyMicros"]?.intValue ?? 0))
        if let record { record.reports.record(fact, for: id, plan: record.plan) }
        if mode == "partial" {
            HostLog.warning("skill \(id)'s worker runs with a partial sandbox; missing: " + missing.joined(separator: "; "))
        }
    }
}

/// The host's own hardening: PR_SET_DUMPABLE 0, so that no process of the same user (a worker that
/// escaped its sandbox, another program) can read the host's memory through /proc/PID/mem, its
/// environment through /proc/PID/environ, or attach a debugger; and no core file holds its secrets.
enum HostHardening {
    static func apply() {
        _ = skh_prctl(4 /* PR_SET_DUMPABLE */, 0, 0, 0, 0)
    }
}

/// How a skill runs, as `list`, `inspect` and `doctor` show it.
public struct SandboxStatus: Sendable, Equatable {
    /// "full", "partial" or "off".
    public var mode: String
    /// For "partial": what is not in force. For "off": why (one entry).
    public var missing: [String]

    public var json: JSON {
        .object(JSONObject([("mode", .string(mode)), ("missing", .array(missing.map(JSON.string)))]))
    }
}

extension SkillHost {
    /// Whether and how `skill`'s worker is sandboxed: "off" for a trusted (in-process) skill or where
    /// the config turns it off; else what the last worker reported (in this process, or a partial
    /// sandbox stored by an earlier one: `SandboxReports`), or the kernel probe.
    public func sandboxStatus(of skill: RegisteredSkill) -> SandboxStatus {
        if skill.isolation == .inProcess {
            return SandboxStatus(mode: "off", missing: ["trusted: runs inside the host process, which cannot be sandboxed"])
        }
        if !config.sandbox { return SandboxStatus(mode: "off", missing: ["the config turns the sandbox off (\"sandbox\": false)"]) }
        if !config.sandboxEnabled(for: skill.id) {
            return SandboxStatus(mode: "off", missing: ["the config turns the sandbox off for this skill (\"grants\": {\"\(skill.id)\": {\"sandbox\": false}})"])
        }
        if let f = sandboxFact(of: skill.id) { return SandboxStatus(mode: f.mode, missing: f.missing) }
        if let f = invoker.runtimes.sandboxReports.report(for: skill.id, plan: { WorkerSandbox.make(for: skill, config: config, paths: paths)?.plan }) {
            return SandboxStatus(mode: f.mode, missing: f.missing)
        }
        let granted = config.grants[skill.id]?.permissions ?? .none
        let missing = SandboxSupport.current.missing(network: !granted.network.isEmpty)
        return SandboxStatus(mode: missing.isEmpty ? "full" : "partial", missing: missing)
    }

    /// What the latest worker of skill `id` this host started reported about its sandbox.
    public func sandboxFact(of id: String) -> SandboxFacts.Fact? { invoker.runtimes.sandboxReports.latest(for: id) }

    /// `{"requested":{…},"granted":{…},"missing":["network api.example.com:443", …],"unresolved":[…]}`:
    /// what the skill asks for, what the config grants, what it asks for but was not granted, and
    /// granted entries that name nothing (a `{config:KEY}` the skill's config section does not have).
    public func permissionsJSON(of skill: RegisteredSkill) -> JSON {
        let requested = skill.summary.identity.permissions
        let granted = config.grants[skill.id]?.permissions ?? .none
        return .object(JSONObject([("requested", requested.json), ("granted", granted.json),
                                   ("missing", .array(requested.missing(from: granted).map(JSON.string))),
                                   ("unresolved", .array(unresolved(granted, of: skill).map(JSON.string)))]))
    }

    /// The granted entries that name nothing. Only path and network entries can; a grant without
    /// any (most skills: none at all) needs no resolver.
    private func unresolved(_ granted: Permissions, of skill: RegisteredSkill) -> [String] {
        if granted.read.isEmpty && granted.write.isEmpty && granted.network.isEmpty { return [] }
        let resolver = PermissionResolver(home: paths.home, environment: invoker.environment,
                                          dataDir: paths.dataDir + "/" + skill.id, config: config.skills[skill.id])
        return resolver.resolve(granted).unresolved
    }
}

extension SkillHost {
    /// `permissionsJSON` for a skill that need not be registered (`inspect` of a file).
    public func permissionsJSON(id: String, requested: Permissions) -> JSON {
        let granted = config.grants[id]?.permissions ?? .none
        return .object(JSONObject([("requested", requested.json), ("granted", granted.json),
                                   ("missing", .array(requested.missing(from: granted).map(JSON.string)))]))
    }

    /// Appends the members `list --json` adds for permissions and the sandbox, each after a comma:
    /// `permissions` (`permissionsJSON`: requested, granted, missing, unresolved), `sandbox` ("full" |
    /// "partial" | "off") and `sandboxMissing` (what is not in force, or why it is off). Written
    /// straight from the values, as `JSON.write` would write them.
    public func writeListMembers(of skill: RegisteredSkill, to line: inout Line) {
        let requested = skill.summary.identity.permissions
        let granted = config.grants[skill.id]?.permissions ?? .none
        line.key("permissions")
        line.raw("{")
        line.key("requested"); requested.writeJSON(to: &line)
        line.key("granted"); granted.writeJSON(to: &line)
        line.key("missing"); line.strings(requested.missing(from: granted))
        line.key("unresolved"); line.strings(unresolved(granted, of: skill))
        line.raw("}")
        let status = sandboxStatus(of: skill)
        line.key("sandbox"); line.quoted(status.mode)
        line.key("sandboxMissing"); line.strings(status.missing)
    }
}
