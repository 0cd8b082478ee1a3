import SkillLoading
import XCTest

final class DescriptorIdentityTests: XCTestCase {
    func testIdentityTextRoundTripsAndADifferentMtimeDoesNotMatch() {
        let a = DescriptorIdentity(device: 64769, inode: 1234, size: 16000, mtimeNs: 1_700_000_000_123_456_789)
        XCTAssertEqual(DescriptorIdentity(text: a.text), a)
        var b = a
        b.mtimeNs += 1
        XCTAssertFalse(a.matches(b))
        XCTAssertEqual(a.differences(to: b), "modification time changed")
        XCTAssertNil(DescriptorIdentity(text: "1:2:3"))
    }
}
