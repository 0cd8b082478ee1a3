import Foundation
import SkillKit
import XCTest
@testable import WeatherSkill
#if canImport(Glibc)
import Glibc
#endif

/// Place names in the weather skill: the choice rule, the geocoding request and answer, the cache in
/// the data folder, and the whole path through SkillKit against scripts/open-meteo-server.py (the same
/// loopback server the demo uses, answering from Plugins/WeatherSkill/Samples/v1/search.json).
final class WeatherPlaceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The sample answer for `name`, parsed as the skill parses the service's.
    func sample(_ name: String) throws -> [GeocodedPlace] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Plugins/WeatherSkill/Samples/v1/search.json"))
        let names = try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["names"] as? [String: Any])
        return try Geocoding.parse(JSONSerialization.data(withJSONObject: try XCTUnwrap(names[name])))
    }

    var work = ""

    override func setUpWithError() throws {
        work = NSTemporaryDirectory() + "weather-places-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        try? FileManager.default.removeItem(atPath: work)
    }

    // MARK: the rule

    func testPlaceQuerySplitsNameAndQualifiers() {
        XCTAssertEqual(PlaceQuery("Paris, TX"), PlaceQuery(name: "Paris", qualifiers: ["TX"]))
        XCTAssertEqual(PlaceQuery(" Springfield ,Illinois, US ,"), PlaceQuery(name: "Springfield", qualifiers: ["Illinois", "US"]))
        XCTAssertEqual(PlaceQuery("东京"), PlaceQuery(name: "东京", qualifiers: []))
    }

    func testAClearlyLargestPlaceIsTakenAndQualifiersFilter() throws {
        let paris = try sample("paris")
        func chosen(_ text: String, _ results: [GeocodedPlace]) -> String {
            switch PlaceChoice.choose(results, for: PlaceQuery(text)) {
            case .one(let p): return p.label
            case .ambiguous(let c): return "ambiguous: " + c.map(\.label).joined(separator: " | ")
            case .none(let u): return "none (\(u.count) unqualified)"
            }
        }
        // 2,138,551 vs 24,782: more than 10× — Paris, France.
        XCTAssertEqual(chosen("Paris", paris), "Paris, Île-de-France, France")
        XCTAssertEqual(chosen("Paris, TX", paris), "Paris, Texas, United States")
        XCTAssertEqual(chosen("paris, texas", paris), "Paris, Texas, United States")
        XCTAssertEqual(chosen("Paris, Ontario", paris), "Paris, Ontario, Canada")
        XCTAssertEqual(chosen("Paris, FR", paris), "Paris, Île-de-France, France")
        XCTAssertEqual(chosen("Paris, ile-de-france", paris), "Paris, Île-de-France, France", "accents and case ignored")
        XCTAssertEqual(chosen("Paris, Narnia", paris), "none (5 unqualified)")
        // The US has three Parises of similar size in the sample: no guess.
        XCTAssertEqual(chosen("Paris, USA", paris), "ambiguous: Paris, Texas, United States | Paris, Tennessee, United States | Paris, Kentucky, United States")

        let springfield = try sample("springfield")
        XCTAssertEqual(chosen("Springfield", springfield),
                       "ambiguous: Springfield, Missouri, United States | Springfield, Massachusetts, United States | Springfield, Illinois, United States | "
                       + "Springfield, Oregon, United States | Springfield, Ohio, United States")
        XCTAssertEqual(chosen("Springfield, Illinois", springfield), "Springfield, Illinois, United States")
        XCTAssertEqual(chosen("Springfield, MO", springfield), "Springfield, Missouri, United States")

        // Exact names beat fuzzy ones; an unknown population never outweighs a known one.
        XCTAssertEqual(chosen("Sao Paulo", try sample("são paulo")), "São Paulo, Brazil")
        XCTAssertEqual(chosen("Tokyo", try sample("tokyo")), "Tokyo, Japan")
        XCTAssertEqual(chosen("东京", try sample("东京")), "东京, 东京都, 日本")
        XCTAssertEqual(chosen("Nowhere", []), "none (0 unqualified)")

        // Two results 10 km apart are one place for a forecast, whatever their populations.
        let city = GeocodedPlace(name: "Twin", latitude: 50, longitude: 20, population: 1000)
        let suburb = GeocodedPlace(name: "Twin", latitude: 50.05, longitude: 20.1, population: 900)
        XCTAssertEqual(PlaceChoice.choose([suburb, city], for: PlaceQuery("Twin")), .one(city))
        // Exactly 10×: taken; just under: ambiguous.
        let far = GeocodedPlace(name: "Twin", latitude: -30, longitude: 100, population: 100)
        XCTAssertEqual(PlaceChoice.choose([city, far], for: PlaceQuery("Twin")), .one(city))
        var closer = far
        closer.population = 101
        XCTAssertEqual(PlaceChoice.choose([city, closer], for: PlaceQuery("Twin")), .ambiguous([city, closer]))
    }

    // MARK: the request and the answer

    func testSearchURLEncodesTheNameAndLanguage() {
        XCTAssertEqual(Geocoding.searchURL(baseURL: "https://geocoding-api.open-meteo.com/", name: "São Paulo", language: "pt")?.absoluteString,
                       "https://geocoding-api.open-meteo.com/v1/search?name=S%C3%A3o%20Paulo&count=10&language=pt&format=json")
        XCTAssertEqual(Geocoding.searchURL(baseURL: "http://h:1", name: "东京", language: "zh")?.absoluteString,
                       "http://h:1/v1/search?name=%E4%B8%9C%E4%BA%AC&count=10&language=zh&format=json")
        XCTAssertEqual(Geocoding.searchURL(baseURL: "http://h:1", name: "A+B&c=d", language: "en")?.absoluteString,
                       "http://h:1/v1/search?name=A%2BB%26c%3Dd&count=10&language=en&format=json")
        XCTAssertEqual(Geocoding.language(forLocale: "zh-CN"), "zh")
        XCTAssertEqual(Geocoding.language(forLocale: "pl_PL"), "pl")
        XCTAssertEqual(Geocoding.language(forLocale: ""), "en")
        XCTAssertEqual(Geocoding.language(forLocale: "x-private"), "en")
    }

    func testParseReadsResultsAndTheEmptyAndErrorAnswers() throws {
        let tokyo = try sample("tokyo")
        XCTAssertEqual(tokyo.first, GeocodedPlace(name: "Tokyo", latitude: 35.6895, longitude: 139.69171, admin1: "Tokyo", country: "Japan",
                                                  countryCode: "JP", population: 8_336_599, timezone: "Asia/Tokyo"))
        XCTAssertNil(tokyo.last?.population, "the service leaves out empty fields")
        XCTAssertEqual(try Geocoding.parse(Data(#"{"generationtime_ms":0.4}"#.utf8)), [])
        XCTAssertEqual(try Geocoding.parse(Data(#"{"results":[{"name":"Bad","latitude":91,"longitude":0},{"latitude":1,"longitude":2}]}"#.utf8)), [])
        XCTAssertThrowsError(try Geocoding.parse(Data(#"{"error":true,"reason":"Parameter 'name' is required"}"#.utf8))) { error in
            XCTAssertEqual(error as? WeatherError, .failed("the geocoding service reported an error: Parameter 'name' is required"))
        }
        XCTAssertThrowsError(try Geocoding.parse(Data(#"{"results":{}}"#.utf8))) { error in
            XCTAssertEqual(error as? WeatherError, .failed("the geocoding response's \"results\" is not an array"))
        }
    }

    // MARK: the cache

    func testCacheKeepsAnswersForThirtyDaysAndWritesAtomically() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        nonisolated(unsafe) var now = start
        let cache = PlaceCache(directory: work + "/data", now: { now })
        let key = PlaceCache.key(name: "Tokyo", language: "en")
        XCTAssertEqual(key, "en|tokyo")
        XCTAssertNil(cache.results(for: key))
        let tokyo = try sample("tokyo")
        cache.store(tokyo, for: key)
        cache.store([], for: "en|nowhere")
        XCTAssertEqual(PlaceCache(directory: work + "/data", now: { now }).results(for: key), tokyo, "read back from the file")
        XCTAssertNil(cache.results(for: "en|nowhere"), "empty answers are not kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work + "/data"), [PlaceCache.fileName], "no temporary file left")
        now = start.addingTimeInterval(29 * 86400)
        XCTAssertEqual(cache.results(for: key), tokyo)
        now = start.addingTimeInterval(30 * 86400 + 1)
        XCTAssertNil(cache.results(for: key), "expired after 30 days")
        XCTAssertEqual(cache.problems, [])
    }

    func testACorruptCacheIsMovedAsideAndReported() throws {
        let path = work + "/" + PlaceCache.fileName
        try Data("{\"version\":1,\"entries\":{\"en|tokyo\":{\"fetched\":".utf8).write(to: URL(fileURLWithPath: path))
        let cache = PlaceCache(directory: work)
        XCTAssertNil(cache.results(for: "en|tokyo"))
        XCTAssertEqual(cache.problems, ["the place cache \(path) was not readable (46 bytes, not the expected JSON); moved it aside to \(path).corrupt and started a new one"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + ".corrupt"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        cache.store(try sample("tokyo"), for: "en|tokyo")
        XCTAssertEqual(PlaceCache(directory: work).results(for: "en|tokyo")?.first?.name, "Tokyo")
        // Another version of the file is not guessed at either.
        try Data(#"{"version":2,"entries":{}}"#.utf8).write(to: URL(fileURLWithPath: path))
        let second = PlaceCache(directory: work)
        XCTAssertNil(second.results(for: "en|tokyo"))
        XCTAssertEqual(second.problems.count, 1)
    }

    // MARK: through SkillKit, against the loopback server

    final class SampleServer {
        let process = Process()
        let port: Int
        let log: String

        init(root: String, log: String) throws {
            self.log = log
            let out = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", root + "/scripts/open-meteo-server.py", "--log", log]
            process.standardOutput = out
            try process.run()
            var line = Data()
            while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
            guard let port = Int(String(decoding: line, as: UTF8.self)) else {
                throw NSError(domain: "WeatherPlaceTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "open-meteo-server.py did not start"])
            }
            self.port = port
        }

        var baseURL: String { "http://127.0.0.1:\(port)" }
        var requests: [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        var searches: [String] { requests.filter { $0.hasPrefix("/v1/search") } }

        func stop() {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
    }

    var server: SampleServer?

    func startServer() throws -> SampleServer {
        if let server { return server }
        let started = try SampleServer(root: Self.root, log: work + "/requests.log")
        server = started
        return started
    }

    func context(geocodingURL: String, baseURL: String? = nil, locale: String = "en") -> SkillContext {
        let config = #"{"baseURL":"\#(baseURL ?? geocodingURL)","geocodingURL":"\#(geocodingURL)","timeoutMs":3000,"places":{"home":{"latitude":52.2297,"longitude":21.0122}}}"#
        return SkillContext(configJSON: Array(config.utf8), dataDirectory: work + "/data", locale: locale, caller: "agent")
    }

    func execute(_ input: String, _ context: SkillContext) async throws -> [String: Any] {
        let result = try await WeatherSkill().execute(input: SkillInput(intent: "weather.forecast", json: input), context: context)
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.json)) as? [String: Any])
        object["message"] = result.message
        return object
    }

    func testTokyoIsLookedUpOnceThenServedFromTheCache() async throws {
        let server = try startServer()
        let first = try await execute(#"{"place":"Tokyo","days":2}"#, context(geocodingURL: server.baseURL))
        XCTAssertEqual(first["place"] as? String, "Tokyo, Japan")
        let location = try XCTUnwrap(first["location"] as? [String: Any])
        XCTAssertEqual(location["countryCode"] as? String, "JP")
        XCTAssertEqual(location["latitude"] as? Double, 35.6895)
        XCTAssertEqual(location["population"] as? Int, 8_336_599)
        XCTAssertNil(first["problems"])
        XCTAssertEqual(first["message"] as? String, "Tokyo, Japan: Rain likely on 2026-11-30 (80%) and 2026-12-01 (65%); bring an umbrella.")
        XCTAssertEqual(server.requests, ["/v1/search?name=Tokyo&count=10&language=en&format=json",
                                         "/v1/forecast?latitude=35.6895&longitude=139.69171&daily=weather_code,temperature_2m_max,temperature_2m_min,"
                                         + "precipitation_sum,precipitation_probability_max&timezone=auto&forecast_days=2"])
        // Second call, other spelling of the same name: the cache answers, only the forecast is fetched.
        let second = try await execute(#"{"place":"tokyo"}"#, context(geocodingURL: server.baseURL))
        XCTAssertEqual(second["place"] as? String, "Tokyo, Japan")
        XCTAssertEqual(server.searches.count, 1, "\(server.requests)")
        XCTAssertEqual(server.requests.count, 3)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/data/" + PlaceCache.fileName))
        // A configured place is never looked up.
        let home = try await execute(#"{"place":"HOME"}"#, context(geocodingURL: server.baseURL))
        XCTAssertEqual(home["place"] as? String, "home")
        XCTAssertNil(home["location"])
        XCTAssertEqual(server.searches.count, 1)
    }

    func testChineseNameAndLocale() async throws {
        let server = try startServer()
        let r = try await execute(#"{"place":"东京","days":1}"#, context(geocodingURL: server.baseURL, locale: "zh-CN"))
        XCTAssertEqual(r["place"] as? String, "东京, 东京都, 日本")
        XCTAssertEqual((r["location"] as? [String: Any])?["timezone"] as? String, "Asia/Tokyo")
        XCTAssertEqual(r["message"] as? String, "东京, 东京都, 日本：2026-11-30（80%）可能下雨，记得带伞。")
        XCTAssertEqual(server.searches, ["/v1/search?name=东京&count=10&language=zh&format=json"])
    }

    func testAmbiguousNameFailsWithTheCandidatesInTheDetails() async throws {
        let server = try startServer()
        do {
            _ = try await execute(#"{"place":"Springfield"}"#, context(geocodingURL: server.baseURL))
            XCTFail("Springfield must not be guessed")
        } catch let failure as SkillFailure {
            XCTAssertEqual(failure.error.kind, "invalid_input")
            XCTAssertEqual(failure.error.message,
                           "field \"place\": \"Springfield\" matches 5 places and none stands out: "
                           + "Springfield, Missouri, United States (37.21533, -93.29824, population 166810); "
                           + "Springfield, Massachusetts, United States (42.10148, -72.58981, population 155929); "
                           + "Springfield, Illinois, United States (39.80172, -89.64371, population 116250); "
                           + "Springfield, Oregon, United States (44.04624, -123.02203, population 62256); "
                           + "Springfield, Ohio, United States (39.92423, -83.80882, population 58662); "
                           + "add the region or country after a comma (e.g. \"Springfield, Missouri\"), or give \"latitude\"/\"longitude\"")
            let details = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(failure.detailsJSON)) as? [String: Any])
            let candidates = try XCTUnwrap(details["candidates"] as? [[String: Any]])
            XCTAssertEqual(candidates.compactMap { $0["admin1"] as? String }, ["Missouri", "Massachusetts", "Illinois", "Oregon", "Ohio"])
            XCTAssertEqual(candidates.first?["population"] as? Int, 166_810)
            XCTAssertEqual(candidates.first?["longitude"] as? Double, -93.29824)
        }
        XCTAssertEqual(server.requests.filter { $0.hasPrefix("/v1/forecast") }, [], "no forecast for a guess")
        // Qualified, it is one place, and the cached answer serves it.
        let r = try await execute(#"{"place":"Springfield, IL"}"#, context(geocodingURL: server.baseURL))
        XCTAssertEqual(r["place"] as? String, "Springfield, Illinois, United States")
        XCTAssertEqual(server.searches.count, 1)
    }

    func testNoMatchAndServerDownAreClearErrors() async throws {
        let server = try startServer()
        func failure(_ input: String, _ context: SkillContext) async -> SkillError? {
            do { _ = try await execute(input, context); return nil } catch { return error as? SkillError }
        }
        let none = await failure(#"{"place":"Atlantis"}"#, context(geocodingURL: server.baseURL))
        XCTAssertEqual(none, .invalidInput("field \"place\": no place named \"Atlantis\" was found (geocoding service \(server.baseURL)); "
                                           + "check the spelling, try the name in English or the local language, give \"latitude\"/\"longitude\", "
                                           + "or add it under the config key \"places\""))
        let wrongCountry = await failure(#"{"place":"Paris, Narnia"}"#, context(geocodingURL: server.baseURL))
        XCTAssertEqual(wrongCountry, .invalidInput("field \"place\": no place named \"Paris\" in \"Narnia\"; places of that name are in: "
                                                   + "Île-de-France, France; Texas, United States; Tennessee, United States; Ontario, Canada; Kentucky, United States; "
                                                   + "name one of these after the comma, or give \"latitude\"/\"longitude\""))
        // The geocoding service down: unavailable naming the URL, the forecast never asked.
        let port = closedPort()
        let down = await failure(#"{"place":"Lisbon"}"#, context(geocodingURL: "http://127.0.0.1:\(port)", baseURL: server.baseURL))
        guard case .unavailable(let message)? = down else { return XCTFail("expected unavailable, got \(String(describing: down))") }
        XCTAssertTrue(message.hasPrefix("GET http://127.0.0.1:\(port)/v1/search?name=Lisbon&count=10&language=en&format=json failed: "), message)
        XCTAssertEqual(server.requests.filter { $0.hasPrefix("/v1/forecast") }, [])
    }

    func testACorruptCacheFileIsReportedInTheResultAndReplaced() async throws {
        let server = try startServer()
        try FileManager.default.createDirectory(atPath: work + "/data", withIntermediateDirectories: true)
        let path = work + "/data/" + PlaceCache.fileName
        try Data([0xFF, 0x00, 0x7B]).write(to: URL(fileURLWithPath: path))
        let r = try await execute(#"{"place":"São Paulo"}"#, context(geocodingURL: server.baseURL))
        XCTAssertEqual(r["place"] as? String, "São Paulo, Brazil")
        XCTAssertEqual(r["problems"] as? [String], ["the place cache \(path) was not readable (3 bytes, not the expected JSON); moved it aside to \(path).corrupt and started a new one"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt")), Data([0xFF, 0x00, 0x7B]))
        XCTAssertNotNil(PlaceCache(directory: work + "/data").results(for: PlaceCache.key(name: "São Paulo", language: "en")))
    }

    /// A loopback port nobody listens on (bound, then closed).
    func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        close(fd)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
