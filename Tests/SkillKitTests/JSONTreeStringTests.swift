import Foundation
import XCTest
@testable import SkillKit

/// `JSONTree` takes a string without validating it when every byte was ASCII: any other byte, valid
/// UTF-8 or not, wherever it stands, must still give Foundation's string or no tree at all.
final class JSONTreeStringTests: XCTestCase {
    func testAStringWithAnyByteAtAnyPositionIsFoundationsStringOrNoTree() {
        let specials: [[UInt8]] = [[0x41], [0x7f], [0xc3, 0xa9], [0xe6, 0x97, 0xa5], [0xf0, 0x9f, 0x98, 0x80], [0x80], [0xc3, 0x41],
                                   [0xff], [0xed, 0xa0, 0x80], [0x5c, 0x6e], Array(#"\u00e9"#.utf8), [0x01]]
        var checked = 0
        for special in specials {
            for before in 0..<10 {
                for after in [0, 1, 9] {
                    var text: [UInt8] = Array(#"{"k":""#.utf8)
                    text += Array(repeating: UInt8(ascii: "a"), count: before) + special + Array(repeating: UInt8(ascii: "b"), count: after)
                    text += Array(#""}"#.utf8)
                    let expected = (try? JSONSerialization.jsonObject(with: Data(text))) as? [String: String]
                    let tree = JSONTree.parse(text)
                    XCTAssertEqual(tree == nil, expected == nil, "\(special) after \(before)")
                    if case .object(let members)? = tree, case .string(let s) = members.first?.value {
                        XCTAssertEqual(s, expected?["k"], "\(special) after \(before)")
                    } else if tree != nil {
                        XCTFail("not an object with one string for \(special) after \(before)")
                    }
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, specials.count * 30)
    }
}
