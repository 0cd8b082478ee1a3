import XCTest
import Glibc
@testable import SkillHostCore

/// `m`'s summary after a real trip through a scan cache file: stored, saved, and read back by a new
/// `ScanCache` (whose index is read straight from its bytes, `ScanCache.readIndex`).
func summaryThroughTheScanCache(_ m: SkillManifest) throws -> SkillSummary? {
    let dir = NSTemporaryDirectory() + "scan-cache-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let key = ScanCache.Key(inode: 7, size: 100, mtimeNs: 1, ctimeNs: 2, mode: 0o100755)
    var cache = ScanCache(path: dir + "/scan-cache", hostSignature: "test")
    cache.store("/skills/a.so", key: key, outcome: .success(m))
    XCTAssertNil(cache.save())
    guard case .success(let stored)? = ScanCache(path: dir + "/scan-cache", hostSignature: "test").lookup("/skills/a.so", key)?.outcome else {
        return nil
    }
    return stored.summary
}

/// The scan cache's index as a warm start reads it: straight from the bytes, exactly the shape
/// `save()` writes; anything else drops the whole cache (its files are scanned again).
final class ScanCacheIndexTests: XCTestCase {
    private var dir = ""

    override func setUp() {
        dir = NSTemporaryDirectory() + "scan-cache-index-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    private func summary(_ id: String, version: String, permissions: Permissions = .none) -> SkillManifest {
        var identity = SkillIdentity(id: id, name: "Name \"quoted\" ünïcode\n", version: SemanticVersion(version)!, category: "tools",
                                     vendor: "", description: "tab\there", toolchain: nil, abiMajor: 1, abiMinor: 3,
                                     abiMinorRequired: 1, threadSafe: true, hasHealth: false)
        identity.permissions = permissions
        return SkillManifest(identity: identity, intents: [])
    }

    /// Rows that repeat the row before's version, category, vendor or toolchain (which the reader
    /// reuses instead of reading again) and rows that change them, back and forth, each read back as
    /// stored: a reused value never leaks into a row that differs.
    func testRepeatedAndChangedFieldsReadBackRowByRow() throws {
        let path = dir + "/scan-cache"
        var cache = ScanCache(path: path, hostSignature: "h")
        let fields: [(version: String, category: String, vendor: String, toolchain: String?)] = [
            ("1.0.0", "tools", "acme", "swift-6.3"), ("1.0.0", "tools", "acme", "swift-6.3"), ("1.0.0", "tools", "acme", nil),
            ("1.0.0", "tools", "acme", "swift-6.3"), ("2.0.0", "weather", "acme", "swift-6.2"), ("1.0.0", "tools", "other", "swift-6.2"),
            ("1.0.0", "tools", "acme \"q\"", "swift-6.3"), ("1.0.0", "tools", "acme", "swift-6.3"),
        ]
        var stored: [String: SkillManifest] = [:]
        for (k, f) in fields.enumerated() {
            var m = summary("com.example.s\(k)", version: f.version)
            m.identity.category = f.category
            m.identity.vendor = f.vendor
            m.identity.toolchain = f.toolchain
            let file = "/s/\(k).so"
            stored[file] = m
            cache.store(file, key: ScanCache.Key(inode: UInt64(k), size: 1, mtimeNs: 1, ctimeNs: 1, mode: 0o100644), outcome: .success(m))
        }
        XCTAssertNil(cache.save())
        let read = ScanCache(path: path, hostSignature: "h")
        XCTAssertFalse(read.dirty)
        for (k, _) in fields.enumerated() {
            let file = "/s/\(k).so"
            guard case .success(let got)? = read.lookup(file, ScanCache.Key(inode: UInt64(k), size: 1, mtimeNs: 1, ctimeNs: 1, mode: 0o100644))?.outcome else {
                return XCTFail("\(file) is missing")
            }
            XCTAssertEqual(got.summary, stored[file]!.summary, file)
        }
    }

    /// Every kind of row — manifests with and without permissions, odd strings, a recorded hash, a
    /// refusal with and without a hint — reads back as it was stored (toolchains and repeated fields:
    /// `testRepeatedAndChangedFieldsReadBackRowByRow`).
    func testEveryKindOfRowReadsBackAsStored() throws {
        let path = dir + "/scan-cache"
        var cache = ScanCache(path: path, hostSignature: "host \"sig\"")
        let a = summary("com.example.a", version: "1.2.3-beta.1+build.5")
        let b = summary("com.example.b", version: "0.0.1", permissions: Permissions(network: ["api.example.com:443"], read: ["{home}/x"]))
        let keys = (0..<4).map { ScanCache.Key(inode: UInt64.max - UInt64($0), size: Int64($0), mtimeNs: -5, ctimeNs: 1 << 62, mode: 0o100644) }
        cache.store("/s/a.so", key: keys[0], outcome: .success(a))
        cache.store("/s/b \"ü\".so", key: keys[1], outcome: .success(b))
        cache.store("/s/c.so", key: keys[2], outcome: .failure(Refusal(file: "/s/c.so", reason: .timedOut, message: "m\n\u{1}", hint: "h")))
        cache.store("/s/d.so", key: keys[3], outcome: .failure(Refusal(file: "/s/d.so", reason: .badManifest, message: "m", hint: nil)))
        cache.setHash("/s/a.so", keys[0], String(repeating: "ab", count: 32))
        XCTAssertNil(cache.save())

        let read = ScanCache(path: path, hostSignature: "host \"sig\"")
        XCTAssertFalse(read.dirty)
        XCTAssertEqual(read.entries.count, 4)
        guard case .success(let sa)? = read.lookup("/s/a.so", keys[0])?.outcome,
              case .success(let sb)? = read.lookup("/s/b \"ü\".so", keys[1])?.outcome,
              case .failure(let rc)? = read.lookup("/s/c.so", keys[2])?.outcome,
              case .failure(let rd)? = read.lookup("/s/d.so", keys[3])?.outcome else {
            return XCTFail("an entry is missing or of the wrong kind: \(read.entries.keys.sorted())")
        }
        XCTAssertEqual(sa.summary, a.summary)
        XCTAssertEqual(sa.summary.identity.version.build, "build.5")
        XCTAssertEqual(sb.summary, b.summary)
        XCTAssertEqual(sb.summary.identity.permissions, b.identity.permissions)
        XCTAssertEqual(read.lookup("/s/a.so", keys[0])?.sha256, String(repeating: "ab", count: 32))
        XCTAssertNil(read.lookup("/s/b \"ü\".so", keys[1])?.sha256)
        XCTAssertEqual([rc.reason, rd.reason], [.timedOut, .badManifest])
        XCTAssertEqual([rc.message, rd.message], ["m\n\u{1}", "m"])
        XCTAssertEqual(rc.hint, "h"); XCTAssertNil(rd.hint)
        XCTAssertNil(ScanCache(path: path, hostSignature: "another host").lookup("/s/a.so", keys[0]), "another host's cache is not used")
    }

    /// An index of another shape (here: valid JSON with its members reordered, an extra member, a row
    /// one value short, a negative mode), with a matching checksum, is dropped whole and marked for
    /// rewriting — never half read.
    func testAnIndexOfAnotherShapeIsDroppedWhole() throws {
        let row = #"["/s/a.so",1,2,3,4,33261,null,{"file":"/s/a.so","reason":"timed_out","message":"m"}]"#
        for index in [#"{"host":"h","format":5,"files":[\#(row)]}"#,
                      #"{"format":5,"host":"h","files":[\#(row)],"more":1}"#,
                      #"{"format":5,"host":"h","files":[["/s/a.so",1,2,3,4,33261,{"file":"/s/a.so","reason":"timed_out","message":"m"}]]}"#,
                      #"{"format":5,"host":"h","files":[["/s/a.so",1,2,3,4,-1,null,{"file":"/s/a.so","reason":"timed_out","message":"m"}]]}"#] {
            let bytes = Array(index.utf8)
            XCTAssertNil(bytes.withUnsafeBufferPointer { ScanCache.readIndex($0, hostSignature: "h") }, index)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let file = "\(ScanCache.magic) \(ScanCache.formatVersion) \(ScanCache.checksum(bytes[...]))\n\(index)\n"
            try file.write(toFile: dir + "/scan-cache", atomically: true, encoding: .utf8)
            let cache = ScanCache(path: dir + "/scan-cache", hostSignature: "h")
            XCTAssertTrue(cache.entries.isEmpty, index)
            XCTAssertTrue(cache.dirty, index)
        }
        // The same row in the shape save() writes is read.
        let good = Array(#"{"format":5,"host":"h","files":[\#(row)]}"#.utf8)
        XCTAssertEqual(good.withUnsafeBufferPointer { ScanCache.readIndex($0, hostSignature: "h") }?.count, 1)
    }

    /// Integers are read from the bytes exactly as `save()` writes them: the extremes of 64 bits read
    /// back; a fraction, an exponent, a leading zero, a lone minus or one past the extremes drops the
    /// whole cache, as any other shape does.
    func testIntegersAreReadExactlyAndAnyOtherNumberDropsTheCache() throws {
        func index(inode: String) -> [UInt8] {
            Array(#"{"format":5,"host":"h","files":[["/s/a.so",\#(inode),2,3,4,33261,null,{"file":"/s/a.so","reason":"timed_out","message":"m"}]]}"#.utf8)
        }
        for (text, inode) in [("0", UInt64(0)), ("-1", UInt64.max), ("9223372036854775807", UInt64(Int64.max)),
                              ("-9223372036854775808", UInt64(bitPattern: Int64.min)), (" 12 ", UInt64(12))] {
            let rows = index(inode: text).withUnsafeBufferPointer { ScanCache.readIndex($0, hostSignature: "h") }
            XCTAssertEqual(rows?.first?.key.inode, inode, text)
        }
        for text in ["1.0", "1e3", "1E3", "01", "-", "", "9223372036854775808", "-9223372036854775809", "true", "\"1\""] {
            XCTAssertNil(index(inode: text).withUnsafeBufferPointer { ScanCache.readIndex($0, hostSignature: "h") }, text)
        }
    }

    /// Confidences read back exactly, each its own value, however the rows before them repeat or
    /// differ (the reader reuses the value of the same text read just before).
    func testConfidencesReadBackExactlyWhateverTheRowsBefore() throws {
        let path = dir + "/scan-cache"
        var cache = ScanCache(path: path, hostSignature: "h")
        let confidences: [[Double]] = [[0.9, 0.9], [0.9, 0.35], [1, 0.1 + 0.2], [0.3, 1e-7], [0.9, 0], [0.25, 0.9]]
        var manifests: [String: SkillManifest] = [:]
        for (k, pair) in confidences.enumerated() {
            var m = summary("com.example.c\(k)", version: "1.0.\(k)")
            m.intents = pair.enumerated().map { j, c in
                IntentManifest(name: "example.i\(k).n\(j)", description: "d", inputSchema: .object(JSONObject()), outputSchema: nil,
                               flags: IntentFlags(rawValue: 0), surfaces: Surfaces(rawValue: 1), priority: 0, confidence: c, keywords: [:], examples: [])
            }
            manifests["/s/c\(k).so"] = m
            cache.store("/s/c\(k).so", key: ScanCache.Key(inode: UInt64(k), size: 1, mtimeNs: 1), outcome: .success(m))
        }
        XCTAssertNil(cache.save())
        let read = ScanCache(path: path, hostSignature: "h")
        XCTAssertFalse(read.dirty)
        for (file, m) in manifests {
            guard case .success(let stored)? = read.entries[file]?.outcome else { return XCTFail("\(file) is missing") }
            XCTAssertEqual(stored.summary.intents.map(\.confidence), m.intents.map(\.confidence), file)
            XCTAssertEqual(stored.summary, m.summary, file)
        }
    }
}
