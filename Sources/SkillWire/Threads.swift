#if canImport(Glibc)
import Glibc
#endif

/// Holds a thread's body across `pthread_create`.
private final class ThreadBody: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Starts `body` on a new detached POSIX thread (not a Dispatch pool thread): for loops that block
/// for a long time (reading a socket, waiting for a process), which must never starve the pool.
/// Used by both sides of the protocol. Returns false if the thread could not be created (then
/// `body` does not run).
@discardableResult
public func startDetachedThread(stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) -> Bool {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var attr = pthread_attr_t()
    pthread_attr_init(&attr)
    defer { pthread_attr_destroy(&attr) }
    pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
    pthread_attr_setstacksize(&attr, stackSize)
    var thread = pthread_t()
    let rc = pthread_create(&thread, &attr, { raw in
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, context)
    if rc != 0 {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        return false
    }
    return true
}
