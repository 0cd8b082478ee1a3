import Foundation
import SkillABI
import SkillKit
import XCTest
@testable import WeatherSkill
#if canImport(Glibc)
import Glibc
#endif

final class WeatherTests: XCTestCase {
    static let samplePath: String = {
        // Tests/PluginTests/WeatherTests.swift → Plugins/WeatherSkill/Samples/v1/forecast
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Plugins/WeatherSkill/Samples/v1/forecast").path
    }()

    func sample() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Self.samplePath))
    }

    // MARK: input and config

    func testResolveCoordinatesPlacesAndDays() throws {
        let places = ["home": WeatherPlace(latitude: 52.23, longitude: 21.01), "Office": WeatherPlace(latitude: 50.06, longitude: 19.94)]
        XCTAssertEqual(try ForecastRequest.resolve(WeatherInput(latitude: 31.23, longitude: 121.47), places: places),
                       .ready(ForecastRequest(latitude: 31.23, longitude: 121.47, place: nil, days: 3)))
        XCTAssertEqual(try ForecastRequest.resolve(WeatherInput(place: "home", days: 16), places: places),
                       .ready(ForecastRequest(latitude: 52.23, longitude: 21.01, place: "home", days: 16)))
        XCTAssertEqual(try ForecastRequest.resolve(WeatherInput(place: "office"), places: places),
                       .ready(ForecastRequest(latitude: 50.06, longitude: 19.94, place: "Office", days: 3)))
        // Any other name is looked up (configured names win, so "home" is never geocoded).
        XCTAssertEqual(try ForecastRequest.resolve(WeatherInput(place: " Tokyo ", days: 2), places: places), .lookUp(place: "Tokyo", days: 2))
        XCTAssertEqual(try ForecastRequest.resolve(WeatherInput(place: "home"), places: [:]), .lookUp(place: "home", days: 3))

        func message(_ input: WeatherInput, _ places: [String: WeatherPlace] = places) -> String? {
            do {
                _ = try ForecastRequest.resolve(input, places: places)
                return nil
            } catch {
                guard case .invalidInput(let m) = error else { return "wrong kind: \(error)" }
                return m
            }
        }
        XCTAssertEqual(message(WeatherInput()), "give \"latitude\" and \"longitude\", or a \"place\": a place name such as \"Tokyo\" or \"Paris, TX\" (configured places: Office, home)")
        XCTAssertEqual(message(WeatherInput(), [:]), "give \"latitude\" and \"longitude\", or a \"place\": a place name such as \"Tokyo\" or \"Paris, TX\"")
        XCTAssertEqual(message(WeatherInput(place: "x, France")), "field \"place\" must name a place (at least 2 characters before any comma), found \"x, France\"")
        XCTAssertEqual(message(WeatherInput(latitude: 10)), "\"latitude\" and \"longitude\" must be given together (missing \"longitude\")")
        XCTAssertEqual(message(WeatherInput(latitude: 91, longitude: 0)), "field \"latitude\" must be between -90 and 90, found 91.0")
        XCTAssertEqual(message(WeatherInput(latitude: 0, longitude: -180.5)), "field \"longitude\" must be between -180 and 180, found -180.5")
        XCTAssertEqual(message(WeatherInput(latitude: 0, longitude: 0, place: "home")), "give either \"latitude\"/\"longitude\" or \"place\", not both")
        XCTAssertEqual(message(WeatherInput(latitude: 0, longitude: 0, days: 0)), "field \"days\" must be between 1 and 16, found 0")
        XCTAssertEqual(message(WeatherInput(latitude: 0, longitude: 0, days: 17)), "field \"days\" must be between 1 and 16, found 17")
    }

    func testConfigDefaultsAndValidation() throws {
        let empty = try JSONDecoder().decode(WeatherConfig.self, from: Data("{}".utf8))
        XCTAssertEqual(empty, WeatherConfig(baseURL: "https://api.open-meteo.com", geocodingURL: "https://geocoding-api.open-meteo.com", places: [:], timeoutMs: 5000))
        let full = try JSONDecoder().decode(WeatherConfig.self, from: Data(#"{"baseURL":"http://127.0.0.1:8000/","geocodingURL":"http://127.0.0.1:8001/","timeoutMs":800,"places":{"home":{"latitude":1.5,"longitude":2}}}"#.utf8))
        XCTAssertEqual(try full.validated(), WeatherConfig(baseURL: "http://127.0.0.1:8000", geocodingURL: "http://127.0.0.1:8001", places: ["home": WeatherPlace(latitude: 1.5, longitude: 2)], timeoutMs: 800))
        XCTAssertThrowsError(try WeatherConfig(geocodingURL: "geo.example").validated()) { error in
            XCTAssertEqual(error as? WeatherError, .unavailable("invalid configuration: \"geocodingURL\" must be an http(s) URL such as https://geocoding-api.open-meteo.com, found \"geo.example\""))
        }
        XCTAssertThrowsError(try WeatherConfig(baseURL: "ftp://x").validated()) { error in
            XCTAssertEqual(error as? WeatherError, .unavailable("invalid configuration: \"baseURL\" must be an http(s) URL such as https://api.open-meteo.com, found \"ftp://x\""))
        }
        XCTAssertThrowsError(try WeatherConfig(timeoutMs: 0).validated())
        XCTAssertThrowsError(try WeatherConfig(places: ["bad": WeatherPlace(latitude: 100, longitude: 0)]).validated()) { error in
            XCTAssertEqual(error as? WeatherError, .unavailable("invalid configuration: \"places.bad\" has coordinates out of range (100.0, 0.0)"))
        }
    }

    func testForecastURLUsesTheRealOpenMeteoParameters() {
        let url = OpenMeteo.forecastURL(baseURL: "https://api.open-meteo.com/", request: ForecastRequest(latitude: 52.2297, longitude: -0.00001, days: 5))
        XCTAssertEqual(url?.absoluteString, "https://api.open-meteo.com/v1/forecast?latitude=52.2297&longitude=-0.00001"
                       + "&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max"
                       + "&timezone=auto&forecast_days=5")
        XCTAssertEqual(OpenMeteo.coordinate(21), "21")
        XCTAssertEqual(OpenMeteo.coordinate(-0.0000001), "0")
        XCTAssertEqual(OpenMeteo.probeURL(baseURL: "http://h:1")?.absoluteString,
                       "http://h:1/v1/forecast?latitude=0&longitude=0&daily=weather_code&timezone=GMT&forecast_days=1")
    }

    // MARK: parsing

    func testParsesTheSampleResponse() throws {
        let forecast = try OpenMeteo.parse(try sample())
        XCTAssertEqual(forecast.latitude, 52.23)
        XCTAssertEqual(forecast.longitude, 21.0)
        XCTAssertEqual(forecast.timezone, "Europe/Warsaw")
        XCTAssertEqual(forecast.temperatureUnit, "°C")
        XCTAssertEqual(forecast.days.count, 7)
        XCTAssertEqual(forecast.days[0], OpenMeteo.Day(date: "2026-11-30", weatherCode: 63, tempMax: 6.4, tempMin: 2.1,
                                                      precipitationSum: 7.8, precipitationProbability: 80))
        XCTAssertEqual(forecast.days[3].weatherCode, 71)

        let (output, message) = WeatherReport.build(forecast, request: ForecastRequest(latitude: 52.23, longitude: 21, place: "home", days: 3))
        XCTAssertEqual(output.days.map(\.date), ["2026-11-30", "2026-12-01", "2026-12-02"])
        XCTAssertEqual(output.days.map(\.description), ["moderate rain", "slight rain", "overcast"])
        XCTAssertTrue(output.rainExpected)
        XCTAssertEqual(output.place, "home")
        XCTAssertEqual(message, "Rain likely on 2026-11-30 (80%) and 2026-12-01 (65%); bring an umbrella.")

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        XCTAssertEqual(String(decoding: try encoder.encode(output.days[2]), as: UTF8.self),
                       #"{"date":"2026-12-02","description":"overcast","precipitationProbability":15,"precipitationSum":0,"tempMax":3.8,"tempMin":-0.6,"weatherCode":3}"#)
    }

    func testDryAndSnowyMessagesAndNulls() throws {
        let body = #"""
        {"latitude":1,"longitude":2,"timezone":"GMT","daily_units":{"temperature_2m_max":"°F"},
         "daily":{"time":["2026-12-03","2026-12-04"],"weather_code":[73,null],"temperature_2m_max":[30.5,null],
                  "temperature_2m_min":[20,21.25],"precipitation_sum":[4.0,null],"precipitation_probability_max":[90,null]}}
        """#
        let forecast = try OpenMeteo.parse(Data(body.utf8))
        XCTAssertEqual(forecast.days[1], OpenMeteo.Day(date: "2026-12-04", weatherCode: nil, tempMax: nil, tempMin: 21.25,
                                                      precipitationSum: nil, precipitationProbability: nil))
        let (output, message) = WeatherReport.build(forecast, request: ForecastRequest(latitude: 1, longitude: 2, days: 16))
        XCTAssertFalse(output.rainExpected)   // heavy snow is not rain
        XCTAssertEqual(output.days.map(\.description), ["moderate snowfall", "unknown"])
        XCTAssertEqual(message, "No rain expected from 2026-12-03 to 2026-12-04, but snow on 2026-12-03; temperatures 20 to 30.5 °F.")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        XCTAssertEqual(String(decoding: try encoder.encode(output.days[1]), as: UTF8.self),
                       #"{"date":"2026-12-04","description":"unknown","precipitationProbability":null,"precipitationSum":null,"tempMax":null,"tempMin":21.25,"weatherCode":null}"#)
    }

    func testRainRule() {
        func day(_ code: Int?, _ sum: Double?, _ p: Double?) -> OpenMeteo.Day {
            OpenMeteo.Day(date: "d", weatherCode: code, tempMax: nil, tempMin: nil, precipitationSum: sum, precipitationProbability: p)
        }
        XCTAssertTrue(WeatherReport.isRainy(day(3, 0, 50)))
        XCTAssertFalse(WeatherReport.isRainy(day(3, 0.9, 49)))
        XCTAssertTrue(WeatherReport.isRainy(day(2, 1.0, 10)))
        XCTAssertTrue(WeatherReport.isRainy(day(51, 0.2, 30)))
        XCTAssertFalse(WeatherReport.isRainy(day(51, 0.2, 29)))
        XCTAssertTrue(WeatherReport.isRainy(day(95, nil, nil)))
        XCTAssertFalse(WeatherReport.isRainy(day(75, 12, 100)))
    }

    func testBrokenResponsesNameWhatIsWrong() {
        func failure(_ body: String) -> String? {
            do {
                _ = try OpenMeteo.parse(Data(body.utf8))
                return nil
            } catch {
                guard case .failed(let m) = error else { return "wrong kind: \(error)" }
                return m
            }
        }
        XCTAssertEqual(failure(#"{"latitude":1,"longitude":2"#), #"the forecast response is not valid JSON (27 bytes): "{"latitude":1,"longitude":2""#)
        XCTAssertEqual(failure("[1,2]"), "the forecast response is not a JSON object")
        XCTAssertEqual(failure(#"{"error":true,"reason":"Latitude must be in range of -90 to 90°."}"#),
                       "the forecast service reported an error: Latitude must be in range of -90 to 90°.")
        XCTAssertEqual(failure(#"{"latitude":1,"longitude":2,"timezone":"GMT"}"#), "the forecast response has no \"daily\" object")
        XCTAssertEqual(failure(#"{"latitude":1,"longitude":2,"daily":{}}"#), "the forecast response has no \"daily.time\" array")
        XCTAssertEqual(failure(#"{"latitude":1,"longitude":2,"daily":{"time":["a","b"],"weather_code":[1,2]}}"#),
                       "the forecast response has no \"daily.temperature_2m_max\" array")
        XCTAssertEqual(failure(#"{"latitude":1,"longitude":2,"daily":{"time":["a","b"],"weather_code":[1]}}"#),
                       "\"daily.weather_code\" has 1 values but \"daily.time\" has 2")
        XCTAssertEqual(failure(#"{"latitude":1,"longitude":2,"daily":{"time":["a"],"weather_code":[1],"temperature_2m_max":["hot"]}}"#),
                       "\"daily.temperature_2m_max[0]\" is not a number")
        XCTAssertEqual(failure(#"{"daily":{}}"#), "the forecast response has no numeric \"latitude\"/\"longitude\"")
        // The pre-2023 "weathercode" spelling is accepted.
        XCTAssertNoThrow(try OpenMeteo.parse(Data(#"{"latitude":1,"longitude":2,"daily":{"time":["a"],"weathercode":[0],"temperature_2m_max":[1],"temperature_2m_min":[0],"precipitation_sum":[0],"precipitation_probability_max":[0]}}"#.utf8)))
    }

    // MARK: HTTP against a real loopback server

    /// A python3 http.server on a free loopback port that checks the query parameters like Open-Meteo
    /// would (400 with a reason otherwise) and serves the sample. Extra paths: /fail (500), /slow (3 s),
    /// /broken (truncated JSON). Every request path is appended to `log`.
    final class LoopbackServer {
        let process = Process()
        let port: Int
        let log: String

        static let script = #"""
        import json, sys, time, urllib.parse
        from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
        sample = open(sys.argv[1], 'rb').read()
        log_path = sys.argv[2]
        DAILY = 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max'
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass
            def reply(self, status, body):
                self.send_response(status)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                with open(log_path, 'a') as f:
                    f.write(self.path + '\n')
                url = urllib.parse.urlsplit(self.path)
                params = urllib.parse.parse_qs(url.query, keep_blank_values=True)
                if url.path == '/fail/v1/forecast':
                    return self.reply(500, b'{"error":true,"reason":"upstream exploded"}')
                if url.path == '/slow/v1/forecast':
                    time.sleep(3)
                    return self.reply(200, sample)
                if url.path == '/broken/v1/forecast':
                    return self.reply(200, sample[:100])
                if url.path != '/v1/forecast':
                    return self.reply(404, b'{"error":true,"reason":"no such path"}')
                one = {k: v[0] for k, v in params.items() if len(v) == 1}
                if one == {'latitude': '0', 'longitude': '0', 'daily': 'weather_code', 'timezone': 'GMT', 'forecast_days': '1'}:
                    return self.reply(200, sample)
                problems = []
                if sorted(params) != sorted(['latitude', 'longitude', 'daily', 'timezone', 'forecast_days']) or len(one) != len(params):
                    problems.append('unexpected parameters %s' % sorted(params))
                if one.get('daily') != DAILY:
                    problems.append('daily=%r' % one.get('daily'))
                if one.get('timezone') != 'auto':
                    problems.append('timezone=%r' % one.get('timezone'))
                try:
                    lat, lon, days = float(one['latitude']), float(one['longitude']), int(one['forecast_days'])
                    if not (-90 <= lat <= 90 and -180 <= lon <= 180 and 1 <= days <= 16):
                        problems.append('out of range')
                except (KeyError, ValueError):
                    problems.append('bad numbers')
                if problems:
                    return self.reply(400, json.dumps({'error': True, 'reason': '; '.join(problems)}).encode())
                self.reply(200, sample)
        server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

        init(sample: String) throws {
            log = FileManager.default.temporaryDirectory.appendingPathComponent("weather-\(UUID().uuidString).log").path
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let stdout = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", Self.script, sample, log]
            process.standardOutput = stdout
            try process.run()
            // The first line is the port.
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                process.terminate()
                throw NSError(domain: "WeatherTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "loopback server did not start"])
            }
            self.port = port
        }

        var baseURL: String { "http://127.0.0.1:\(port)" }

        var requests: [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        func stop() {
            // SIGKILL, not terminate(): a child spawned from a Swift concurrency thread inherits that
            // thread's signal mask, in which SIGTERM is blocked, so terminate() would leave it running.
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: log)
        }
    }

    private var runningServer: LoopbackServer?

    /// Started on first use, so the tests that need no network do not pay for a python start.
    func startServer() throws -> LoopbackServer {
        if let runningServer { return runningServer }
        let started = try LoopbackServer(sample: Self.samplePath)
        runningServer = started
        return started
    }

    override func tearDown() {
        runningServer?.stop()
        runningServer = nil
    }

    func service(_ path: String = "", timeoutMs: Int = 5000) throws -> WeatherService {
        try WeatherService(config: WeatherConfig(baseURL: startServer().baseURL + path,
                                                 places: ["home": WeatherPlace(latitude: 52.2297, longitude: 21.0122)],
                                                 timeoutMs: timeoutMs))
    }

    /// A loopback port nobody listens on (bound, then closed).
    func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        close(fd)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The WeatherError `body` throws (nil if it succeeds; any other error fails the test).
    func expectError(_ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line) async -> WeatherError? {
        do {
            try await body()
            return nil
        } catch let error as WeatherError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    func testForecastFetchSendsTheRightQueryAndParsesTheAnswer() async throws {
        let server = try startServer()
        let (output, message) = try await service().forecast(WeatherInput(place: "home"))
        XCTAssertEqual(server.requests, ["/v1/forecast?latitude=52.2297&longitude=21.0122&daily=weather_code,temperature_2m_max,"
                                         + "temperature_2m_min,precipitation_sum,precipitation_probability_max&timezone=auto&forecast_days=3"])
        XCTAssertEqual(output.place, "home")
        XCTAssertEqual(output.timezone, "Europe/Warsaw")
        XCTAssertEqual(output.days.count, 3)
        XCTAssertEqual(output.days.first?.precipitationProbability, 80)
        XCTAssertTrue(output.rainExpected)
        XCTAssertEqual(message, "Rain likely on 2026-11-30 (80%) and 2026-12-01 (65%); bring an umbrella.")

        let week = try await service().forecast(WeatherInput(latitude: -33.8688, longitude: 151.2093, days: 7))
        XCTAssertEqual(week.output.days.count, 7)
        XCTAssertNil(week.output.place)
        XCTAssertEqual(server.requests.last?.hasSuffix("latitude=-33.8688&longitude=151.2093&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max&timezone=auto&forecast_days=7"), true)
    }

    func testHTTP500IsUnavailableNamingTheURLAndReason() async throws {
        let server = try startServer()
        let service = try service("/fail")
        let error = await expectError { _ = try await service.forecast(ForecastRequest(latitude: 1, longitude: 2, days: 1)) }
        let url = server.baseURL + "/fail/v1/forecast?latitude=1&longitude=2&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max&timezone=auto&forecast_days=1"
        XCTAssertEqual(error, .unavailable("GET \(url) returned HTTP 500: upstream exploded"))
    }

    func testTruncatedBodyIsFailed() async throws {
        let server = try startServer()
        let service = try service("/broken")
        let error = await expectError { _ = try await service.forecast(ForecastRequest(latitude: 1, longitude: 2)) }
        guard case .failed(let message)? = error else { return XCTFail("expected .failed, got \(String(describing: error))") }
        XCTAssertTrue(message.hasPrefix("the forecast response is not valid JSON (100 bytes)"), message)
        XCTAssertTrue(message.hasSuffix("(GET \(server.baseURL)/broken/v1/forecast?latitude=1&longitude=2&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max&timezone=auto&forecast_days=3)"), message)
    }

    func testConnectionRefusedIsUnavailableNamingTheURL() async throws {
        let port = closedPort()
        let service = try WeatherService(config: WeatherConfig(baseURL: "http://127.0.0.1:\(port)", timeoutMs: 3000))
        let started = Date()
        let error = await expectError { _ = try await service.forecast(ForecastRequest(latitude: 1, longitude: 2)) }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
        guard case .unavailable(let message)? = error else { return XCTFail("expected .unavailable, got \(String(describing: error))") }
        XCTAssertTrue(message.hasPrefix("GET http://127.0.0.1:\(port)/v1/forecast?latitude=1&longitude=2&"), message)
        XCTAssertTrue(message.contains(" failed: "), message)
    }

    func testSlowServerTimesOutAtTheConfiguredDeadline() async throws {
        let service = try service("/slow", timeoutMs: 400)
        let started = Date()
        let error = await expectError { _ = try await service.forecast(ForecastRequest(latitude: 1, longitude: 2)) }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.35)
        XCTAssertLessThan(elapsed, 2.0)
        guard case .unavailable(let message)? = error else { return XCTFail("expected .unavailable, got \(String(describing: error))") }
        XCTAssertTrue(message.hasSuffix(" timed out after 400 ms"), message)
    }

    func testTheCallersRemainingTimeShortensTheRequest() async throws {
        // The host will wait 450 ms more (time_left_ms): the request gets 350 ms, not the configured 5 s.
        let service = try service("/slow", timeoutMs: 5000)
        let error = await expectError { _ = try await service.forecast(ForecastRequest(latitude: 1, longitude: 2), budgetMs: 450) }
        guard case .unavailable(let message)? = error else { return XCTFail("expected .unavailable, got \(String(describing: error))") }
        XCTAssertTrue(message.hasSuffix(" timed out after 350 ms"), message)
    }

    func testCancellationStopsTheRequest() async throws {
        let service = try service("/slow")
        let started = Date()
        let error = await expectError {
            _ = try await service.forecast(ForecastRequest(latitude: 1, longitude: 2), isCancelled: { Date().timeIntervalSince(started) > 0.2 })
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.0)
        guard case .cancelled? = error else { return XCTFail("expected .cancelled, got \(String(describing: error))") }
    }

    func testHealthProbe() async throws {
        let server = try startServer()
        let ok = try await service().probe()
        XCTAssertEqual(ok.status, .ok)
        XCTAssertTrue(ok.message.hasPrefix("\(server.baseURL) answered in "), ok.message)
        XCTAssertEqual(server.requests, ["/v1/forecast?latitude=0&longitude=0&daily=weather_code&timezone=GMT&forecast_days=1"])

        let failing = try await service("/fail").probe()
        XCTAssertEqual(failing.status, .unavailable)
        XCTAssertTrue(failing.message.hasSuffix("returned HTTP 500: upstream exploded"), failing.message)

        let timedOut = try await service("/slow", timeoutMs: 300).probe()
        XCTAssertEqual(timedOut.status, .unavailable)
        XCTAssertTrue(timedOut.message.hasSuffix("timed out after 300 ms"), timedOut.message)

        let slow = try await service("/slow", timeoutMs: 10_000).probe()   // 3 s answer: over the 2 s bar
        XCTAssertEqual(slow.status, .degraded)
        XCTAssertGreaterThan(slow.latencyMs, 2900)
        XCTAssertTrue(slow.message.hasPrefix("\(server.baseURL)/slow is slow: answered in "), slow.message)

        let refused = try await WeatherService(config: WeatherConfig(baseURL: "http://127.0.0.1:\(closedPort())")).probe()
        XCTAssertEqual(refused.status, .unavailable)
        XCTAssertTrue(refused.message.contains(" failed: "), refused.message)
    }

    // MARK: the SkillKit layer

    /// The geocoding service is a closed loopback port: these tests never reach the real one.
    func skillContext(baseURL: String, timeoutMs: Int = 3000) -> SkillContext {
        let config = #"{"baseURL":"\#(baseURL)","geocodingURL":"http://127.0.0.1:\#(closedPort())","timeoutMs":\#(timeoutMs),"places":{"home":{"latitude":52.2297,"longitude":21.0122}}}"#
        return SkillContext(configJSON: Array(config.utf8), dataDirectory: "/nonexistent", caller: "agent")
    }

    func skillError(_ input: String, baseURL: String) async -> SkillError? {
        do {
            _ = try await WeatherSkill().execute(input: SkillInput(intent: "weather.forecast", json: input), context: skillContext(baseURL: baseURL))
            return nil
        } catch {
            return error as? SkillError ?? .failed("not a SkillError: \(error)")
        }
    }

    func testSkillForecastThroughSkillKit() async throws {
        let server = try startServer()
        let result = try await WeatherSkill().execute(input: SkillInput(intent: "weather.forecast", json: #"{"place":"home","days":2}"#),
                                                      context: skillContext(baseURL: server.baseURL))
        XCTAssertEqual(result.message, "Rain likely on 2026-11-30 (80%) and 2026-12-01 (65%); bring an umbrella.")
        XCTAssertEqual(result.jsonString, #"{"days":[{"date":"2026-11-30","description":"moderate rain","precipitationProbability":80,"precipitationSum":7.8,"tempMax":6.4,"tempMin":2.1,"weatherCode":63},"#
                       + #"{"date":"2026-12-01","description":"slight rain","precipitationProbability":65,"precipitationSum":3.2,"tempMax":5.1,"tempMin":1.3,"weatherCode":61}],"#
                       + #""latitude":52.23,"longitude":21,"place":"home","rainExpected":true,"timezone":"Europe/Warsaw"}"#)
        XCTAssertEqual(server.requests.last?.hasSuffix("&forecast_days=2"), true)
    }

    func testSkillErrors() async throws {
        let server = try startServer()
        var error = await skillError("{}", baseURL: server.baseURL)
        XCTAssertEqual(error, .invalidInput("give \"latitude\" and \"longitude\", or a \"place\": a place name such as \"Tokyo\" or \"Paris, TX\" (configured places: home)"))
        error = await skillError(#"{"place":"office"}"#, baseURL: server.baseURL)
        guard case .unavailable(let down)? = error else { return XCTFail("expected unavailable (geocoding down), got \(String(describing: error))") }
        XCTAssertTrue(down.contains("/v1/search?name=office&count=10&language=en&format=json failed: "), down)
        error = await skillError(#"{"place":"home","plcae":"Tokyo"}"#, baseURL: server.baseURL)
        XCTAssertEqual(error, .invalidInput("unknown field \"plcae\"; the input takes latitude, longitude, place, days"))
        error = await skillError(#"{"latitude":"north","longitude":1}"#, baseURL: server.baseURL)
        guard case .invalidInput(let decodeMessage)? = error else { return XCTFail("expected invalidInput, got \(String(describing: error))") }
        XCTAssertTrue(decodeMessage.contains("latitude"), decodeMessage)
        error = await skillError(#"{"latitude":1,"longitude":2,"days":1}"#, baseURL: server.baseURL + "/fail")
        XCTAssertEqual(error, .unavailable("GET \(server.baseURL)/fail/v1/forecast?latitude=1&longitude=2&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max&timezone=auto&forecast_days=1 returned HTTP 500: upstream exploded"))
        error = await skillError(#"{"latitude":1,"longitude":2}"#, baseURL: server.baseURL + "/broken")
        guard case .failed? = error else { return XCTFail("expected failed, got \(String(describing: error))") }
        error = await skillError(#"{"latitude":1,"longitude":2}"#, baseURL: "not a url")
        XCTAssertEqual(error, .unavailable("invalid configuration: \"baseURL\" must be an http(s) URL such as https://api.open-meteo.com, found \"not a url\""))
    }

    func testSkillHealth() async throws {
        let server = try startServer()
        let ok = await WeatherSkill().healthCheck(context: skillContext(baseURL: server.baseURL))
        XCTAssertEqual(ok.status, .ok)
        XCTAssertNotNil(ok.latencyMs)
        let down = await WeatherSkill().healthCheck(context: skillContext(baseURL: "http://127.0.0.1:\(closedPort())"))
        XCTAssertEqual(down.status, .unavailable)
        XCTAssertTrue(down.message.contains(" failed: "), down.message)
    }

    func testExportedManifest() throws {
        let skill = exportSkill(WeatherSkill()).assumingMemoryBound(to: skh_skill.self).pointee
        XCTAssertEqual(String(cString: skill.id), "dev.skillhost.weather")
        XCTAssertEqual(String(cString: skill.version), "1.0.0")
        XCTAssertEqual(String(cString: skill.category), "weather")
        XCTAssertEqual(skill.intent_count, 1)
        let intent = skill.intents[0]
        XCTAssertEqual(String(cString: intent.name), "weather.forecast")
        XCTAssertEqual(intent.flags, UInt32(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT | SKH_INTENT_OPEN_WORLD))
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(String(cString: intent.input_schema).utf8)) as? [String: Any])
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(String(cString: intent.output_schema).utf8)) as? [String: Any])
        XCTAssertEqual(String(cString: intent.keywords),
                       #"{"en":["weather","rain","umbrella","forecast","temperature","snow","cold","hot","warm","jacket","coat","sunny","snowing","raining"],"zh":["天气","下雨","带伞","气温","预报","雨","冷","热","多少度","温度","下雪","晴","穿什么"]}"#)
        let examples = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(String(cString: intent.examples).utf8)) as? [[String: Any]])
        // Four with inputs (validate runs them), the rest sentences that teach `ask` (no input).
        XCTAssertEqual(examples.count, 14)
        XCTAssertEqual(examples.filter { $0["input"] != nil }.count, 4)
        for example in examples where example["input"] != nil {
            // Every example input is valid against the configured place "home".
            let data = try JSONSerialization.data(withJSONObject: try XCTUnwrap(example["input"]))
            let input = try JSONDecoder().decode(WeatherInput.self, from: data)
            XCTAssertNoThrow(try ForecastRequest.resolve(input, places: ["home": WeatherPlace(latitude: 0, longitude: 0)]))
        }
    }
}
