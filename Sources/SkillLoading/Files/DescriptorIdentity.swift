import Glibc

/// Which exact file a descriptor refers to, as `fstat` says: device, inode, size and modification
/// time. What the scan recorded; the worker and the scan child compare the descriptor they were
/// handed against it before loading anything.
public struct DescriptorIdentity: Sendable, Equatable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var mtimeNs: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, mtimeNs: Int64) {
        (self.device, self.inode, self.size, self.mtimeNs) = (device, inode, size, mtimeNs)
    }

    public init(_ st: stat) {
        self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                  mtimeNs: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }

    /// `DEV:INODE:SIZE:MTIME_NS`, for a child's command line or the scan process's file messages.
    public var text: String { "\(device):\(inode):\(size):\(mtimeNs)" }

    /// Parses `text`; nil if it is not four numbers.
    public init?(text: some StringProtocol) {
        guard let n = Self.numbers(String(text), count: 4) else { return nil }
        self.init(device: n[0], inode: n[1], size: Int64(bitPattern: n[2]), mtimeNs: Int64(bitPattern: n[3]))
    }

    /// Exactly `count` colon-separated decimal numbers (a leading "-" allowed), read from the UTF-8
    /// bytes directly: the scan process reads one per file. (A `String`, not any StringProtocol: a
    /// generic loop called from another module runs unspecialized, byte by byte through witness tables.)
    static func numbers(_ text: String, count: Int) -> [UInt64]? {
        var out: [UInt64] = []
        out.reserveCapacity(count)
        var value: UInt64 = 0, digits = 0, negative = false
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(UInt64(c - UInt8(ascii: "0")))
                guard !o1, !o2 else { return nil }
                value = a
                digits += 1
            case UInt8(ascii: "-") where digits == 0 && !negative:
                negative = true
            case UInt8(ascii: ":"):
                guard digits > 0 else { return nil }
                out.append(negative ? UInt64(bitPattern: -Int64(bitPattern: value)) : value)
                (value, digits, negative) = (0, 0, false)
            default:
                return nil
            }
        }
        guard digits > 0 else { return nil }
        out.append(negative ? UInt64(bitPattern: -Int64(bitPattern: value)) : value)
        return out.count == count ? out : nil
    }

    /// True when `other` is the same build of the same file. A `device` of 0 means "not recorded"
    /// and matches any device.
    public func matches(_ other: DescriptorIdentity) -> Bool {
        inode == other.inode && size == other.size && mtimeNs == other.mtimeNs
            && (device == 0 || other.device == 0 || device == other.device)
    }

    /// What changed between `self` (recorded) and `now`, for a message.
    public func differences(to now: DescriptorIdentity) -> String {
        var d: [String] = []
        if device != 0 && now.device != 0 && device != now.device { d.append("device \(device) → \(now.device)") }
        if inode != now.inode { d.append("inode \(inode) → \(now.inode)") }
        if size != now.size { d.append("size \(size) → \(now.size) bytes") }
        if mtimeNs != now.mtimeNs { d.append("modification time changed") }
        return d.isEmpty ? "nothing" : d.joined(separator: ", ")
    }
}
