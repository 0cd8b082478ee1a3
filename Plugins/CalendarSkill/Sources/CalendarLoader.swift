import Foundation

/// This skill's config section: `{"calendars": ["/path/file.ics", "/path/dir"]}` (a single string is
/// accepted too). A directory stands for every `*.ics` file directly in it. Absent: the data directory.
public struct CalendarConfig: Decodable, Sendable, Equatable {
    public var calendars: [String]?

    public init(calendars: [String]? = nil) {
        self.calendars = calendars
    }

    enum CodingKeys: String, CodingKey { case calendars }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let one = try? container.decode(String.self, forKey: .calendars) {
            calendars = [one]
        } else {
            calendars = try container.decodeIfPresent([String].self, forKey: .calendars)
        }
    }
}

/// Why the calendars cannot be served. The message names the path and what to change.
public enum CalendarSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(path: String, configured: Bool)
    case unreadable(path: String, reason: String)
    case noCalendars(paths: [String], configured: Bool)

    public var description: String {
        let key = "config key \"\(CalendarLoader.configKey)\""
        switch self {
        case .missing(let path, true):
            return "Calendar path \"\(path)\" does not exist; fix or remove it in this skill's \(key)."
        case .missing(let path, false):
            return "No calendars: the data directory \"\(path)\" does not exist; put .ics files there or list calendar files and directories in this skill's \(key)."
        case .unreadable(let path, let reason):
            return "Cannot read calendar \"\(path)\": \(reason); fix its permissions or change this skill's \(key)."
        case .noCalendars(let paths, true):
            return "No .ics files in \(paths.map { "\"\($0)\"" }.joined(separator: ", ")); add calendars there or change this skill's \(key)."
        case .noCalendars(let paths, false):
            return "No calendars: no .ics files in the data directory \"\(paths.first ?? "")\"; put .ics files there or list calendar files and directories in this skill's \(key)."
        }
    }
}

/// Finds and reads the configured calendar files.
public enum CalendarLoader {
    public static let configKey = "calendars"

    /// The `.ics` files to read, in a stable order. Throws when a configured path is missing or nothing
    /// at all is found.
    public static func calendarFiles(config: CalendarConfig, dataDirectory: String) throws(CalendarSourceError) -> [String] {
        let configured = config.calendars.map { !$0.isEmpty } ?? false
        let roots = configured ? config.calendars!.map(expandTilde) : [dataDirectory]
        let fm = FileManager.default
        var files: [String] = []
        for root in roots {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: root, isDirectory: &isDirectory) else {
                throw .missing(path: root, configured: configured)
            }
            if isDirectory.boolValue {
                let entries: [String]
                do {
                    entries = try fm.contentsOfDirectory(atPath: root)
                } catch {
                    throw .unreadable(path: root, reason: reason(of: error))
                }
                let base = root.hasSuffix("/") ? String(root.dropLast()) : root
                for entry in entries.sorted() where entry.lowercased().hasSuffix(".ics") && !entry.hasPrefix(".") {
                    let path = base + "/" + entry
                    var entryIsDirectory: ObjCBool = false
                    if fm.fileExists(atPath: path, isDirectory: &entryIsDirectory), !entryIsDirectory.boolValue {
                        files.append(path)
                    }
                }
            } else {
                files.append(root)
            }
        }
        if files.isEmpty { throw .noCalendars(paths: roots, configured: configured) }
        var seen: Set<String> = []
        return files.filter { seen.insert($0).inserted }
    }

    /// Reads and parses each file. A file that cannot be read makes the whole load fail (so the person
    /// learns about it); problems inside a file only produce diagnostics.
    public static func load(files: [String]) throws(CalendarSourceError) -> [ICSCalendar] {
        var calendars: [ICSCalendar] = []
        for path in files {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw .unreadable(path: path, reason: reason(of: error))
            }
            calendars.append(ICSParser.parse(bytes: [UInt8](data), path: path))
        }
        return calendars
    }

    static func expandTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] else { return path }
        return home + path.dropFirst()
    }

    static func reason(of error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let message = String(validatingCString: strerror(Int32(underlying.code))) {
            return message.lowercased()
        }
        if ns.domain == NSPOSIXErrorDomain, let message = String(validatingCString: strerror(Int32(ns.code))) {
            return message.lowercased()
        }
        return ns.localizedDescription
    }
}
