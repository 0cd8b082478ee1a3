import Synchronization

/// Keeps the last `capacity` finished calls alive for a while before their memory is freed.
///
/// Both sides of the ABI hand a skill a `skh_call` and must free it once the skill has completed it.
/// A buggy skill may call `complete` a second time on the same call; keeping finished calls around
/// for a while lets that second call be detected and ignored instead of touching freed memory (a
/// safety net, not a guarantee: the header says so). `retire` returns the item that falls out of the
/// ring; the caller frees it. Thread-safe.
/// Inlinable: a generic class used from another module is otherwise not specialized, and each
/// `retire` looked up the metadata of `[Item?]` and `Item?` at run time (two hash lookups per call).
public final class RetirementRing<Item: AnyObject & Sendable>: Sendable {
    @usableFromInline let slots: Mutex<(items: [Item?], next: Int)>

    @inlinable
    public init(capacity: Int = 256) {
        slots = Mutex((Array(repeating: nil, count: capacity), 0))
    }

    /// Puts `item` in the ring and returns the one it displaces (now safe to free), if any.
    @inlinable
    public func retire(_ item: Item) -> Item? {
        slots.withLock { r in
            let old = r.items[r.next]
            r.items[r.next] = item
            r.next = (r.next + 1) % r.items.count
            return old
        }
    }
}
