import Dispatch
import SkillHostCore

/// (g) Recognition alone: `KeywordRecognizer.recognize` (normalization, clause splitting, the n-gram
/// intent model, keywords, time expressions, parameters) over a catalog of `intents` synthetic intents
/// (each with keywords and examples in English and Chinese, built from word pools with a fixed seed),
/// in this process, no skills running. The model is trained on the first request (timed apart) and
/// kept for the catalog; the rest are timed one by one over a mix of English and Chinese sentences.
struct RecognitionBench {
    struct Config {
        var intents = 200
        var rounds = 30
    }

    struct Result {
        var intents: Int
        var first: Double
        var perRequest: Samples
        var recognized: Int
        var requests: Int
    }

    let config: Config

    static let english = ["invoice", "flight", "hotel", "parcel", "recipe", "budget", "ticket", "meeting", "report", "lesson", "workout",
                          "playlist", "contract", "expense", "garden", "library", "payment", "printer", "podcast", "survey"]
    static let verbs = ["show", "list", "check", "find", "summarize", "track", "count", "review"]
    static let chinese = ["发票", "航班", "酒店", "包裹", "菜谱", "预算", "车票", "会议", "报告", "课程", "健身", "歌单", "合同", "报销",
                          "花园", "图书", "付款", "打印", "播客", "问卷"]
    static let zhVerbs = ["查看", "列出", "检查", "查找", "总结", "跟踪", "统计", "看看"]

    func catalog() -> IntentCatalog {
        var seed: UInt64 = 42
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let schema = try! JSON.parse(#"{"type":"object","properties":{"from":{"type":"string","format":"date"},"title":{"type":"string"}}}"#)
        var entries: [IntentCatalog.Entry] = []
        for i in 0..<config.intents {
            let a = next(Self.english.count), b = next(Self.english.count)
            let (ea, eb, za, zb) = (Self.english[a], Self.english[b], Self.chinese[a], Self.chinese[b])
            var examples: [IntentManifest.Example] = []
            for _ in 0..<4 {
                let v = Self.verbs[next(Self.verbs.count)], zv = Self.zhVerbs[next(Self.zhVerbs.count)]
                examples.append(IntentManifest.Example(lang: "en", text: "\(v) my \(ea) \(eb) for tomorrow"))
                examples.append(IntentManifest.Example(lang: "zh", text: "\(zv)明天的\(za)\(zb)"))
            }
            entries.append(IntentCatalog.Entry(intent: "bench.d\(i / 5).i\(i)", name: "bench.d\(i / 5).i\(i)", skillID: "bench.skill\(i / 5)",
                                               skillName: "Bench \(i / 5)", description: "Synthetic intent \(i).",
                                               keywords: ["en": ["\(ea) \(eb)", ea], "zh": [za + zb, za]], examples: examples,
                                               inputSchema: schema, flags: [.readOnly, .idempotent]))
        }
        return IntentCatalog(entries: entries)
    }

    func measure() -> Result {
        let catalog = self.catalog()
        let recognizer = KeywordRecognizer()
        let zone = ZoneRules.load("Asia/Shanghai") ?? .utc
        let now = 1_795_996_800  // 2026-11-30T08:00:00+08:00
        let texts = ["show my invoice budget for tomorrow", "what's the flight hotel status next week, and the weather?",
                     "can you check the parcel for Friday", "summarise my workout playlist", "find the contract expense in 3 hours",
                     "查看明天的发票预算", "帮我看看下周的航班酒店，顺便查一下包裹", "統計這週的健身歌單", "最近三天的合同报销", "订一张机票",
                     "remind me to call mom tomorrow at 5", "book a flight to Tokyo", "ｓｈｏｗ ｔｈｅ ｐｏｄｃａｓｔ ｓｕｒｖｅｙ", "chek the printr paymnt"]
        let requests = texts.map { AgentRequest(text: $0, source: .script, caller: .automation, zone: zone, now: now) }
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = recognizer.recognize(requests[0], catalog: catalog, defaults: [:])
        let first = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        var ms: [Double] = []
        var recognized = 0
        for _ in 0..<config.rounds {
            for r in requests {
                let s = DispatchTime.now().uptimeNanoseconds
                let result = recognizer.recognize(r, catalog: catalog, defaults: [:])
                ms.append(Double(DispatchTime.now().uptimeNanoseconds - s) / 1e6)
                if !result.intents.isEmpty { recognized += 1 }
            }
        }
        return Result(intents: config.intents, first: first, perRequest: Samples(ms), recognized: recognized, requests: ms.count)
    }

    static func section(_ r: Result) -> String {
        Report.table(["measurement", "requests", "p50 ms", "p90 ms", "p99 ms", "max ms"], [
            ["first request (trains the model)", "1", fmt(r.first), "", "", ""],
            ["recognize one request", "\(r.requests)", fmt(r.perRequest.median), fmt(r.perRequest.percentile(90)),
             fmt(r.perRequest.percentile(99)), fmt(r.perRequest.max)],
        ]) + "\n    \(r.recognized) of \(r.requests) requests matched a synthetic intent (the rest ask for what no intent does)"
    }

    static func goals(_ r: Result) -> [Report.Goal] {
        [Report.Goal(text: "recognition p50 ≤ 5 ms with \(r.intents) registered intents", met: r.perRequest.median <= 5,
                     numbers: "p50 \(fmt(r.perRequest.median)) ms, p99 \(fmt(r.perRequest.percentile(99))) ms over \(r.requests) requests (goal ≤ 5.00)")]
    }
}
