import XCTest

/// The ABI version matrix (skillhost.h, "Versioning"), through the real binaries: skills built against
/// the frozen 1.0 header, against a future minor they do not need, against a future minor they do need,
/// and against another major; plus intent versions ("name@N").
/// (An extension of ScanRefusalTests for its `assertRefused`.)
extension ScanRefusalTests {
    /// The host's own ABI, as `list` reports for a skill built with today's header.
    var hostABI: String { "1.3" }

    func testSkillBuiltAgainstTheFrozen1_0HeaderLoadsAndIsServedAt1_0() throws {
        try addSkill("abi_1_0_skill.so")
        let list = try listAll()
        let s = try XCTUnwrap(list.skills.first("id", "test.fixture.abi10"), list.result.summary)
        XCTAssertEqual(s["abi"] as? String, "1.0")
        XCTAssertEqual(s["abiRequired"] as? String, "1.0")
        XCTAssertEqual(s["abiServed"] as? String, "1.0", "served at the older of the two minors")
        let intents = try XCTUnwrap(s["intents"] as? [[String: Any]])
        XCTAssertEqual(intents.first?["version"] as? Int, 1, "a 1.0 intent has no version field: it is version 1")

        let result = try XCTUnwrap(try assertInvokeOK(invoke("fixture.abi10.hello", "{}"), skill: "test.fixture.abi10") as? [String: Any])
        XCTAssertEqual(result["abiBuilt"] as? String, "1.0")
        XCTAssertEqual(result["hostMinor"] as? Int, 3, "the skill sees the host's minor")
        XCTAssertEqual(result["hostStructSize"] as? Int, 72, "and a host table larger than the 1.0 one (64 bytes), which it only reads a prefix of")
        XCTAssertEqual(result["intent"] as? String, "fixture.abi10.hello", "version-1 intents are called by their bare name")
    }

    func testSkillBuiltForANewerMinorThatItDoesNotNeedLoadsAndLearnsWhatIsMissing() throws {
        try addSkill("abi_minor_newer.so")
        let list = try listAll()
        XCTAssertTrue(list.refused.isEmpty, list.result.summary)
        let s = try XCTUnwrap(list.skills.first("id", "test.fixture.newer"), list.result.summary)
        XCTAssertEqual(s["abi"] as? String, "1.7")
        XCTAssertEqual(s["abiRequired"] as? String, "1.1")
        XCTAssertEqual(s["abiServed"] as? String, hostABI)
        // Both intents were found although each entry is larger than the host's skh_intent.
        let names = (s["intents"] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String }
        XCTAssertEqual(names, ["fixture.newer.hello@2", "fixture.newer.other"])

        for intent in ["fixture.newer.hello", "fixture.newer.other"] {
            let r = try XCTUnwrap(try assertInvokeOK(invoke(intent, "{}"), skill: "test.fixture.newer") as? [String: Any])
            XCTAssertEqual(r["hostMinor"] as? Int, 3)
            XCTAssertEqual(r["missing"] as? [String], ["frobnicate"], "the skill is told the 1.7 service is missing")
            XCTAssertEqual(r["timeLeftKnown"] as? Bool, true, "the 1.1 service time_left_ms is there")
            XCTAssertEqual(r["timeLeftPositive"] as? Bool, true, "and reports the call's deadline: \(r)")
        }

        let inspect = skillhost("inspect", fixtures + "/abi_minor_newer.so")
        XCTAssertEqual(inspect.exitCode, 0, inspect.summary)
        for m in ["built for 1.7", "needs 1.1", "serves 1.0–1.3", "served as 1.3"] {
            XCTAssertTrue(inspect.stdout.contains(m), "inspect explains the negotiation (\(m)): \(inspect.stdout)")
        }
    }

    func testSkillThatNeedsANewerMinorIsRefusedNamingBothVersions() throws {
        let r = try assertRefused("abi_minor_required_newer.so", reason: "abi_mismatch", kind: "incompatible",
                                  messageContains: ["1.9", "1.0–1.3", "test.fixture.future"], refusedID: "test.fixture.future")
        let hint = r["hint"] as? String ?? ""
        XCTAssertTrue(hint.contains("upgrade skillhost") && hint.contains("1.3"), "the hint names both ways out: \(hint)")
        try assertInvokeError(invoke("fixture.future.only", "{}"), kind: "no_skill", exitCode: 11)
        // `install` refuses it with the same words, exit code of `incompatible`.
        let install = skillhost("install", fixtures + "/abi_minor_required_newer.so", "--json")
        try assertInvokeError(install, kind: "incompatible", exitCode: 16, messageContains: ["1.9", "1.0–1.3"])
    }

    // MARK: - Intent versions

    func testBareIntentNameReachesTheNewestVersionAndNameAtNPinsOne() throws {
        try addSkill("intent_versions.so")
        let list = try listAll()
        let s = try XCTUnwrap(list.skills.first("id", "test.fixture.greet"), list.result.summary)
        let intents = try XCTUnwrap(s["intents"] as? [[String: Any]])
        XCTAssertEqual(intents.compactMap { $0["address"] as? String }, ["fixture.greet", "fixture.greet@2"])
        XCTAssertEqual(intents.compactMap { $0["version"] as? Int }, [1, 2])

        let v2 = try XCTUnwrap(try assertInvokeOK(invoke("fixture.greet", #"{"first":"Ada","last":"Lovelace"}"#), skill: "test.fixture.greet") as? [String: Any])
        XCTAssertEqual(v2["v"] as? Int, 2)
        XCTAssertEqual(v2["greeting"] as? String, "hello Ada Lovelace")
        let pinned2 = try XCTUnwrap(try assertInvokeOK(invoke("fixture.greet@2", #"{"first":"A","last":"B"}"#), skill: "test.fixture.greet") as? [String: Any])
        XCTAssertEqual(pinned2["v"] as? Int, 2)
        let v1 = try XCTUnwrap(try assertInvokeOK(invoke("fixture.greet@1", #"{"name":"Ada"}"#), skill: "test.fixture.greet") as? [String: Any])
        XCTAssertEqual(v1["v"] as? Int, 1)
        XCTAssertEqual(v1["greeting"] as? String, "hello Ada")
        XCTAssertEqual(try invoke("fixture.greet@1", #"{"name":"Ada"}"#).jsonObject()["intent"] as? String, "fixture.greet",
                       "the answer names the version that served it")

        // Old input sent to the bare name: the error says the name moved on and how to pin.
        let e = try assertInvokeError(invoke("fixture.greet", #"{"name":"Ada"}"#), kind: "invalid_input", exitCode: 10,
                                      messageContains: ["fixture.greet@2"])
        XCTAssertTrue((e["hint"] as? String ?? "").contains("fixture.greet@1"), "\(e)")
        try assertInvokeError(invoke("fixture.greet@3", "{}"), kind: "no_skill", exitCode: 11)
        try assertInvokeError(invoke("fixture.greet@x", "{}"), kind: "no_skill", exitCode: 11)
    }
}
