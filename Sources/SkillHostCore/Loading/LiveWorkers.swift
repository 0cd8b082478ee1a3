import Dispatch
import Glibc
import Synchronization

/// Every worker process of this host that has not ended yet, so that none outlives the host.
///
/// When the host exits normally (`exit`, returning from main), an atexit handler stops them all:
/// a `shutdown` frame, a short wait, SIGKILL to each process group for the rest, and a wait for the
/// watchers to reap them. If the host dies without running atexit handlers (SIGKILL, a crash), the
/// workers notice on their own: their channel reaches end-of-file and each one kills its process
/// group (see skillhost-worker's `hostGone`). Thread-safe.
enum LiveWorkers {
    private static let all = Mutex<[ObjectIdentifier: WorkerProcess]>([:])
    private static let atExitRegistered = Atomic<Bool>(false)

    static func add(_ w: WorkerProcess) {
        if atExitRegistered.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            atexit { LiveWorkers.stopAll() }
        }
        all.withLock { $0[ObjectIdentifier(w)] = w }
    }

    static func remove(_ w: WorkerProcess) {
        _ = all.withLock { $0.removeValue(forKey: ObjectIdentifier(w)) }
    }

    /// The workers that have not ended.
    static var current: [WorkerProcess] { all.withLock { Array($0.values) } }

    /// Stops every live worker: a clean `shutdown` first, SIGKILL after `graceMs`; returns when all have
    /// been reaped (or, for one stuck in the kernel, after another second).
    static func stopAll(graceMs: Int = 300) {
        let workers = current
        guard !workers.isEmpty else { return }
        for w in workers { w.beginStop() }
        let deadline = DispatchTime.now() + .milliseconds(graceMs)
        var left: [WorkerProcess] = []
        for w in workers where !w.awaitEnd(until: deadline) { left.append(w) }
        for w in left { w.signalGroup(SIGKILL) }
        let last = DispatchTime.now() + .seconds(1)
        for w in left { _ = w.awaitEnd(until: last) }
    }
}
