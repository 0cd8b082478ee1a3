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

final class DescriptorIdentityTextTests: XCTestCase {
    /// The scan process reads one identity per file it is handed: exactly four numbers, or nothing.
    func testTheTextIsExactlyFourNumbersAndAnythingElseIsRefused() {
        XCTAssertEqual(DescriptorIdentity(text: "64769:1234:16000:1700000000123456789"),
                       DescriptorIdentity(device: 64769, inode: 1234, size: 16000, mtimeNs: 1_700_000_000_123_456_789))
        XCTAssertEqual(DescriptorIdentity(text: "1:2:3:-5")?.mtimeNs, -5)
        for bad in ["", "4", "1:2:3", "1:2:3:4:5", ":2:3:4", "x:1:2:3", "1:2:3:99999999999999999999999", "1:2:3:4 "] {
            XCTAssertNil(DescriptorIdentity(text: bad), bad)
        }
    }
}
