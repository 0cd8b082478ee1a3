import XCTest
@testable import SkillWire

/// The frame codec shared by the host and skillhost-worker: a 4-byte big-endian length, then a body.
final class FrameTests: XCTestCase {
    func testEncodeWritesABigEndianLengthThenTheBody() {
        XCTAssertEqual(Frame.encode(Array("{}".utf8)), [0, 0, 0, 2, 0x7b, 0x7d])
        let big = [UInt8](repeating: 0x20, count: 0x010203)
        XCTAssertEqual(Array(Frame.encode(big).prefix(4)), [0x00, 0x01, 0x02, 0x03])
    }

    func testSealInPlaceFillsTheHeaderOfABodyBuiltAfterPlaceholders() {
        var bytes: [UInt8] = [9, 9, 9, 9] + Array(#"{"op":"x"}"#.utf8)
        Frame.sealInPlace(&bytes)
        XCTAssertEqual(bytes, Frame.encode(Array(#"{"op":"x"}"#.utf8)))
    }

    func testRoundTripOfSeveralFramesInOneChunk() throws {
        let bodies = [#"{"op":"hello","protocol":1}"#, #"{"op":"log","message":"日本語"}"#, "{}"].map { Array($0.utf8) }
        var reader = FrameReader()
        reader.append(bodies.flatMap(Frame.encode))
        for b in bodies { XCTAssertEqual(try reader.next(), b) }
        XCTAssertNil(try reader.next())
        XCTAssertEqual(reader.bufferedByteCount, 0)
    }

    func testFramesFedOneByteAtATimeComeOutWholeAndOnlyWhenComplete() throws {
        let body = Array(#"{"op":"complete","id":7,"result":{"a":[1,2,3]}}"#.utf8)
        let wire = Frame.encode(body) + Frame.encode(Array("{}".utf8))
        var reader = FrameReader()
        var out: [[UInt8]] = []
        for (i, byte) in wire.enumerated() {
            reader.append([byte])
            while let f = try reader.next() { out.append(f) }
            if i < 4 + body.count - 1 { XCTAssertTrue(out.isEmpty, "no frame before its last byte (byte \(i))") }
        }
        XCTAssertEqual(out, [body, Array("{}".utf8)])
    }

    func testAnEmptyFrameIsAProtocolErrorAndTheStreamStaysBroken() {
        var reader = FrameReader()
        reader.append([0, 0, 0, 0] + Frame.encode(Array("{}".utf8)))
        XCTAssertThrowsError(try reader.next()) { XCTAssertTrue(String(describing: $0).contains("empty frame")) }
        XCTAssertThrowsError(try reader.next(), "once broken, always broken")
    }

    func testAnOversizedLengthIsRefusedBeforeWaitingForTheBody() {
        var reader = FrameReader(maxFrameBytes: 1024)
        reader.append([0, 0, 4, 1])  // 1025
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertTrue(String(describing: error).contains("1025"), "\(error)")
            XCTAssertTrue(String(describing: error).contains("00 00 04 01"), "names the bytes: \(error)")
        }
        var garbage = FrameReader()
        garbage.append(Array("\u{ff}\u{ff}junk".utf8))
        XCTAssertThrowsError(try garbage.next(), "text where a header should be reads as a huge length")
    }

    func testAPartialHeaderWaits() throws {
        var reader = FrameReader()
        reader.append([0, 0])
        XCTAssertNil(try reader.next())
        reader.append([0, 2, 0x7b])
        XCTAssertNil(try reader.next())
        reader.append([0x7d])
        XCTAssertEqual(try reader.next(), Array("{}".utf8))
    }

    func testManyFramesThroughOneReaderKeepItsBufferSmall() throws {
        var reader = FrameReader()
        let body = [UInt8](repeating: 0x61, count: 10_000)
        for _ in 0..<100 {
            reader.append(Frame.encode(body))
            XCTAssertEqual(try reader.next(), body)
        }
        XCTAssertEqual(reader.bufferedByteCount, 0)
    }

    /// `receive` lets a read write straight into the reader's buffer: reads of any size split frames
    /// anywhere, a partial frame is kept (moved to the front when the room after it runs short, so the
    /// buffer stays one frame plus the room), and a read that got nothing adds nothing.
    func testReadsStraightIntoTheBufferSplitFramesAnywhereAndKeepItSmall() throws {
        let bodies = (0..<200).map { k in Array(#"{"op":"log","message":"\#(String(repeating: "x", count: k * 37 % 900))"}"#.utf8) }
        let wire = bodies.flatMap(Frame.encode)
        var reader = FrameReader()
        var out: [[UInt8]] = [], at = 0, size = 1
        while at < wire.count {
            let step = min(size, wire.count - at)
            let n = reader.receive(room: 2100) { room in
                XCTAssertGreaterThanOrEqual(room.count, 2100)
                wire.withUnsafeBytes { w in room.copyMemory(from: UnsafeRawBufferPointer(rebasing: w[at..<(at + step)])) }
                return step
            }
            XCTAssertEqual(n, step)
            at += step
            size = size * 7 % 2003 + 1
            XCTAssertEqual(reader.receive { _ in 0 }, 0)
            XCTAssertEqual(reader.receive { _ in -1 }, -1)
            while let f = try reader.next() { out.append(f) }
            XCTAssertLessThanOrEqual(reader.buffer.count, 1000 + 2003 + 65536, "a partial frame and the room")
        }
        XCTAssertEqual(out, bodies)
        XCTAssertEqual(reader.bufferedByteCount, 0)
    }

    func testThePreviewAfterABrokenHeaderIsTheBytesStillBuffered() {
        var reader = FrameReader(maxFrameBytes: 16)
        _ = reader.receive { room in
            let text = Array("{\"op\":\"x\"}".utf8)
            text.withUnsafeBytes { room.copyMemory(from: $0) }
            return text.count
        }
        XCTAssertThrowsError(try reader.next())
        XCTAssertEqual(reader.preview(4), Array("{\"op".utf8))
        XCTAssertEqual(reader.preview(), Array("{\"op\":\"x\"}".utf8))
    }
}

/// The worker's JSON scanner: it must accept exactly what the host's parser accepts (or less), so a
/// value it embeds raw in a frame never breaks the frame.
final class JSONScanTests: XCTestCase {
    func valid(_ s: String) -> Bool { JSONScan.isValid(Array(s.utf8)) }

    func testAcceptsJSONValues() {
        for s in ["{}", "[]", "0", "-1.5e3", "true", "null", #""a\"b\\\/\n\u00e9\ud83d\ude00""#, " {\"a\" : [1, {\"b\":null}] } ",
                  #"{"text":"héllo 你好"}"#, "9223372036854775807", "1e308"] {
            XCTAssertTrue(valid(s), s)
        }
    }

    func testRefusesWhatTheHostParserRefuses() {
        for s in ["", "{", "{\"a\"}", "[1,]", "01", "1.", "-", "tru", "nul", "\"\u{01}\"", #""\x""#, #""\ud800""#, #""\udc00""#,
                  "1e400", "hello, not json", "{} {}", "{\"a\":1,}", "'a'"] {
            XCTAssertFalse(valid(s), s)
        }
        XCTAssertFalse(JSONScan.isValid([0x22, 0xff, 0xfe, 0x22]), "invalid UTF-8 inside a string")
        XCTAssertFalse(valid(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)), "too deep")
        XCTAssertTrue(valid(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)))
    }

    func testMembersGiveKeysAndRawValueRanges() throws {
        let text = Array(#" {"op":"invoke","id":12,"input":{"text":"a b"} ,"context":{"x":[1]},"k\u00e9":true}"#.utf8)
        let members = try XCTUnwrap(text.withUnsafeBufferPointer { JSONScan.members($0) })
        text.withUnsafeBufferPointer { b in
            XCTAssertEqual(members.map { $0.key(in: b) }, ["op", "id", "input", "context", "ké"])
            XCTAssertEqual(WireKey(named: b, members[0].keyText), .op)
            XCTAssertEqual(WireKey(named: b, members[1].keyText), .id)
            XCTAssertNil(WireKey(named: b, members[4].keyText), "not a frame key")
            XCTAssertEqual(WireOp(named: b, members[0].value), .invoke)
            XCTAssertNil(WireOp(named: b, members[1].value), "a number is no operation")
            XCTAssertEqual(JSONScan.string(b, members[0].value), "invoke")
            XCTAssertEqual(JSONScan.int(b, members[1].value), 12)
            XCTAssertEqual(String(decoding: b[members[2].value], as: UTF8.self), #"{"text":"a b"}"#)
            XCTAssertEqual(String(decoding: b[members[3].value], as: UTF8.self), #"{"x":[1]}"#)
        }
        XCTAssertNil(Array("[1]".utf8).withUnsafeBufferPointer { JSONScan.members($0) }, "not an object")
        XCTAssertNil(Array(#"{"a":1"#.utf8).withUnsafeBufferPointer { JSONScan.members($0) }, "unterminated")
    }

    func testStringUnescapes() {
        let text = Array(#""tab\tquote\" \u00e9 \ud83d\ude00""#.utf8)
        XCTAssertEqual(text.withUnsafeBufferPointer { JSONScan.string($0, 0..<$0.count) }, "tab\tquote\" é 😀")
    }

    func testStringsWithoutEscapesAreReadInPlaceAndStillValidated() {
        func string(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBufferPointer { JSONScan.string($0, 0..<$0.count) } }
        XCTAssertEqual(string(Array("\"plain é\"".utf8)), "plain é")
        XCTAssertEqual(string([0x22, 0x22]), "")
        XCTAssertNil(string([0x22, 0xff, 0xfe, 0x22]), "invalid UTF-8 is refused, not repaired")
        XCTAssertNil(string([0x22, 0x61]), "no closing quote")
    }

    func testIntegersAreReadExactlyOrNotAtAll() {
        func int(_ text: String) -> Int64? { Array(text.utf8).withUnsafeBufferPointer { JSONScan.int($0, 0..<$0.count) } }
        for v: Int64 in [0, 7, -1, 42, 1_000_000, Int64.max, Int64.min, -9_007_199_254_740_993] { XCTAssertEqual(int(String(v)), v) }
        for bad in ["", "-", "1.5", "1e3", "9223372036854775808", "-9223372036854775809", "\"1\"", "12a", " 1"] {
            XCTAssertNil(int(bad), bad)
        }
    }
}

/// The frame writer's numbers: every integer type and range.
final class LineNumberTests: XCTestCase {
    func testIntegersAreWrittenLikeTheirDescription() {
        let values: [Int64] = [0, 7, 9, 10, 42, 99, 100, 101, 65_535, -1, -10, -987_654_321, Int64.max, Int64.min]
        for v in values {
            var l = Line()
            l.number(v)
            XCTAssertEqual(String(decoding: l.bytes, as: UTF8.self), String(v))
        }
        var l = Line()
        l.number(UInt64.max)  // beyond Int64: still right
        l.number(Int32(-5))
        l.number(UInt8(255))
        XCTAssertEqual(String(decoding: l.bytes, as: UTF8.self), String(UInt64.max) + "-5255")
    }

    func testKeysWrittenWithEscapesAreComparedUnescaped() throws {
        let text = Array(#"{"\u006fp":"hello","i\u0064":7}"#.utf8)
        let members = try XCTUnwrap(text.withUnsafeBufferPointer { JSONScan.members($0) })
        text.withUnsafeBufferPointer { b in
            XCTAssertEqual(WireKey(named: b, members[0].keyText), .op)
            XCTAssertEqual(WireKey(named: b, members[1].keyText), .id)
        }
    }

    func testEveryOperationIsReadBackFromItsFrameByName() throws {
        for op in WireOp.allCases {
            var f = Line.frame(op)
            f.key("id"); f.number(1)
            let sealed = f.sealed()
            let body = Array(sealed.dropFirst(4))
            XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"op":""# + op.rawValue + #"","id":1}"#)
            let members = try XCTUnwrap(body.withUnsafeBufferPointer { JSONScan.members($0) })
            body.withUnsafeBufferPointer { b in XCTAssertEqual(WireOp(named: b, members[0].value), op) }
        }
        let unknown = Array(#"{"op":"inv"}"#.utf8)
        let m = try XCTUnwrap(unknown.withUnsafeBufferPointer { JSONScan.members($0) })
        unknown.withUnsafeBufferPointer { b in XCTAssertNil(WireOp(named: b, m[0].value), "a prefix of a name is no operation") }
    }
}
