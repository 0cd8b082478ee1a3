internal import SkillABI

/// Severity of a line written with `SkillContext.log(_:_:)`; maps to `SKH_LOG_*`.
public enum LogLevel: Int32, Sendable, Comparable {
    case debug = 0
    case info = 1
    case warning = 2
    case error = 3

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    /// The `SKH_LOG_*` value.
    var abiValue: Int32 {
        switch self {
        case .debug: Int32(SKH_LOG_DEBUG)
        case .info: Int32(SKH_LOG_INFO)
        case .warning: Int32(SKH_LOG_WARNING)
        case .error: Int32(SKH_LOG_ERROR)
        }
    }
}
