import SkillWire
import Synchronization

/// The shared context store skills read and write through the host services (`SkillServices`).
/// Values are JSON bytes; readers get copies, never shared mutable state.
///
/// In the host it is the store: every write bumps its version, and a worker gets a copy of the whole
/// store (`snapshot`) with a call whenever it changed since that worker's last call. In a worker it is
/// that copy (`replace`) plus the worker's own writes, which go to the host as well: other skills see
/// them from their next call, the writing worker at once. Thread-safe.
public final class ContextStore: Sendable {
    private let values = Mutex<(version: UInt64, map: [String: [UInt8]])>((0, [:]))

    public init() {}

    public func get(_ key: String) -> [UInt8]? { values.withLock { $0.map[key] } }

    public func set(_ key: String, _ value: [UInt8]) {
        values.withLock { v in
            v.map[key] = value
            v.version += 1
        }
    }

    /// Replaces every entry with the host's copy (a worker).
    public func replace(with entries: [String: [UInt8]]) {
        values.withLock { v in
            v.map = entries
            v.version += 1
        }
    }

    /// The store as one JSON object with its version, if the version differs from `version`.
    public func snapshot(ifNewerThan version: UInt64) -> (UInt64, [UInt8])? {
        values.withLock { v -> (UInt64, [UInt8])? in
            guard v.version != version else { return nil }
            var out = Line()
            out.raw("{")
            for (k, value) in v.map.sorted(by: { $0.key < $1.key }) {
                if out.bytes.count > 1 { out.raw(",") }
                out.quoted(k)
                out.raw(":")
                out.bytes.append(contentsOf: value)
            }
            out.raw("}")
            return (v.version, out.bytes)
        }
    }
}
