import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Geocoding answers kept in the skill's data folder, so a place name costs one request a month.
///
/// The file (`places-cache.json`) is `{"version":1,"entries":{"<language>|<name folded>":
/// {"fetched":"<RFC 3339>","results":[GeocodedPlace…]}}}`. Entries older than `maxAge` are not used.
/// Writes go to a temporary file in the same folder, are fsynced, then renamed over the old file, so a
/// reader sees the old or the new file, never half of one (two writers: the last rename wins). A file
/// that cannot be read as that shape is renamed to `places-cache.json.corrupt` and reported through
/// `problems`; the lookup then goes on as if the cache were empty. Only answers with results are kept
/// (a misspelt name is asked again next time). At most `maxEntries` are kept, the oldest dropped first.
/// Nothing here throws: a cache that cannot be written costs a request next time, and is reported.
public final class PlaceCache: @unchecked Sendable {
    public static let fileName = "places-cache.json"
    public static let maxAge: TimeInterval = 30 * 24 * 3600
    public static let maxEntries = 500

    public let path: String
    /// What went wrong with the file during this lookup (moved aside, not writable), for the caller.
    public private(set) var problems: [String] = []
    private let now: () -> Date

    struct Entry: Codable {
        var fetched: Date
        var results: [GeocodedPlace]
    }

    struct File: Codable {
        var version: Int
        var entries: [String: Entry]
    }

    public init(directory: String, now: @escaping () -> Date = Date.init) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.now = now
    }

    public static func key(name: String, language: String) -> String {
        language + "|" + PlaceChoice.fold(name)
    }

    /// The cached results for `key`, if present and younger than `maxAge`.
    public func results(for key: String) -> [GeocodedPlace]? {
        guard let entry = load().entries[key], now().timeIntervalSince(entry.fetched) < Self.maxAge,
              entry.fetched <= now().addingTimeInterval(300) else { return nil }
        return entry.results
    }

    /// Stores `results` under `key` (not when empty), dropping expired and the oldest entries.
    public func store(_ results: [GeocodedPlace], for key: String) {
        guard !results.isEmpty else { return }
        var file = load()
        let current = now()
        file.entries = file.entries.filter { current.timeIntervalSince($0.value.fetched) < Self.maxAge }
        file.entries[key] = Entry(fetched: current, results: results)
        if file.entries.count > Self.maxEntries {
            for (old, _) in file.entries.sorted(by: { $0.value.fetched < $1.value.fetched }).prefix(file.entries.count - Self.maxEntries) {
                file.entries[old] = nil
            }
        }
        write(file)
    }

    // MARK: - File

    private static func coders() -> (JSONEncoder, JSONDecoder) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (encoder, decoder)
    }

    private func load() -> File {
        let empty = File(version: 1, entries: [:])
        guard let data = FileManager.default.contents(atPath: path) else { return empty }
        do {
            let file = try Self.coders().1.decode(File.self, from: data)
            guard file.version == 1 else { throw CocoaError(.fileReadCorruptFile) }
            return file
        } catch {
            let aside = path + ".corrupt"
            _ = unlink(aside)
            if rename(path, aside) == 0 {
                problems.append("the place cache \(path) was not readable (\(data.count) bytes, not the expected JSON); moved it aside to \(aside) and started a new one")
            } else if FileManager.default.fileExists(atPath: path) {
                problems.append("the place cache \(path) was not readable and could not be moved aside (\(String(cString: strerror(errno)))); places are looked up without it")
            }
            return empty
        }
    }

    private func write(_ file: File) {
        let directory = (path as NSString).deletingLastPathComponent
        func fail(_ what: String) {
            problems.append("the place cache \(path) could not be written (\(what)); the place will be looked up again next time")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return fail("cannot create \(directory): \(error.localizedDescription)")
        }
        guard let data = try? Self.coders().0.encode(file) else { return fail("cannot encode the entries") }
        let temporary = directory + "/.\(Self.fileName).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return fail("open \(temporary): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        let synced = written && fsync(fd) == 0
        let code = errno
        close(fd)
        guard synced else {
            unlink(temporary)
            return fail("write \(temporary): \(String(cString: strerror(code)))")
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            return fail("rename to \(path): \(String(cString: strerror(code)))")
        }
    }
}
