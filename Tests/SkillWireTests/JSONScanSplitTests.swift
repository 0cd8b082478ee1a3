import Foundation
import XCTest
@testable import SkillWire

/// `JSONScan`'s one loop over a container's items (`forEachItem`) checks and splits objects
/// (`members`, `forEachMember`), skips nested containers (`isValid`), and splits objects and arrays
/// inside bytes already checked (`members(checked:)`, `elements(checked:)`): each item's range is
/// exactly its value's text either way, a broken container is refused when checked (and never
/// traps when split), and the nesting limit counts every level.
final class JSONScanSplitTests: XCTestCase {
    private func text(_ b: [UInt8], _ r: Range<Int>) -> String { String(decoding: b[r], as: UTF8.self) }

    func testElementsAreEachValuesTextInOrder() throws {
        let json = #"  [ 1 , "a,]\"b" ,{"k":[1,{"x":"]"}]}, [ ] ,true,null ,-2.5e3,"é"]  "#
        let b = Array(("xx" + json + "yy").utf8)
        let r = 2..<(2 + json.utf8.count)
        let items = try XCTUnwrap(b.withUnsafeBufferPointer { JSONScan.elements(checked: $0, r) })
        XCTAssertEqual(items.map { text(b, $0) }, ["1", #""a,]\"b""#, #"{"k":[1,{"x":"]"}]}"#, "[ ]", "true", "null", "-2.5e3", #""é""#])
        XCTAssertEqual(b.withUnsafeBufferPointer { JSONScan.elements(checked: $0, 0..<2) }, nil, "not an array")
        for empty in ["[]", " [ ] "] {
            let e = Array(empty.utf8)
            XCTAssertEqual(e.withUnsafeBufferPointer { JSONScan.elements(checked: $0, 0..<e.count) }, [])
        }
    }

    func testMembersAreEachKeyAndValueInOrder() throws {
        let b = Array(#" {"a" : [1,2] , "b\"c":{"d":"}"},"e":"" } "#.utf8)
        for checked in [false, true] {
            let members = try XCTUnwrap(b.withUnsafeBufferPointer { checked ? JSONScan.members(checked: $0) : JSONScan.members($0) })
            XCTAssertEqual(members.map { text(b, $0.keyText) }, [#""a""#, #""b\"c""#, #""e""#])
            XCTAssertEqual(members.map { text(b, $0.value) }, ["[1,2]", #"{"d":"}"}"#, #""""#])
        }
    }

    /// Broken containers (a trailing comma too, which Foundation lets through): `members` and
    /// `isValid` refuse them; splitting them as if checked does not trap.
    func testEveryBrokenContainerIsRefused() {
        let broken = ["[1,]", "[,1]", "[1 2]", "[1", "[", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":}", "{1:2}", "{\"a\":1", "{\"a\":[1}",
                      "[\"x]", "[1]]", "{\"a\":1}}", "[tru]", "[01]", "{\"a\":1 \"b\":2}"]
        for s in broken {
            let b = Array(s.utf8)
            b.withUnsafeBufferPointer { p in
                XCTAssertFalse(JSONScan.isValid(p), s)
                if !s.hasPrefix("[") { XCTAssertNil(JSONScan.members(p), s) }
                _ = JSONScan.elements(checked: p, 0..<p.count)
                _ = JSONScan.members(checked: p)
            }
        }
    }

    /// `maxDepth` counts every level, the container's own and a scalar's inside: `[[[]]]` is three
    /// levels, `[1]` two (as `isValid` counts them).
    func testTheNestingLimitCountsTheContainer() {
        for (s, depth) in [("[[[]]]", 3), ("[[[1]]]", 4), ("{\"a\":{\"b\":[]}}", 3), ("[1]", 2), ("{\"a\":1}", 2)] {
            let b = Array(s.utf8)
            b.withUnsafeBufferPointer { p in
                XCTAssertTrue(JSONScan.isValid(p, maxDepth: depth), s)
                XCTAssertFalse(JSONScan.isValid(p, maxDepth: depth - 1), s)
                if !s.hasPrefix("[") {
                    XCTAssertNotNil(JSONScan.members(p, maxDepth: depth), s)
                    XCTAssertNil(JSONScan.members(p, maxDepth: depth - 1), s)
                }
            }
        }
    }
}
