import Foundation
import XCTest

/// `weather.forecast` with place names through the real host and a sandboxed worker: the bundled
/// libWeatherSkill.so, the forecast and the geocoding API both served by scripts/open-meteo-server.py
/// on loopback (the demo's server), the place cache in the skill's data folder under the test's home.
final class WeatherPlaceNameTests: EndToEndTestCase {
    var server: Process?
    var requestLog = ""
    var baseURL = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        try addBundledSkill("libWeatherSkill.so")
        requestLog = work + "/requests.log"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", E2E.packageRoot + "/scripts/open-meteo-server.py", "--log", requestLog]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        server = p
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let port = try XCTUnwrap(Int(String(decoding: line, as: UTF8.self)), "open-meteo-server.py did not start")
        baseURL = "http://127.0.0.1:\(port)"
        try configure(geocodingURL: baseURL)
    }

    override func tearDownWithError() throws {
        if let server, server.isRunning {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        try super.tearDownWithError()
    }

    /// The owner's grants: the two configured URLs' ports, nothing else.
    func configure(geocodingURL: String) throws {
        try writeConfig("""
        {"skills":{"dev.skillhost.weather":{"baseURL":"\(baseURL)","geocodingURL":"\(geocodingURL)","timeoutMs":3000,
                                            "places":{"home":{"latitude":52.23,"longitude":21.0}}}},
         "grants":{"dev.skillhost.weather":{"network":["{config:baseURL}","{config:geocodingURL}"]}}}
        """)
    }

    var requests: [String] { ((try? String(contentsOfFile: requestLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
    var searches: [String] { requests.filter { $0.hasPrefix("/v1/search") } }
    var cacheFile: String { home + "/.local/share/skillhost/dev.skillhost.weather/places-cache.json" }

    func forecast(_ input: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(try assertInvokeOK(invoke("weather.forecast", input), skill: "dev.skillhost.weather", file: file, line: line) as? [String: Any],
                      file: file, line: line)
    }

    func testTokyoInASandboxedWorkerThenFromTheCache() throws {
        let list = try skillhost("list", "--json").jsonArray()
        let skill = try XCTUnwrap(list.first("id", "dev.skillhost.weather"))
        XCTAssertEqual(skill["isolation"] as? String, "process")
        XCTAssertEqual(skill["sandbox"] as? String, "full", "\(skill)")
        let requested = ((skill["permissions"] as? [String: Any])?["requested"] as? [String: Any])?["network"] as? [String]
        XCTAssertEqual(requested, ["{config:baseURL}", "{config:geocodingURL}", "api.open-meteo.com:443", "geocoding-api.open-meteo.com:443"])

        let r = try forecast(#"{"place":"Tokyo","days":2}"#)
        XCTAssertEqual(r["place"] as? String, "Tokyo, Japan")
        XCTAssertEqual((r["location"] as? [String: Any])?["latitude"] as? Double, 35.6895)
        XCTAssertEqual(r["longitude"] as? Double, 139.69171, "the forecast was asked for Tokyo's coordinates")
        XCTAssertEqual((r["days"] as? [Any])?.count, 2)
        XCTAssertEqual(searches, ["/v1/search?name=Tokyo&count=10&language=en&format=json"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFile), "the cache is in the skill's data folder")

        // A second skillhost process, so a second worker: the cache file answers, the server sees one search.
        let again = try forecast(#"{"place":"TOKYO"}"#)
        XCTAssertEqual(again["place"] as? String, "Tokyo, Japan")
        XCTAssertEqual(searches.count, 1, "\(requests)")
        XCTAssertEqual(requests.filter { $0.hasPrefix("/v1/forecast") }.count, 2)

        // The human surface names the place in its answer.
        let human = skillhost("invoke", "weather.forecast", "--input", #"{"place":"Tokyo","days":1}"#)
        XCTAssertEqual(human.exitCode, 0, human.summary)
        XCTAssertTrue(human.stdout.contains("Tokyo, Japan: Rain likely on 2026-11-30 (80%)"), human.summary)
    }

    func testChineseNameAndCorruptCache() throws {
        try FileManager.default.createDirectory(atPath: (cacheFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: cacheFile))
        let r = try forecast(#"{"place":"东京","days":1}"#)
        XCTAssertEqual(r["place"] as? String, "东京, 东京都, 日本")
        XCTAssertEqual((r["location"] as? [String: Any])?["countryCode"] as? String, "JP")
        let problems = r["problems"] as? [String] ?? []
        XCTAssertEqual(problems.count, 1, "\(r)")
        XCTAssertTrue(problems.first?.contains("moved it aside to \(cacheFile).corrupt") == true, "\(problems)")
        XCTAssertEqual(try String(contentsOfFile: cacheFile + ".corrupt", encoding: .utf8), "not json")
        XCTAssertEqual(searches, ["/v1/search?name=东京&count=10&language=en&format=json"])
        // The new cache works: no second search, no problem reported.
        let again = try forecast(#"{"place":"东京","days":1}"#)
        XCTAssertNil(again["problems"])
        XCTAssertEqual(searches.count, 1)
    }

    func testAmbiguousNameIsInvalidInputWithCandidates() throws {
        let e = try assertInvokeError(invoke("weather.forecast", #"{"place":"Springfield"}"#), kind: "invalid_input", exitCode: 10,
                                      messageContains: ["\"Springfield\" matches 5 places", "Springfield, Missouri, United States (37.21533, -93.29824, population 166810)",
                                                        "add the region or country after a comma"])
        let candidates = try XCTUnwrap((e["details"] as? [String: Any])?["candidates"] as? [[String: Any]], "\(e)")
        XCTAssertEqual(candidates.compactMap { $0["admin1"] as? String }, ["Missouri", "Massachusetts", "Illinois", "Oregon", "Ohio"])
        XCTAssertEqual(candidates.map { $0["countryCode"] as? String }, Array(repeating: "US", count: 5))
        XCTAssertEqual(requests.filter { $0.hasPrefix("/v1/forecast") }, [])

        let paris = try forecast(#"{"place":"Paris, TX"}"#)
        XCTAssertEqual(paris["place"] as? String, "Paris, Texas, United States")
        let france = try forecast(#"{"place":"Paris"}"#)
        XCTAssertEqual(france["place"] as? String, "Paris, Île-de-France, France")
        XCTAssertEqual(searches.count, 2, "Springfield and Paris, each once: \(searches)")
        let home = try forecast(#"{"place":"home"}"#)
        XCTAssertEqual(home["place"] as? String, "home", "a configured place wins and is not looked up")
        XCTAssertEqual(searches.count, 2)
    }

    func testNoMatchAndGeocodingServerDown() throws {
        try assertInvokeError(invoke("weather.forecast", #"{"place":"Atlantis"}"#), kind: "invalid_input", exitCode: 10,
                              messageContains: ["no place named \"Atlantis\" was found", "give \"latitude\"/\"longitude\""])
        // A port nobody listens on (the server's own, once it is gone): unavailable naming the URL.
        kill(server!.processIdentifier, SIGKILL)
        server!.waitUntilExit()
        try assertInvokeError(invoke("weather.forecast", #"{"place":"Lisbon"}"#), kind: "unavailable", exitCode: 12,
                              messageContains: ["GET \(baseURL)/v1/search?name=Lisbon&count=10&language=en&format=json failed"])
    }
}
