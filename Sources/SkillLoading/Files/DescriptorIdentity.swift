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

    /// `DEV:INODE:SIZE:MTIME_NS`, for a child's command line.
    public var text: String { "\(device):\(inode):\(size):\(mtimeNs)" }

    /// Parses `text`; nil if it is not four numbers.
    public init?(text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4, let d = UInt64(parts[0]), let i = UInt64(parts[1]),
              let s = Int64(parts[2]), let m = Int64(parts[3]) else { return nil }
        self.init(device: d, inode: i, size: s, mtimeNs: m)
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
