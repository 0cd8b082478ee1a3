import XCTest

/// Swift has no stable ABI on Linux: a skill that records another Swift toolchain is refused, naming
/// both; a C skill (no toolchain recorded) never is.
extension ScanRefusalTests {
    func testSkillFromAnotherSwiftToolchainIsRefusedNamingBothToolchains() throws {
        let r = try assertRefused("toolchain_old.so", reason: "toolchain_mismatch", kind: "incompatible",
                                  messageContains: ["swift-5.9", "swift-6."], refusedID: "test.fixture.toolchainold")
        XCTAssertTrue((r["hint"] as? String ?? "").contains("same Swift toolchain"), "the hint says how to fix it: \(r)")
        try assertInvokeError(invoke("fixture.toolchain_old"), kind: "no_skill", exitCode: 11)
        let list = try listAll()
        XCTAssertNotNil(list.skills.first("id", "test.fixture.echo"), "a C skill records no toolchain and is served")
    }
}
