import Dispatch
import Glibc
import SkillABI
import Synchronization
import SkillWire

/// The `exactly-once`, `concurrency` and `memory` checks. They reuse the examples the `examples`
/// check saw answered (of read-only or idempotent intents only, so repeating them changes nothing).
extension SkillValidator {
    /// Calls in flight at once in each concurrency round: more than the cores of a small machine,
    /// so calls really overlap inside the skill.
    static let concurrentCalls = 8
    static let concurrencyRounds = 4
    /// Memory: calls before the first reading of the worker's VmRSS, then calls between the two
    /// readings. The warm-up is longer than the worker's retirement ring (the last 256 finished calls
    /// keep their memory, to catch a second complete()), so the ring is full before the first reading.
    static let memoryWarmUpCalls = 300
    static let memoryMeasuredCalls = 400
    /// A leak fails when the worker grew by more than both limits over `memoryMeasuredCalls` calls.
    /// Measured after the warm-up, a well-behaved skill grows by allocator noise: 28–36 KiB for the C
    /// and the Swift skills here. A skill that never frees a 1 KiB result per call grows by 400 KiB and
    /// fails; a leak under about 650 bytes per call passes unnoticed (more calls would show it, at a cost
    /// in time). The per-call limit keeps the verdict meaningful if the number of calls changes.
    static let memoryGrowthLimitKB = 256
    static let memoryPerCallLimitBytes = 512

    /// What a call answered, as the concurrency check compares it: the status, and for ok the result.
    struct Answer: Equatable {
        var status: Int32
        var result: JSON?

        init(_ raw: RawCompletion) {
            status = raw.status
            result = raw.status == SKH_STATUS_OK ? raw.parsedResult ?? raw.result.flatMap { try? JSON.parse($0) } : nil
        }

        var shown: String {
            guard status == SKH_STATUS_OK else { return SkillValidator.statusName(status) }
            let s = result?.serialized ?? "a result that is not JSON"
            return s.count > 120 ? String(s.prefix(117)) + "…" : s
        }
    }

    /// One example to repeat: the intent, the example's index, its input serialized, the context.
    struct Repeat: Sendable {
        var intent: String
        var label: String
        var input: [UInt8]
        var context: String
    }

    func repeats(_ limit: Int) -> [Repeat] {
        answered.prefix(limit).map { a in
            var bytes: [UInt8] = []
            a.input.write(to: &bytes)
            return Repeat(intent: a.intent.name, label: "\(a.intent.name) examples[\(a.index)]", input: bytes,
                          context: context(Self.caller(for: a.intent)))
        }
    }

    // MARK: - exactly-once

    /// Every call made by the checks before must have been completed exactly once: never twice (the
    /// worker reports a second complete()), never not at all (a missed deadline).
    func exactlyOnce() {
        usleep(10_000)  // a report of a second completion sent right after the last call's first one
        let twice = runtime.events.completionsTwice
        let never = neverCompleted.withLock { $0 }
        let calls = callCount.load(ordering: .relaxed)
        guard calls > 0 else {
            add("exactly-once", .skip, "no call was made (nothing to call: no example inputs, and no input schema that rules anything out)")
            return
        }
        var problems: [String] = []
        for (intent, n) in twice.sorted(by: { $0.key < $1.key }) {
            problems.append("\(n) call\(n == 1 ? "" : "s") of \(intent) completed twice (the host kept the first completion)")
        }
        for (intent, n) in never.sorted(by: { $0.key < $1.key }) {
            problems.append("\(n) call\(n == 1 ? "" : "s") of \(intent) never completed (no complete() within \(callTimeoutMs) ms)")
        }
        let details = JSON.object(JSONObject([("calls", .int(Int64(calls))),
                                              ("completedTwice", .object(JSONObject(twice.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) }))),
                                              ("neverCompleted", .object(JSONObject(never.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })))]))
        if problems.isEmpty {
            add("exactly-once", .pass, "each of the \(calls) calls was completed exactly once", details: details)
        } else {
            add("exactly-once", .fail, problems.joined(separator: "; ") + "; fix: every invoke() must lead to exactly one call->complete(), on every path (errors included), and nothing may touch the call after it",
                details: details)
        }
    }

    // MARK: - concurrency

    /// A skill that claims SKH_SKILL_THREAD_SAFE gets `concurrentCalls` calls at once, `concurrencyRounds`
    /// times, through its one worker; each must complete once with the answer the same example got when
    /// called alone.
    func concurrency() {
        guard manifest.identity.threadSafe else {
            add("concurrency", .skip, "not claimed (no SKH_SKILL_THREAD_SAFE): the host serializes this skill's calls, one at a time")
            return
        }
        let picks = repeats(4)
        guard !picks.isEmpty else {
            add("concurrency", .skip, "claims SKH_SKILL_THREAD_SAFE, but no example of a read-only or idempotent intent answered to call concurrently")
            return
        }
        func alone(_ p: Repeat) -> Result<Answer, SkillError> { direct(p.intent, p.input, context: p.context).map(Answer.init) }
        var expected: [Answer?] = []
        var problems: [String] = []
        var varies: Set<Int> = []
        for p in picks {
            switch alone(p) {
            case .success(let a): expected.append(a)
            case .failure(let e):
                expected.append(nil)
                problems.append("\(p.label) called alone failed with \(e.kind.rawValue): \(e.message)")
            }
        }
        let runtime = self.runtime!, timeout = callTimeoutMs
        rounds: for round in 1...Self.concurrencyRounds {
            let answers = Self.concurrently(Self.concurrentCalls) { i in
                let p = picks[i % picks.count]
                return runBlocking {
                    await runtime.invoke(intent: p.intent, input: p.input, context: p.context,
                                         deadline: .now() + .milliseconds(timeout), progress: nil, cancellation: nil)
                }
            }
            callCount.add(answers.count, ordering: .relaxed)
            for (i, r) in answers.enumerated() {
                let k = i % picks.count
                let p = picks[k]
                switch r {
                case .failure(let e):
                    if e.kind == .timeout { missedDeadline(p.intent) }
                    problems.append("round \(round), call \(i + 1) (\(p.label)) failed with \(e.kind.rawValue): \(e.message)")
                case .success(let raw):
                    let got = Answer(raw)
                    guard let want = expected[k], got != want, !varies.contains(k) else { continue }
                    // A second call alone that answers differently too means the intent's answers vary.
                    if case .success(let again) = alone(p), again != want {
                        varies.insert(k)
                        continue
                    }
                    problems.append("round \(round), call \(i + 1) (\(p.label)) answered \(got.shown) while the same call alone answered \(want.shown)")
                }
            }
            if problems.count >= 3 { break rounds }
        }
        let examples = picks.map(\.label).joined(separator: ", ")
        let details = JSON.object(JSONObject([("rounds", .int(Int64(Self.concurrencyRounds))), ("callsPerRound", .int(Int64(Self.concurrentCalls))),
                                              ("examples", .array(picks.map { .string($0.label) }))]))
        if problems.isEmpty {
            let note = varies.isEmpty ? "" : " (answers of \(varies.sorted().map { picks[$0].label }.joined(separator: ", ")) vary from call to call, so only their completion was compared)"
            add("concurrency", .pass, "\(Self.concurrencyRounds) rounds of \(Self.concurrentCalls) concurrent calls (\(examples)) through one worker each completed once with the answer of the same call alone\(note)",
                details: details)
        } else {
            add("concurrency", .fail, "claims SKH_SKILL_THREAD_SAFE, but under \(Self.concurrentCalls) concurrent calls: " + problems.prefix(3).joined(separator: "; ")
                + "; fix: keep each call's state on the stack or in memory of its own (no shared static buffers), guard shared state with a lock — or drop SKH_SKILL_THREAD_SAFE and the host serializes the calls",
                details: details)
        }
    }

    /// Runs `call(0..<n)` on `n` threads of their own at once and returns the results in order.
    static func concurrently<T: Sendable>(_ n: Int, _ call: @escaping @Sendable (Int) -> T) -> [T] {
        let results = Mutex<[Int: T]>([:])
        let done = DispatchSemaphore(value: 0)
        for i in 0..<n {
            let body: @Sendable () -> Void = {
                let r = call(i)
                results.withLock { $0[i] = r }
                done.signal()
            }
            if !startDetachedThread(body) { body() }
        }
        for _ in 0..<n { done.wait() }
        return results.withLock { r in (0..<n).map { r[$0]! } }
    }

    // MARK: - memory

    /// Calls one example `memoryWarmUpCalls` times, reads the worker's VmRSS, calls it
    /// `memoryMeasuredCalls` more times and reads it again: memory a skill never releases (result
    /// buffers kept after complete, health details never freed) shows as growth per call.
    func memory() {
        guard let p = repeats(1).first else {
            add("memory", .skip, "no example of a read-only or idempotent intent answered, so nothing can be called hundreds of times without effects (destructive and open-world intents are never called)")
            return
        }
        func calls(_ n: Int) -> SkillError? {
            for _ in 0..<n {
                if case .failure(let e) = direct(p.intent, p.input, context: p.context) { return e }
            }
            return nil
        }
        let warm = calls(Self.memoryWarmUpCalls)
        let pid = runtime.workerPID ?? 0
        guard warm == nil, let before = Self.residentKB(pid: pid) else {
            add("memory", .fail, "\(p.label) failed while warming up: \(warm?.message ?? "the worker's VmRSS cannot be read")")
            return
        }
        let failed = calls(Self.memoryMeasuredCalls)
        guard failed == nil, runtime.workerPID == pid, let after = Self.residentKB(pid: pid) else {
            add("memory", .fail, "\(p.label) failed during the measured calls: \(failed?.message ?? "the worker process was replaced")")
            return
        }
        let growth = after - before
        let perCall = growth * 1024 / Self.memoryMeasuredCalls
        let details = JSON.object(JSONObject([("example", .string(p.label)), ("calls", .int(Int64(Self.memoryMeasuredCalls))),
                                              ("rssBeforeKiB", .int(Int64(before))), ("rssAfterKiB", .int(Int64(after))),
                                              ("growthPerCallBytes", .int(Int64(perCall)))]))
        let measured = "VmRSS of the worker went from \(Self.mebibytes(before)) to \(Self.mebibytes(after)) over \(Self.memoryMeasuredCalls) calls of \(p.label) (after \(Self.memoryWarmUpCalls) to warm up): \(growth >= 0 ? "+" : "")\(growth) KiB, \(perCall) bytes per call"
        if growth > Self.memoryGrowthLimitKB && perCall > Self.memoryPerCallLimitBytes {
            add("memory", .fail, measured + ", more than \(Self.memoryGrowthLimitKB) KiB and \(Self.memoryPerCallLimitBytes) bytes per call: memory is not released; the usual causes are a result buffer never freed after complete() returns (the host copies it: free or reuse it) and health details never released; fix: free what each call allocates",
                details: details)
        } else {
            add("memory", .pass, measured, details: details)
        }
    }
}
