import Dispatch
import FoundationEssentials
import Glibc
import SkillHostCore

/// `skillhost invoke INTENT [--input JSON|@FILE|-] [--timeout MS] [--yes] [--idempotency-key K] [--json]`
/// The core decides whether a destructive intent needs confirming; this surface only asks the person.
enum InvokeCommand {
    static func run(_ args: Arguments) -> Int32 {
        let json = args.flag("--json")
        let intent = args.positionals[0]
        let timeout: Int?
        do { timeout = try args.int("--timeout") } catch { return Out.usage(error, json: json) }
        var input = args.values["--input"] ?? "{}"
        var read: (bytes: [UInt8], source: String)?
        if input == "-" {
            read = (readStandardInput(), "standard input")
        } else if input.hasPrefix("@") {
            let path = String(input.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                return Out.fail(SkillError(.invalidInput, "cannot read the input file \"\(path)\""), json: json)
            }
            read = ([UInt8](data), "the input file \"\(path)\"")
        }
        if let read {
            // Never turn bad bytes into U+FFFD: the skill (and an idempotency record) would see other input.
            if let offset = UTF8Text.firstInvalidByte(in: read.bytes) {
                return Out.fail(SkillError(.invalidInput, "the input from \(read.source) is not valid UTF-8: byte \(offset) (0x\(String(read.bytes[offset], radix: 16))) does not start a valid UTF-8 sequence",
                                           hint: "JSON input must be UTF-8; convert it first, e.g. iconv -f LATIN1 -t UTF-8"), json: json)
            }
            input = String(decoding: read.bytes, as: UTF8.self)
        }
        let host: SkillHost
        do { host = try openHost(args) } catch { return Out.fail(error, json: json) }
        // A person at a terminal, unless the output goes to a program.
        let caller: Caller = !json && ProtectedOutput.isTerminal && isatty(0) == 1 ? .human : .automation
        let cancellation = Cancellation()
        let interrupts = cancelOnInterrupt(cancellation)
        defer { interrupts.cancel() }
        var request = InvokeRequest(intent: intent, input: input, caller: caller, timeoutMs: timeout, cancellation: cancellation)
        request.confirmed = args.flag("--yes")
        request.idempotencyKey = args.values["--idempotency-key"]
        // On a terminal: the skill's own progress reports as they come, else after a moment a line
        // saying the call is still running.
        let live = LiveLine("⋯ \(intent)")
        request.progress = { step, total, message in
            live.update("⋯ \(intent) \(step)/\(total)" + (message.map { " " + $0 } ?? ""), now: true)
        }
        var outcome = host.invokeAndWait(request)
        live.finish()
        if case .failure(let e) = outcome, e.needsConfirmation, caller == .human,
           askOnTerminal("Run destructive intent \(intent) of skill \(e.skillID ?? "?")? [y/N] ") {
            request.confirmed = true
            let again = LiveLine("⋯ \(intent)")
            request.progress = { step, total, message in
                again.update("⋯ \(intent) \(step)/\(total)" + (message.map { " " + $0 } ?? ""), now: true)
            }
            outcome = host.invokeAndWait(request)
            again.finish()
        }
        switch outcome {
        case .failure(let e):
            return Out.fail(e, json: json)
        case .success(let s):
            if json {
                Out.json(s.json)
            } else {
                Out.print(s.result.pretty)  // JSON escapes C0 controls in strings; Out.print the rest
                if let m = s.message { Out.print(Out.safe(m)) }
            }
            return 0
        }
    }
}

/// Asks a yes/no question on /dev/tty (never stdin, which may carry the input); true only for "y"/"yes".
func askOnTerminal(_ question: String) -> Bool {
    let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    _ = question.withCString { write(fd, $0, strlen($0)) }
    var answer: [UInt8] = []
    var byte: UInt8 = 0
    while answer.count < 64 {
        let n = read(fd, &byte, 1)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 || byte == 0x0a { break }
        answer.append(byte)
    }
    let text = String(decoding: answer, as: UTF8.self).lowercased().filter { $0 != " " && $0 != "\r" && $0 != "\t" }
    return text == "y" || text == "yes"
}

/// All of standard input.
func readStandardInput() -> [UInt8] {
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(0, &chunk, chunk.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return out }
        out.append(contentsOf: chunk[0..<n])
    }
}

/// Ctrl-C (SIGINT) cancels the running call: the skill is told, and gets a short grace period to stop
/// before the host stops waiting (the command then exits with the `cancelled` code). A second Ctrl-C
/// exits at once. Returns the signal source; cancel it when the call is over.
func cancelOnInterrupt(_ cancellation: Cancellation) -> DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler {
        if cancellation.isCancelled {
            writeStandardError("skillhost: interrupted again; exiting\n")
            _exit(130)
        }
        writeStandardError("skillhost: cancelling (Ctrl-C again to quit at once)\n")
        cancellation.cancel()
    }
    source.resume()
    return source
}
