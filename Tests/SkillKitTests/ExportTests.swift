import Foundation
import SkillABI
import Synchronization
import XCTest
@testable import SkillKit

final class ToolchainTests: XCTestCase {
    func testToolchainStringFormat() throws {
        let regex = try NSRegularExpression(pattern: #"^swift-[0-9]+\.[0-9]+$"#)
        XCTAssertEqual(regex.numberOfMatches(in: skillToolchain, range: NSRange(location: 0, length: skillToolchain.utf16.count)), 1,
                       skillToolchain)
        #if compiler(>=6.3) && !compiler(>=6.4)
        XCTAssertEqual(skillToolchain, "swift-6.3")
        #endif
    }
}

final class ManifestTests: XCTestCase {
    func testExportedStructFields() throws {
        let skill = manifest(ProbeSkill())
        let s = skill.pointee
        XCTAssertEqual(s.abi_major, UInt32(SKH_ABI_VERSION_MAJOR))
        XCTAssertEqual(s.abi_minor, UInt32(SKH_ABI_VERSION_MINOR))
        XCTAssertEqual(Int(s.struct_size), MemoryLayout<skh_skill>.size)
        XCTAssertEqual(s.flags, UInt32(SKH_SKILL_THREAD_SAFE))
        XCTAssertEqual(string(s.id), "dev.skillkit.test.probe")
        XCTAssertEqual(string(s.name), "Probe")
        XCTAssertEqual(string(s.version), "0.1.0")
        XCTAssertEqual(string(s.category), "testing")
        XCTAssertEqual(string(s.vendor), "skillkit tests")
        XCTAssertEqual(string(s.description), "Exercises the SkillKit bridge.")
        XCTAssertEqual(string(s.toolchain), skillToolchain)
        XCTAssertEqual(s.reserved0, 0)
        XCTAssertEqual(s.intent_count, 8)
        XCTAssertNotNil(s.`init`)
        XCTAssertNotNil(s.invoke)
        XCTAssertNotNil(s.health)
        XCTAssertNotNil(s.release)
        XCTAssertEqual(exportSkill(ProbeSkill()), UnsafeRawPointer(skill), "one struct per skill, built once")
    }

    func testExportedIntents() throws {
        let s = manifest(ProbeSkill()).pointee
        let intents = UnsafeBufferPointer(start: s.intents, count: Int(s.intent_count))
        for intent in intents { XCTAssertEqual(Int(intent.struct_size), MemoryLayout<skh_intent>.size) }
        XCTAssertEqual(intents.map { string($0.name) }, ["probe.ok", "probe.unavailable", "probe.throw", "probe.decode",
                                                        "probe.context", "probe.services", "probe.late", "probe.suspend"])
        let ok = intents[0], unavailable = intents[1], plain = intents[2]
        XCTAssertEqual(ok.flags, UInt32(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT))
        XCTAssertEqual(ok.surfaces, UInt32(SKH_SURFACE_HUMAN | SKH_SURFACE_AUTOMATION | SKH_SURFACE_AGENT))
        XCTAssertEqual(string(ok.input_schema), #"{"type":"object"}"#)
        XCTAssertEqual(string(ok.output_schema), #"{"type":"object"}"#)
        XCTAssertEqual(string(ok.keywords), #"{"en":["probe","ok"],"zh":["探针"]}"#)
        XCTAssertEqual(string(ok.examples), #"[{"input":{"x":1},"lang":"en","text":"probe it"},{"lang":"en","text":"bad example"}]"#,
                       "an example input that is not a JSON object is left out")
        XCTAssertEqual(unavailable.flags, UInt32(SKH_INTENT_DESTRUCTIVE))
        XCTAssertEqual(unavailable.surfaces, UInt32(SKH_SURFACE_HUMAN | SKH_SURFACE_AGENT))
        XCTAssertEqual(unavailable.priority, 7)
        XCTAssertEqual(unavailable.confidence, 0.25)
        XCTAssertNil(plain.output_schema)
        XCTAssertNil(plain.keywords)
        XCTAssertNil(plain.examples)
        XCTAssertEqual(plain.flags, 0)
        XCTAssertEqual(string(plain.description), "Throws a plain error.")
    }

    func testOptionSetsMatchTheHeader() {
        XCTAssertEqual(IntentFlags.readOnly.rawValue, 1)
        XCTAssertEqual(IntentFlags.destructive.rawValue, 2)
        XCTAssertEqual(IntentFlags.idempotent.rawValue, 4)
        XCTAssertEqual(Surfaces.all.rawValue, UInt32(SKH_SURFACE_HUMAN | SKH_SURFACE_AUTOMATION | SKH_SURFACE_AGENT))
        XCTAssertEqual(LogLevel.warning.abiValue, Int32(SKH_LOG_WARNING))
    }

    func testNonThreadSafeSkillHasNoFlagAndFailingSetUpRefusesInit() {
        let skill = manifest(FragileSkill())
        XCTAssertEqual(skill.pointee.flags, 0)
        XCTAssertEqual(skill.pointee.`init`(sharedHost.pointer), 1)
        XCTAssertFalse(recorder.logs(containing: "setUp failed: missing credentials file").isEmpty)
    }
}

final class InvokeBridgeTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        _ = manifest(ProbeSkill()).pointee.`init`(sharedHost.pointer)
    }

    private var probe: UnsafePointer<skh_skill> { manifest(ProbeSkill()) }

    func testInitSucceedsAndLogsManifestWarnings() {
        XCTAssertEqual(probe.pointee.`init`(sharedHost.pointer), 0)
        XCTAssertFalse(recorder.logs(containing: "intent probe.ok: example \"bad example\" has an input that is not a JSON object").isEmpty)
    }

    func testSuccessCompletesOnceWithResultAndMessage() {
        let (id, completions) = invoke(probe, intent: "probe.ok", input: "{}")
        XCTAssertEqual(completions, [Completion(callID: id, status: 0, json: #"{"a":"1","b":"2"}"#, message: "fine")])
    }

    func testSkillErrorCompletesOnceWithItsStatus() {
        let (id, completions) = invoke(probe, intent: "probe.unavailable", input: "{}")
        XCTAssertEqual(completions, [Completion(callID: id, status: Int32(SKH_STATUS_UNAVAILABLE), json: nil,
                                                message: "the probe's server is down")])
    }

    func testSkillFailureCompletesWithItsStatusAndTheDetailsAsTheResult() {
        let (id, completions) = invoke(probe, intent: "probe.unavailable", input: #"{"details":true}"#)
        XCTAssertEqual(completions, [Completion(callID: id, status: Int32(SKH_STATUS_UNAVAILABLE), json: #"{"retryAfterSeconds":30}"#,
                                                message: "the probe's server is down")])
        // Details that are not a JSON object are dropped rather than sent.
        XCTAssertEqual(SkillFailure(.invalidInput("x"), details: [1, 2]).detailsJSON, Array("{}".utf8))
    }

    func testPlainErrorCompletesOnceAsFailed() {
        let (id, completions) = invoke(probe, intent: "probe.throw", input: "{}")
        XCTAssertEqual(completions, [Completion(callID: id, status: Int32(SKH_STATUS_FAILED), json: nil,
                                                message: "plain error from the probe")])
    }

    func testDecodingErrorCompletesAsInvalidInput() {
        let missing = invoke(probe, intent: "probe.decode", input: #"{"count":1}"#).completions
        XCTAssertEqual(missing.map(\.status), [Int32(SKH_STATUS_INVALID_INPUT)])
        XCTAssertEqual(missing.first?.message, #"missing required field "title""#)
        let wrong = invoke(probe, intent: "probe.decode", input: #"{"title":"t","count":"many"}"#).completions
        XCTAssertEqual(wrong.first?.message, #"field "count": expected an integer, found a string"#)
    }

    func testUnknownIntentAndGarbageInputDoNotCrash() {
        let unknown = invoke(probe, intent: "probe.nope", input: "{}").completions
        XCTAssertEqual(unknown.map(\.status), [Int32(SKH_STATUS_INVALID_INPUT)])
        XCTAssertEqual(unknown.first?.message, #"skill dev.skillkit.test.probe has no intent "probe.nope""#)
        let garbage = invoke(probe, intent: "probe.decode", input: "\u{1}not json", context: "also not json").completions
        XCTAssertEqual(garbage.map(\.status), [Int32(SKH_STATUS_INVALID_INPUT)])
    }

    func testContextIsBuiltFromContextJSON() throws {
        let context = #"{"config":{"store":"/x/y"},"dataDir":"/data/probe","locale":"zh-CN","timeZone":"Asia/Shanghai","now":"2025-03-01T09:30:00+08:00","caller":"agent","futureMember":[1,2]}"#
        let result = try XCTUnwrap(invoke(probe, intent: "probe.context", input: "{}", context: context).completions.first)
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.json, #"{"caller":"agent","config":{"store":"/x/y"},"dataDirectory":"/data/probe","locale":"zh-CN","now":"2025-03-01T01:30:00Z","timeZone":"Asia/Shanghai"}"#)
    }

    func testMissingContextMembersGetDefaults() throws {
        let before = Date()
        let result = try XCTUnwrap(invoke(probe, intent: "probe.context", input: "{}", context: "{}").completions.first)
        let object = try XCTUnwrap(jsonObject(result.json))
        XCTAssertEqual(object["locale"] as? String, "en")
        XCTAssertEqual(object["caller"] as? String, "automation")
        XCTAssertEqual(object["timeZone"] as? String, TimeZone.current.identifier)
        XCTAssertEqual(object["config"] as? [String: String], [:])
        XCTAssertTrue((object["dataDirectory"] as? String)?.hasSuffix("/skillhost/dev.skillkit.test.probe") ?? false)
        let now = try XCTUnwrap(SkillDates.parseInstant(object["now"] as? String ?? ""))
        XCTAssertGreaterThanOrEqual(now.timeIntervalSince1970, before.timeIntervalSince1970.rounded(.down))
    }

    /// The bridge reuses the last context's members while the host sends the same bytes: every call must
    /// still see its own context — after a change, after a change back, with bytes of the same length
    /// that differ in one place, and with no context at all.
    func testEachCallSeesItsOwnContextWhenContextsRepeatAndChange() throws {
        func context(_ locale: String, _ store: String) -> String {
            #"{"config":{"store":"\#(store)"},"dataDir":"/data/\#(locale)","locale":"\#(locale)","timeZone":"UTC","now":"2025-03-01T09:30:00Z","caller":"agent"}"#
        }
        let cases = [context("zh-CN", "/a"), context("zh-CN", "/a"), context("zh-TW", "/a"), context("zh-TW", "/b"),
                     context("zh-CN", "/a"), context("zh-CN", "/a"), context("pl-PL", "/ä")]
        for (i, text) in cases.enumerated() {
            let result = try XCTUnwrap(invoke(probe, intent: "probe.context", input: "{}", context: text).completions.first)
            let object = try XCTUnwrap(jsonObject(result.json), "call \(i)")
            let sent = try XCTUnwrap(jsonObject(text))
            XCTAssertEqual(object["locale"] as? String, sent["locale"] as? String, "call \(i)")
            XCTAssertEqual(object["dataDirectory"] as? String, sent["dataDir"] as? String, "call \(i)")
            XCTAssertEqual(object["config"] as? [String: String], sent["config"] as? [String: String], "call \(i)")
        }
        let none = try XCTUnwrap(invoke(probe, intent: "probe.context", input: "{}", context: "").completions.first)
        let object = try XCTUnwrap(jsonObject(none.json))
        XCTAssertEqual(object["locale"] as? String, "en", "no context after a cached one: the defaults")
        XCTAssertEqual(object["config"] as? [String: String], [:])
    }

    func testServicesReachTheHostDuringTheCall() throws {
        let (id, completions) = invoke(probe, intent: "probe.services", input: "{}")
        let object = try XCTUnwrap(jsonObject(completions.first?.json))
        XCTAssertEqual(object["stored"] as? String, "yes")
        XCTAssertEqual(object["read"] as? String, #"{"v":42}"#)
        XCTAssertEqual(object["cancelled"] as? String, "no")
        recorder.state.withLock { state in
            XCTAssertTrue(state.progress.contains { $0.callID == id && $0.step == 1 && $0.total == 2 && $0.message == "half way" })
            XCTAssertTrue(state.logs.contains { $0.callID == id && $0.level == Int32(SKH_LOG_INFO) && $0.message == "probe services log line" })
        }
    }

    func testCancellationIsVisibleToTheSkill() throws {
        let (_, completions) = invoke(probe, intent: "probe.services", input: "{}", beforeInvoke: { id in
            recorder.state.withLock { _ = $0.cancelled.insert(id) }
        })
        XCTAssertEqual(jsonObject(completions.first?.json)?["cancelled"] as? String, "yes")
    }

    func testServicesAfterCompletionDoNotTouchTheCall() throws {
        lateObservations.withLock { $0 = [:] }
        let (id, completions) = invoke(probe, intent: "probe.late", input: "{}")
        XCTAssertEqual(completions.count, 1)
        let deadline = Date().addingTimeInterval(5)
        while lateObservations.withLock({ $0.isEmpty }), Date() < deadline { usleep(2000) }
        XCTAssertEqual(lateObservations.withLock { $0 }, ["isCancelled": "true", "contextValue": "nil", "setContextValue": "false"])
        recorder.state.withLock { state in
            XCTAssertFalse(state.progress.contains { $0.callID == id && $0.message == "after completion" })
            let late = state.logs.filter { $0.message == "probe late log line" }
            XCTAssertEqual(late.count, 1)
            XCTAssertNil(late.first?.callID, "logged without the completed call")
        }
        XCTAssertEqual(recorder.completions(id).count, 1)
    }

    func testOlderHostWithShortTablesIsServedWithoutItsMissingServices() throws {
        // A host table that ends after `log`, and a call that ends after `complete`.
        let shortHost = makeHost(size: MemoryLayout<skh_host>.offset(of: \skh_host.progress)!)
        let callSize = MemoryLayout<skh_call>.offset(of: \skh_call.host_data)!
        let (_, completions) = invoke(probe, intent: "probe.services", input: "{}", host: shortHost, callSize: callSize)
        let object = try XCTUnwrap(jsonObject(completions.first?.json))
        XCTAssertEqual(object["stored"] as? String, "no")
        XCTAssertEqual(object["read"] as? String, "nil")
        XCTAssertEqual(object["missing"] as? String, "progress,is_cancelled,context_get,context_set,free,time_left_ms")
        XCTAssertEqual(object["timeLeft"] as? String, "nil")
    }

    func testCurrentHostOffersEveryServiceAndTheCallsTimeLeft() throws {
        let (_, completions) = invoke(probe, intent: "probe.services", input: "{}")
        let object = try XCTUnwrap(jsonObject(completions.first?.json))
        XCTAssertEqual(object["missing"] as? String, "")
        XCTAssertEqual(object["timeLeft"] as? String, "1s", "1500 ms from time_left_ms")
    }

    func testA1_0HostIsToldApartAndTheSkillLearnsWhatIsMissing() throws {
        // A 1.0 host: minor 0, a table that ends where 1.1 added time_left_ms.
        let host10 = makeHost(size: MemoryLayout<skh_host>.offset(of: \skh_host.time_left_ms)!, minor: 0)
        let (_, completions) = invoke(probe, intent: "probe.services", input: "{}", host: host10)
        let object = try XCTUnwrap(jsonObject(completions.first?.json))
        XCTAssertEqual(object["missing"] as? String, "time_left_ms")
        XCTAssertEqual(object["timeLeft"] as? String, "nil")
        XCTAssertEqual(object["stored"] as? String, "yes", "the 1.0 services still work")
    }

    func testWorkThatDoesNotSuspendCompletesBeforeInvokeReturns() {
        var atReturn: [Completion] = []
        let (id, completions) = invoke(probe, intent: "probe.ok", input: "{}", afterInvoke: { atReturn = recorder.completions($0) })
        XCTAssertEqual(atReturn, [Completion(callID: id, status: 0, json: #"{"a":"1","b":"2"}"#, message: "fine")],
                       "completed on the host's thread, inside invoke()")
        XCTAssertEqual(completions.count, 1)
    }

    func testWorkThatSuspendsLetsInvokeReturnAndCompletesOnceLater() {
        suspendGate.store(false, ordering: .releasing)
        var atReturn: [Completion]? = nil
        let (id, completions) = invoke(probe, intent: "probe.suspend", input: "{}", afterInvoke: { id in
            atReturn = recorder.completions(id)
            suspendGate.store(true, ordering: .releasing)
        })
        XCTAssertEqual(atReturn, [], "invoke() returned at the first suspension, before the result")
        XCTAssertEqual(completions, [Completion(callID: id, status: 0, json: #"{"after":"suspending"}"#, message: nil)])
        usleep(50_000)
        XCTAssertEqual(recorder.completions(id).count, 1, "completed exactly once")
    }

    func testConcurrentCallsEachCompleteOnce() {
        let skill = SendablePointer(probe)
        let ids = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            let (_, completions) = invoke(skill.pointer, intent: i % 2 == 0 ? "probe.ok" : "probe.throw", input: "{}")
            if completions.count == 1 { ids.add(1, ordering: .relaxed) }
        }
        XCTAssertEqual(ids.load(ordering: .relaxed), 40)
    }
}

final class HealthBridgeTests: XCTestCase {
    func testHealthReportsStatusAndDetail() throws {
        let skill = manifest(ProbeSkill()).pointee
        var detail: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(skill.health(sharedHost.pointer, nil, &detail), Int32(SKH_HEALTH_DEGRADED))
        XCTAssertEqual(string(detail), #"{"latencyMs":12.5,"message":"probe is half awake"}"#)
        skill.release(detail)
        XCTAssertEqual(skill.health(sharedHost.pointer, nil, nil), Int32(SKH_HEALTH_DEGRADED), "detail may be NULL")
    }

    func testHealthMeasuresLatencyWhenTheSkillDoesNot() throws {
        let skill = manifest(FragileSkill()).pointee
        var detail: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(skill.health(sharedHost.pointer, nil, &detail), Int32(SKH_HEALTH_UNAVAILABLE))
        let object = try XCTUnwrap(jsonObject(string(detail)))
        skill.release(detail)
        XCTAssertEqual(object["message"] as? String, "nothing works")
        XCTAssertGreaterThanOrEqual(object["latencyMs"] as? Double ?? 0, 15)
    }
}

final class VersioningTests: XCTestCase {
    func testIntentVersionsAndRequiredMinorReachTheStruct() throws {
        let s = manifest(VersionedSkill()).pointee
        XCTAssertEqual(s.abi_minor_required, 1)
        XCTAssertEqual(s.intent_count, 2)
        XCTAssertEqual(s.intents[0].version, 1)
        XCTAssertEqual(s.intents[1].version, 2)
        XCTAssertEqual(string(s.intents[1].name), "versioned.greet")
        XCTAssertEqual(manifest(ProbeSkill()).pointee.abi_minor_required, 0, "by default a skill runs on any 1.x host")
    }

    func testCallsReachTheVersionTheHostNames() throws {
        let skill = manifest(VersionedSkill())
        XCTAssertEqual(skill.pointee.`init`(sharedHost.pointer), 0)
        for (intent, served) in [("versioned.greet", "versioned.greet"), ("versioned.greet@2", "versioned.greet@2")] {
            let (_, completions) = invoke(skill, intent: intent, input: "{}")
            XCTAssertEqual(try XCTUnwrap(jsonObject(completions.first?.json))["served"] as? String, served)
        }
        let (_, unknown) = invoke(skill, intent: "versioned.greet@3", input: "{}")
        XCTAssertEqual(unknown.first?.status, Int32(SKH_STATUS_INVALID_INPUT))
    }

    func testInitOnAHostOlderThanTheRequiredMinorFailsNamingWhatIsMissing() throws {
        let skill = manifest(VersionedSkill())
        let host10 = makeHost(size: MemoryLayout<skh_host>.offset(of: \skh_host.time_left_ms)!, minor: 0)
        XCTAssertEqual(skill.pointee.`init`(host10), 1)
        let lines = recorder.logs(containing: "dev.skillkit.test.versioned needs ABI 1.1")
        XCTAssertEqual(lines.count, 1, "\(recorder.state.withLock { $0.logs.map(\.message) })")
        XCTAssertTrue(lines.first?.contains("the host serves 1.0") == true && lines.first?.contains("time_left_ms") == true, lines.first ?? "")
    }
}

final class SynchronousSkillTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        _ = manifest(SyncProbeSkill()).pointee.`init`(sharedHost.pointer)
    }

    private var probe: UnsafePointer<skh_skill> { manifest(SyncProbeSkill()) }

    func testRunCompletesOnTheCallingThreadWithNoTaskBeforeInvokeReturns() {
        var atReturn: [Completion] = []
        let caller = UInt(pthread_self())
        let (id, completions) = invoke(probe, intent: "sync.where", input: "{}", context: #"{"locale":"de-CH"}"#,
                                       afterInvoke: { atReturn = recorder.completions($0) })
        let expected = [Completion(callID: id, status: 0, json: #"{"inTask":"no","locale":"de-CH"}"#, message: "ran")]
        XCTAssertEqual(atReturn, expected, "completed inside invoke()")
        XCTAssertEqual(completions, expected, "completed once")
        XCTAssertEqual(SyncProbeSkill.lastThread.withLock { $0 }, caller)
    }

    func testErrorsCompleteAsFromExecute() {
        let decode = invoke(probe, intent: "sync.decode", input: #"{"title":3}"#).completions
        XCTAssertEqual(decode.map(\.status), [Int32(SKH_STATUS_INVALID_INPUT)])
        XCTAssertEqual(decode.first?.message, #"field "title": expected a string, found a number"#)
        let (id, unavailable) = invoke(probe, intent: "sync.unavailable", input: "{}")
        XCTAssertEqual(unavailable, [Completion(callID: id, status: Int32(SKH_STATUS_UNAVAILABLE), json: nil,
                                                message: "the sync probe's server is down")])
        let plain = invoke(probe, intent: "sync.throw", input: "{}").completions
        XCTAssertEqual(plain.map(\.status), [Int32(SKH_STATUS_FAILED)])
        XCTAssertEqual(plain.first?.message, "plain error from the probe")
    }

    func testExecuteCallsRun() async throws {
        let result = try await SyncProbeSkill().execute(input: SkillInput(intent: "sync.decode", json: #"{"title":"t"}"#),
                                                        context: SkillContext(dataDirectory: "/tmp"))
        XCTAssertEqual(result.jsonString, #"{"title":"t"}"#)
    }
}
