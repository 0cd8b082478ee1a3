import Glibc
import SkillWire

/// Watches the skill folders with inotify and calls `changed` when their `.so` files were added,
/// replaced or removed — once the folders have settled, and never while a file is still being written.
///
/// - A file written in place (`cp new.so skills.d/`) is created, modified many times and closed: it
///   counts only after IN_CLOSE_WRITE, and while any `.so` is open for writing (created or modified,
///   not yet closed) nothing is rescanned. A writer that stops without closing is given up on after
///   `stallMs` without events.
/// - A file renamed into place (`skillhost install`, `mv`) arrives whole with IN_MOVED_TO: the safe way.
/// - After the last event, the watcher waits `settleMs` more (a burst of copies makes one rescan), then
///   checks that every changed file's size and mtime are what they were at its last event; if not, it
///   waits again.
/// Blocks on `poll` / `read` on a thread of its own; no polling with sleeps.
public final class SkillFolderWatcher: Sendable {
    let fd: Int32
    let directories: [Int32: String]
    let settleMs: Int32
    let stallMs: Int32
    let changed: @Sendable () -> Void

    /// nil when inotify is unavailable or no folder can be watched.
    public init?(directories: [String], settleMs: Int = 25, stallMs: Int = 2000, changed: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        var dirs: [Int32: String] = [:]
        let mask = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB)
        for d in directories {
            let wd = inotify_add_watch(fd, d, mask)
            if wd >= 0 { dirs[wd] = d }
        }
        guard !dirs.isEmpty else { close(fd); return nil }
        self.fd = fd
        self.directories = dirs
        self.settleMs = Int32(settleMs)
        self.stallMs = Int32(stallMs)
        self.changed = changed
    }

    /// Starts watching on a thread of its own (for the life of the process).
    public func start() -> Bool { startDetachedThread(stackSize: 256 * 1024) { [self] in loop() } }

    private struct Stamp: Equatable { var size: Int64; var mtimeNs: Int64 }

    private func stamp(_ path: String) -> Stamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Stamp(size: Int64(st.st_size), mtimeNs: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var writing = Set<String>()          // .so files open for writing
        var pending: [String: Stamp?] = [:]  // changed .so files → stamp at their last event
        while true {
            if !pending.isEmpty || !writing.isEmpty {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let r = poll(&p, 1, writing.isEmpty ? settleMs : stallMs)
                if r < 0 && errno == EINTR { continue }
                if r == 0 {
                    writing.removeAll()  // settled, or a writer stalled: look at what is there
                    let moved = pending.filter { stamp($0.key) != $0.value }
                    if !moved.isEmpty {
                        for k in moved.keys { pending[k] = stamp(k) }
                        continue
                    }
                    pending.removeAll()
                    changed()
                    continue
                }
            }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            var off = 0
            buffer.withUnsafeBytes { raw in
                while off + MemoryLayout<inotify_event>.size <= n {
                    let e = raw.loadUnaligned(fromByteOffset: off, as: inotify_event.self)
                    let nameStart = off + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[nameStart..<min(n, nameStart + Int(e.len))]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    off = nameStart + Int(e.len)
                    guard name.hasSuffix(".so"), !name.hasPrefix("."), let dir = directories[e.wd] else { continue }
                    let path = dir + "/" + name
                    let m = Int32(bitPattern: e.mask)
                    if m & Int32(IN_CREATE | IN_MODIFY) != 0 { writing.insert(path) }
                    if m & Int32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) != 0 { writing.remove(path) }
                    pending[path] = stamp(path)
                }
            }
        }
    }
}
