import XCTest
@testable import SkillHostCore

/// Which file and which step a scan process is on (`ManifestReader.Progress`), as its lines arrive: a
/// crash or a hang is blamed on that file and step alone.
final class ScanProgressTests: XCTestCase {
    /// Swift images: every file is loaded first, then the entries run in load order.
    func testDeferredEntriesRunAfterEveryLoadInLoadOrder() {
        var p = ManifestReader.Progress(paths: ["a", "b", "c"])
        XCTAssertEqual(p.current?.path, "a"); XCTAssertEqual(p.current?.loading, true)
        p.loaded()
        XCTAssertEqual(p.current?.path, "b"); XCTAssertEqual(p.current?.loading, true)
        p.answer()  // b refused while loading: its answer
        XCTAssertEqual(p.current?.path, "c"); XCTAssertEqual(p.current?.loading, true)
        p.loaded()
        XCTAssertEqual(p.current?.path, "a"); XCTAssertEqual(p.current?.loading, false, "pass two: a's entry")
        p.answer()
        XCTAssertEqual(p.current?.path, "c"); XCTAssertEqual(p.current?.loading, false)
        p.answer()
        XCTAssertNil(p.current)
        XCTAssertTrue(p.finished)
        XCTAssertEqual(p.answered, [0, 1, 2])
    }

    /// An image without Swift has its entry called right after its load (`"entry":"now"`): until its
    /// answer comes, the step is that file's entry, not the next file's load.
    func testAnEntryCalledRightAfterItsLoadIsTheCurrentStepUntilItsAnswer() {
        var p = ManifestReader.Progress(paths: ["c1", "swift", "c2"])
        p.loaded(entryNow: true)
        XCTAssertEqual(p.current?.path, "c1")
        XCTAssertEqual(p.current?.loading, false, "a crash now is in c1's skillhost_entry, not in loading swift")
        p.answer()
        XCTAssertEqual(p.current?.path, "swift"); XCTAssertEqual(p.current?.loading, true)
        p.loaded()
        XCTAssertEqual(p.current?.path, "c2"); XCTAssertEqual(p.current?.loading, true)
        p.loaded(entryNow: true)
        XCTAssertEqual(p.current?.path, "c2"); XCTAssertEqual(p.current?.loading, false)
        p.answer()
        XCTAssertEqual(p.current?.path, "swift"); XCTAssertEqual(p.current?.loading, false, "then the deferred Swift entry")
        p.answer()
        XCTAssertTrue(p.finished)
        XCTAssertEqual(p.answered, [0, 1, 2])
    }
}

/// The scan process's loaded lines, recognized byte for byte without a JSON tree; anything else is left
/// to the JSON reader (nil).
final class LoadedLineTests: XCTestCase {
    func testTheTwoLoadedLinesOfAFileAreRecognizedAndNothingElse() {
        let path = "/skills/a \"b\".so"
        XCTAssertEqual(ManifestReader.loadedMark(Array(#"{"file":"/skills/a \"b\".so","status":"loaded"}"#.utf8), path: path), false)
        XCTAssertEqual(ManifestReader.loadedMark(Array(#"{"file":"/skills/a \"b\".so","status":"loaded","entry":"now"}"#.utf8), path: path), true)
        XCTAssertNil(ManifestReader.loadedMark(Array(#"{"file":"/skills/other.so","status":"loaded"}"#.utf8), path: path), "another file's line")
        XCTAssertNil(ManifestReader.loadedMark(Array(#"{"file":"/skills/a \"b\".so","status":"loaded","entry":"later"}"#.utf8), path: path))
        XCTAssertNil(ManifestReader.loadedMark(Array(#"{"file":"/skills/a \"b\".so","status":"loaded"}x"#.utf8), path: path), "trailing bytes")
        XCTAssertNil(ManifestReader.loadedMark(Array(#"{"file":"/skills/a \"b\".so","status":"ok","skill":{}}"#.utf8), path: path), "an answer")
        XCTAssertEqual(ManifestReader.loadedMark(Array(#"{"file":"a","status":"loaded"}"#.utf8), path: "a"), false, "a short path")
        XCTAssertEqual(ManifestReader.loadedMark(Array(#"{"file":"","status":"loaded","entry":"now"}"#.utf8), path: ""), true, "an empty path")
        XCTAssertNil(ManifestReader.loadedMark(Array(#"{"file":"/skills/a \"b\".so","status":"refused","message":"x\",\"status\":\"loaded\"}"}"#.utf8), path: path),
                     "an answer whose last bytes look like a loaded line's")
    }
}
