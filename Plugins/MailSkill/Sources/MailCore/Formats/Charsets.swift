import Foundation
import Glibc

/// Turns the bytes of a part or an encoded word into text, given the charset label it declares.
///
/// Contract: never fails. UTF-8, US-ASCII and ISO-8859-1 are decoded natively; every other label goes
/// through glibc `iconv` (GB2312, GBK and GB18030 are all read as GB18030, their common superset, because
/// mail labelled GB2312 routinely contains GBK characters). When a label is unknown to iconv, or bytes are
/// invalid in it, the text is still returned (unknown label: read as UTF-8 with U+FFFD for invalid bytes;
/// invalid bytes: U+FFFD each) together with a `problem` sentence that names the charset, for the caller
/// to report per message. Thread-safe: each call opens its own converter.
public enum Charsets {
    public struct Decoded: Sendable, Equatable {
        public let text: String
        /// Why the text may be wrong, or nil.
        public let problem: String?
    }

    /// Decodes `bytes` declared as `label` (nil or empty: US-ASCII, as RFC 2045 says).
    public static func decode(_ bytes: [UInt8], charset label: String?) -> Decoded {
        let name = normalize(label)
        switch name {
        case "", "us-ascii", "ascii", "utf-8", "utf8", "unicode-1-1-utf-8":
            if let s = String(validating: bytes, as: UTF8.self) { return Decoded(text: s, problem: nil) }
            if name.hasPrefix("utf") {
                return Decoded(text: String(decoding: bytes, as: UTF8.self), problem: "invalid UTF-8 bytes replaced by U+FFFD")
            }
            // 8-bit bytes in a part labelled US-ASCII: the sender meant some 8-bit charset; Latin-1 keeps every byte.
            return Decoded(text: TextBytes.latin1(bytes),
                           problem: "8-bit bytes in a part labelled \(name.isEmpty ? "US-ASCII" : label ?? name), read as ISO-8859-1")
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1", "cp819":
            return Decoded(text: TextBytes.latin1(bytes), problem: nil)
        default:
            return iconvDecode(bytes, from: iconvName(name), label: label ?? name)
        }
    }

    /// Whether `label` can be decoded here (natively or by iconv).
    public static func isSupported(_ label: String) -> Bool {
        let name = normalize(label)
        if ["", "us-ascii", "ascii", "utf-8", "utf8", "iso-8859-1", "latin1"].contains(name) { return true }
        guard let cd = open(iconvName(name)) else { return false }
        iconv_close(cd)
        return true
    }

    /// Lowercased, without quotes, spaces and an RFC 2231 language suffix (`utf-8*en` → `utf-8`).
    static func normalize(_ label: String?) -> String {
        var s = (label ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " \t\"'"))
        if let star = s.firstIndex(of: "*") { s = String(s[..<star]) }
        return s
    }

    private static func iconvName(_ name: String) -> String {
        switch name {
        case "gb2312", "gbk", "x-gbk", "cp936", "ms936", "windows-936", "euc-cn", "csgb2312", "gb18030", "chinese":
            return "GB18030"
        default:
            return name.uppercased()
        }
    }

    private static func open(_ from: String) -> iconv_t? {
        let cd = iconv_open("UTF-8", from)
        return cd == iconv_t(bitPattern: -1) ? nil : cd
    }

    private static func iconvDecode(_ bytes: [UInt8], from: String, label: String) -> Decoded {
        guard let cd = open(from) else {
            return Decoded(text: String(decoding: bytes, as: UTF8.self),
                           problem: "charset \"\(label)\" is not supported here; read as UTF-8")
        }
        defer { iconv_close(cd) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var invalid = 0
        var input = bytes
        input.withUnsafeMutableBufferPointer { inBuf in
            var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
            var inLeft = inBuf.count
            var chunk = [UInt8](repeating: 0, count: 4096)
            while inLeft > 0 {
                let (result, err, produced) = chunk.withUnsafeMutableBufferPointer { outBuf -> (Int, Int32, Int) in
                    var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                    var outLeft = outBuf.count
                    let r = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                    return (r, errno, outBuf.count - outLeft)
                }
                out.append(contentsOf: chunk[0..<produced])
                guard result == -1 else { continue }
                switch err {
                case E2BIG:
                    continue
                case EILSEQ, EINVAL:
                    // An invalid (or, at the end, incomplete) sequence: one U+FFFD per skipped byte.
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    invalid += 1
                    inPtr = inPtr.map { $0 + 1 }
                    inLeft -= 1
                default:
                    invalid += inLeft
                    inLeft = 0
                }
            }
        }
        let text = String(decoding: out, as: UTF8.self)
        return Decoded(text: text, problem: invalid == 0 ? nil : "\(invalid) byte\(invalid == 1 ? "" : "s") not valid in charset \"\(label)\" replaced by U+FFFD")
    }
}
