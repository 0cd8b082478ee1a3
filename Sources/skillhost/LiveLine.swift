import Dispatch
import Glibc
import SkillHostCore
import Synchronization

/// One line of stderr rewritten in place while a long operation runs (`invoke`, `validate`,
/// `install`, a slow scan), only when stderr is a terminal that can take it (`Terminal.live`):
/// silent when piped and plain for TERM=dumb. Quiet for the first 300 ms, so a quick command
/// prints nothing; then what `update` last said, with the seconds elapsed. A report the operation
/// itself makes (`update(…, now: true)`, e.g. a skill's progress) shows at once. `finish` erases
/// the line. Thread-safe: updates may come from any thread.
final class LiveLine: @unchecked Sendable {
    private struct State {
        var text: String
        var shown = false
        var done = false
    }
    private let state: Mutex<State>
    private let timer: DispatchSourceTimer?
    private let start = DispatchTime.now()
    private static let delayMs = 300

    init(_ text: String) {
        state = Mutex(State(text: text))
        guard Terminal.live else { timer = nil; return }
        let t = DispatchSource.makeTimerSource(queue: .global())
        t.schedule(deadline: .now() + .milliseconds(Self.delayMs), repeating: .milliseconds(250))
        timer = t
        t.setEventHandler { [weak self] in self?.draw() }
        t.resume()
    }

    /// Shows `text` from now on: at once when `now`, else from the next tick after the quiet start.
    func update(_ text: String, now: Bool = false) {
        guard Terminal.live else { return }
        state.withLock { $0.text = text }
        if now || DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= UInt64(Self.delayMs) * 1_000_000 { draw() }
    }

    /// Stops and erases the line. Call once the operation is over, before printing its result.
    func finish() {
        timer?.cancel()
        state.withLock { s in
            if s.shown { writeStandardError("\r\u{1B}[K") }
            s.done = true
        }
    }

    private func draw() {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        state.withLock { s in
            guard !s.done else { return }
            s.shown = true
            var line = Out.safe(s.text) + " (" + TimeText.oneDecimal(seconds) + " s)"
            let width = Terminal.errorWidth ?? 80
            if line.count >= width { line = String(line.prefix(max(width - 2, 10))) + "…" }
            writeStandardError("\r\u{1B}[K" + line)
        }
    }

    /// Runs `body` with a live line saying `text`, erased when it returns.
    static func during<T>(_ text: String, _ body: (LiveLine) throws -> T) rethrows -> T {
        let line = LiveLine(text)
        defer { line.finish() }
        return try body(line)
    }
}
