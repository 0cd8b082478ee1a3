/// A small JSON (RFC 8259) scanner for the worker, which has no Foundation and no JSON library:
/// it checks that bytes are one JSON text, and finds the members of a top-level object as raw byte
/// ranges, so values can be passed on (to a skill, or into a frame) without being rebuilt.
///
/// It is at least as strict as the host's parser (`SkillHostCore.JSON.parse`): strings must be valid
/// UTF-8 without raw control characters, `\u` escapes must pair surrogates, numbers must be finite,
/// nesting is limited as `JSONLimits` says (the same limits the host uses). So a value this scanner accepts and the worker embeds raw in a
/// frame never makes the host reject the frame. Stateless; safe from any thread.
public enum JSONScan {
    /// One member of an object: where its key and its value are. No `String` is made for the key
    /// until `key(in:)` asks (frames are read by `WireKey`, see `FrameMembers`).
    public struct Member: Sendable {
        /// The key's JSON text, quotes included (already checked: escapes and UTF-8 are valid).
        public let keyText: Range<Int>
        public let value: Range<Int>

        public init(keyText: Range<Int>, value: Range<Int>) { (self.keyText, self.value) = (keyText, value) }

        /// The key, unescaped.
        public func key(in bytes: UnsafeBufferPointer<UInt8>) -> String { JSONScan.string(bytes, keyText) ?? "" }
    }

    /// JSON's white space: space, tab, line feed, carriage return.
    @inline(__always)
    public static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d }

    /// True when `bytes[range]` are exactly `word`'s bytes.
    @inline(__always)
    public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount && literal(bytes, range.lowerBound, word) != nil
    }

    /// True when `bytes[range]` are exactly the `count` bytes at `word` (a static name's bytes, read
    /// through one pointer: `StaticString.utf8Start` checks its representation on every access).
    /// Compared a word at a time: two loads from each side, the first and the last 2, 4 or 8 bytes
    /// (overlapping when `count` is not twice that), for any `count` up to 16; longer ones eight
    /// bytes at a time, then the last eight. Never reads outside `bytes[range]` or `word[0..<count]`.
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard range.count == count, range.lowerBound >= 0, range.upperBound <= bytes.count else { return false }
        guard let base = bytes.baseAddress else { return count == 0 }
        return sameBytes(UnsafeRawPointer(base + range.lowerBound), UnsafeRawPointer(word), count: count)
    }

    /// True when the `count` bytes at `a` and at `b` are the same (see `equals`).
    @inline(__always)
    static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count n: Int) -> Bool {
        @inline(__always) func same<T: FixedWidthInteger>(_: T.Type, _ at: Int) -> Bool {
            a.loadUnaligned(fromByteOffset: at, as: T.self) == b.loadUnaligned(fromByteOffset: at, as: T.self)
        }
        switch n {
        case 0: return true
        case 1: return a.load(as: UInt8.self) == b.load(as: UInt8.self)
        case 2...3: return same(UInt16.self, 0) && same(UInt16.self, n - 2)
        case 4...7: return same(UInt32.self, 0) && same(UInt32.self, n - 4)
        case 8...16: return same(UInt64.self, 0) && same(UInt64.self, n - 8)
        default:
            var k = 0
            while k + 8 < n {
                if !same(UInt64.self, k) { return false }
                k += 8
            }
            return same(UInt64.self, n - 8)
        }
    }

    /// True when `bytes` hold exactly one JSON value, with optional white space around it, nested at
    /// most `maxDepth` levels.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONLimits.maxDepth) -> Bool {
        var i = skipSpace(bytes, 0)
        guard let end = skipValue(bytes, i, depth: 0, limit: maxDepth) else { return false }
        i = skipSpace(bytes, end)
        return i == bytes.count
    }

    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }

    /// The members of the top-level object in `bytes`: where each key is, with the byte range of its
    /// value (white space trimmed). Nil when `bytes` is not one valid JSON object.
    /// Nesting is limited to `maxDepth` levels counting the object itself (a frame's: `JSONLimits.frameDepth`).
    public static func members(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONLimits.frameDepth) -> [Member]? {
        var out: [Member] = []
        out.reserveCapacity(8)
        return forEachMember(bytes, maxDepth: maxDepth) { out.append(Member(keyText: $0, value: $1)) } ? out : nil
    }

    /// Calls `body` with each member's key text (quotes included) and value range, in order, while it
    /// checks that `bytes` are one JSON object; false (after calling `body` for the members before the
    /// fault) when they are not.
    public static func forEachMember(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONLimits.frameDepth,
                                     _ body: (_ keyText: Range<Int>, _ value: Range<Int>) -> Void) -> Bool {
        let i = skipSpace(bytes, 0)
        guard i < bytes.count, bytes[i] == 0x7b,
              let end = forEachItem(bytes, at: i, depth: 0, limit: maxDepth, { key, value in body(key!, value) }) else { return false }
        return skipSpace(bytes, end) == bytes.count
    }

    /// The string value whose JSON text (quotes included) is `bytes[range]`, unescaped; nil if the
    /// range is not a valid JSON string.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == 0x22, bytes[range.upperBound - 1] == 0x22 else { return nil }
        let text = UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
        // Plain ASCII (every key, most values: no escape, no control byte, nothing above 0x7f, found
        // eight bytes at a time) is read in place, with no UTF-8 validation.
        var plain = 0
        while plain < text.count {
            plain = skipPlain(text, from: plain)
            guard plain < text.count else { break }
            let c = text[plain]
            guard c >= 0x20, c < 0x80, c != 0x5c else { break }
            plain += 1
        }
        if plain == text.count { return String(decoding: text, as: UTF8.self) }
        // No escapes: read in place, UTF-8 validated.
        if !text.contains(0x5c) { return String(validating: text, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound + 1
        let end = range.upperBound - 1
        while i < end {
            let c = bytes[i]
            if c != 0x5c { out.append(c); i += 1; continue }
            guard i + 1 < end else { return nil }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case 0x22: out.append(0x22)
            case 0x5c: out.append(0x5c)
            case 0x2f: out.append(0x2f)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0c)
            case 0x6e: out.append(0x0a)
            case 0x72: out.append(0x0d)
            case 0x74: out.append(0x09)
            case 0x75:
                guard var scalar = hex4(bytes, i, end) else { return nil }
                i += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 6 <= end, bytes[i] == 0x5c, bytes[i + 1] == 0x75,
                          let low = hex4(bytes, i + 2, end), (0xDC00..<0xE000).contains(low) else { return nil }
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    return nil
                }
                guard let u = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: String(Character(u)).utf8)
            default: return nil
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// The integer whose JSON text is `bytes[range]`; nil if it is not an integer that fits.
    public static func int(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        guard !range.isEmpty else { return nil }
        var i = range.lowerBound
        let negative = bytes[i] == 0x2d
        if negative { i += 1 }
        guard i < range.upperBound else { return nil }
        var value: Int64 = 0
        while i < range.upperBound {
            let d = bytes[i] &- 0x30
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (v, o2) = negative ? m.subtractingReportingOverflow(Int64(d)) : m.addingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            value = v
            i += 1
        }
        return value
    }

    // MARK: - Splitting checked bytes

    // A value inside bytes these scanners already checked (a scan answer: `members` under its limit)
    // is split again without checking: the same loop (`forEachItem`) follows only strings and
    // brackets (`skipChecked`). Bytes that turn out not to be what the caller expects give nil (or
    // fewer items), never a trap; they are never taken for checked JSON.

    /// The members of the object that is all of `bytes` (white space around it allowed), which are
    /// part of bytes already checked.
    public static func members(checked bytes: UnsafeBufferPointer<UInt8>) -> [Member]? {
        var out: [Member] = []
        out.reserveCapacity(16)
        let i = skipSpace(bytes, 0)
        guard i < bytes.count, bytes[i] == 0x7b,
              let end = forEachItem(bytes, at: i, checked: true, { out.append(Member(keyText: $0!, value: $1)) }),
              skipSpace(bytes, end) == bytes.count else { return nil }
        return out
    }

    /// Where each element of the array that is `bytes[range]` is (white space trimmed), in order;
    /// `bytes` were already checked.
    public static func elements(checked bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [Range<Int>]? {
        let b = UnsafeBufferPointer(rebasing: bytes[range])
        var out: [Range<Int>] = []
        let i = skipSpace(b, 0), at = range.lowerBound
        guard i < b.count, b[i] == 0x5b,
              let end = forEachItem(b, at: i, checked: true, { _, v in out.append((v.lowerBound + at)..<(v.upperBound + at)) }),
              skipSpace(b, end) == b.count else { return nil }
        return out
    }

    /// The index just after the value that starts at `i` in checked bytes: a string's end is found
    /// eight bytes at a time (`skipPlain`), brackets are counted, nothing is checked again.
    static func skipChecked(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        guard i < b.count else { return nil }
        switch b[i] {
        case 0x22: return checkedStringEnd(b, i)
        case 0x7b, 0x5b:
            var depth = 0, j = i
            while j < b.count {
                let c = b[j]
                if c == 0x22 {
                    guard let e = checkedStringEnd(b, j) else { return nil }
                    j = e
                    continue
                }
                if c == 0x7b || c == 0x5b {
                    depth += 1
                } else if c == 0x7d || c == 0x5d {
                    depth -= 1
                    if depth == 0 { return j + 1 }
                }
                j += 1
            }
            return nil
        default:
            var j = i
            while j < b.count, !isSpace(b[j]), b[j] != 0x2c, b[j] != 0x7d, b[j] != 0x5d { j += 1 }
            return j
        }
    }

    /// Past the closing quote of the string that opens at `i` in checked bytes.
    static func checkedStringEnd(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        var j = i + 1
        while j < b.count {
            j = skipPlain(b, from: j)
            guard j < b.count else { return nil }
            switch b[j] {
            case 0x22: return j + 1
            case 0x5c: j += 2
            default: j += 1
            }
        }
        return nil
    }

    // MARK: - Grammar

    static func skipSpace(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var i = start
        while i < b.count, isSpace(b[i]) { i += 1 }
        return i
    }

    /// The index just after the value that starts at `i`, or nil if there is no valid value there.
    static func skipValue(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, depth: Int, limit: Int) -> Int? {
        guard depth < limit, i < b.count else { return nil }
        switch b[i] {
        case 0x7b, 0x5b: return forEachItem(b, at: i, depth: depth, limit: limit) { _, _ in }
        case 0x22: return skipString(b, i)
        case 0x74: return literal(b, i, "true")
        case 0x66: return literal(b, i, "false")
        case 0x6e: return literal(b, i, "null")
        case 0x2d, 0x30...0x39: return skipNumber(b, i)
        default: return nil
        }
    }

    /// The one loop over a container's items: checks the object or array that opens at `i` (`{` or
    /// `[`, at nesting level `depth`; its values at `depth + 1`, each within `limit`), calls `body`
    /// with each item's key text (quotes included; nil in an array) and value range, in order, and
    /// returns the index just after the closing bracket; nil (after calling `body` for the items
    /// before the fault) when the bytes there are not one valid container. `checked`: the bytes were
    /// checked before, keys and values are only stepped over (`checkedStringEnd`, `skipChecked`).
    @inline(__always)
    static func forEachItem(_ b: UnsafeBufferPointer<UInt8>, at i: Int, depth: Int = 0, limit: Int = .max, checked: Bool = false,
                            _ body: (_ keyText: Range<Int>?, _ value: Range<Int>) -> Void) -> Int? {
        let object = b[i] == 0x7b
        let close: UInt8 = object ? 0x7d : 0x5d
        var j = skipSpace(b, i + 1)
        if j < b.count && b[j] == close { return j + 1 }
        while true {
            j = skipSpace(b, j)
            var key: Range<Int>? = nil
            if object {
                guard j < b.count, b[j] == 0x22, let k = checked ? checkedStringEnd(b, j) : skipString(b, j) else { return nil }
                key = j..<k
                j = skipSpace(b, k)
                guard j < b.count, b[j] == 0x3a else { return nil }
                j = skipSpace(b, j + 1)
            }
            guard let v = checked ? skipChecked(b, j) : skipValue(b, j, depth: depth + 1, limit: limit) else { return nil }
            body(key, j..<v)
            j = skipSpace(b, v)
            guard j < b.count else { return nil }
            if b[j] == 0x2c { j += 1; continue }
            if b[j] == close { return j + 1 }
            return nil
        }
    }

    static func literal(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ word: StaticString) -> Int? {
        let n = word.utf8CodeUnitCount
        return equals(b, i..<(i + n), word.utf8Start, count: n) ? i + n : nil
    }

    /// Past the closing quote of the string that opens at `i`; checks escapes and UTF-8.
    /// Inlined where values are stepped over: a string of plain ASCII (no escape, no control byte, no
    /// multi-byte character: every key and most values) whose closing quote is the first byte that
    /// needs a look (`specialBytes`, eight bytes at a time) ends there; any other string, and one
    /// that reaches the last eight bytes of `b`, is checked by `checkString`, from its start.
    @inline(__always)
    static func skipString(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        var j = i + 1
        while j + 8 <= b.count {
            let special = specialBytes(UnsafeRawPointer(b.baseAddress! + j).loadUnaligned(as: UInt64.self))
            if special != 0 {
                let k = j + special.trailingZeroBitCount >> 3
                if b[k] == 0x22 { return k + 1 }
                break
            }
            j += 8
        }
        return checkString(b, i)
    }

    /// `skipString`'s full check: past the closing quote of the string that opens at `i`, nil when
    /// its escapes or its UTF-8 are not valid or it has a raw control byte or no end.
    static func checkString(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        var j = i + 1
        var ascii = true
        while j < b.count {
            j = skipPlain(b, from: j)
            guard j < b.count else { break }
            let c = b[j]
            if c == 0x22 {
                if !ascii && UTF8Check.firstInvalidOffset(UnsafeBufferPointer(rebasing: b[(i + 1)..<j])) != nil { return nil }
                return j + 1
            }
            if c < 0x20 { return nil }
            if c >= 0x80 { ascii = false }
            if c == 0x5c {
                guard j + 1 < b.count else { return nil }
                switch b[j + 1] {
                case 0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74: j += 2
                case 0x75:
                    guard let v = hex4(b, j + 2, b.count) else { return nil }
                    if (0xD800..<0xDC00).contains(v) {
                        guard j + 12 <= b.count, b[j + 6] == 0x5c, b[j + 7] == 0x75,
                              let low = hex4(b, j + 8, b.count), (0xDC00..<0xE000).contains(low) else { return nil }
                        j += 12
                    } else if (0xDC00..<0xE000).contains(v) {
                        return nil
                    } else {
                        j += 6
                    }
                default: return nil
                }
                continue
            }
            j += 1
        }
        return nil
    }

    /// The first byte at or after `i` that needs a look inside a string (a quote, a backslash, a control
    /// byte, a byte of a multi-byte character: `specialBytes`), found eight bytes at a time; where
    /// fewer than eight bytes are left, the first of them (plain or not: the caller looks byte by byte).
    @inline(__always)
    public static func skipPlain(_ b: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
        var j = i
        while j + 8 <= b.count {
            let special = specialBytes(UnsafeRawPointer(b.baseAddress! + j).loadUnaligned(as: UInt64.self))
            if special != 0 { return j + special.trailingZeroBitCount >> 3 }
            j += 8
        }
        return j
    }

    /// The top bit of each byte of `w` (little-endian: the first byte is the lowest) that is `"`, `\`,
    /// below 0x20 or above 0x7f, at least for the first such byte (SWAR: a byte that is zero after the
    /// xor, or below the bound, borrows into its top bit; a borrow only marks bytes above a marked
    /// one, so the lowest mark is always right, and the word is zero only when all eight are plain).
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5c)
        return (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (w &- ones &* 0x20) | w) & tops
    }

    static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> UInt32? {
        guard i + 4 <= end else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = b[i + k]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            default: return nil
            }
            v = v << 4 | d
        }
        return v
    }

    static func skipNumber(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        var i = start
        var isInt = true
        func digit(_ k: Int) -> Bool { k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }
        if b[i] == 0x2d { i += 1 }
        guard digit(i) else { return nil }
        if b[i] == 0x30 {
            i += 1
            if digit(i) { return nil }
        } else {
            while digit(i) { i += 1 }
        }
        if i < b.count && b[i] == 0x2e {
            isInt = false
            i += 1
            guard digit(i) else { return nil }
            while digit(i) { i += 1 }
        }
        if i < b.count && (b[i] == 0x65 || b[i] == 0x45) {
            isInt = false
            i += 1
            if i < b.count && (b[i] == 0x2b || b[i] == 0x2d) { i += 1 }
            guard digit(i) else { return nil }
            while digit(i) { i += 1 }
        }
        // The host keeps integers as Int64 and everything else as a finite Double. An integer of at
        // most 18 digits always fits (ids, deadlines, counts): no String is made for it.
        if isInt && i - start <= 18 { return i }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        if isInt && Int64(text) != nil { return i }
        guard let d = Double(text), d.isFinite else { return nil }
        return i
    }
}
