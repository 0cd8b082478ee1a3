import Foundation

/// The weather domain without the SDK: resolve the input, fetch, parse, report; and the health probe.
public struct WeatherService: Sendable {
    public var config: WeatherConfig
    public var fetcher: HTTPFetcher

    /// Validates `config` (see `WeatherConfig.validated`).
    public init(config: WeatherConfig, fetcher: HTTPFetcher = HTTPFetcher()) throws(WeatherError) {
        self.config = try config.validated()
        self.fetcher = fetcher
    }

    /// `budgetMs`: how long the caller will still wait (nil: no limit); each HTTP request gets the smaller
    /// of what is left of it (less a 100 ms margin for the answer, at least 100 ms) and the configured
    /// `timeoutMs`. A place name that is not configured is looked up first (`PlaceLookup`), through
    /// the cache in `dataDirectory` (nil: no cache), in `language` (the service's parameter, e.g. "zh").
    /// `chinese`: the message in Chinese (the caller's locale is zh…).
    public func forecast(_ input: WeatherInput, dataDirectory: String? = nil, language: String = "en", budgetMs: Int? = nil,
                         chinese: Bool = false, isCancelled: @escaping @Sendable () -> Bool = { false })
        async throws(WeatherError) -> (output: WeatherForecastOutput, message: String) {
        switch try ForecastRequest.resolve(input, places: config.places) {
        case .ready(let request):
            return try await forecast(request, budgetMs: budgetMs, chinese: chinese, isCancelled: isCancelled)
        case .lookUp(let name, let days):
            let started = DispatchTime.now()
            let cache = dataDirectory.map { PlaceCache(directory: $0) }
            let lookup = PlaceLookup(geocodingURL: config.geocodingURL, fetcher: fetcher, cache: cache)
            let place = try await lookup.find(name, language: language, timeoutMs: timeout(budgetMs), isCancelled: isCancelled)
            let spentMs = Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
            let request = ForecastRequest(latitude: place.latitude, longitude: place.longitude, place: place.label,
                                          location: place, days: days)
            var result = try await forecast(request, budgetMs: budgetMs.map { $0 - spentMs }, chinese: chinese, isCancelled: isCancelled)
            if let problems = cache?.problems, !problems.isEmpty { result.output.problems = problems }
            return result
        }
    }

    /// The HTTP deadline for a caller that waits `budgetMs` more (see `forecast`).
    func timeout(_ budgetMs: Int?) -> Int {
        budgetMs.map { max(100, min(config.timeoutMs, $0 - 100)) } ?? config.timeoutMs
    }

    public func forecast(_ request: ForecastRequest, budgetMs: Int? = nil, chinese: Bool = false, isCancelled: @escaping @Sendable () -> Bool = { false })
        async throws(WeatherError) -> (output: WeatherForecastOutput, message: String) {
        guard let url = OpenMeteo.forecastURL(baseURL: config.baseURL, request: request) else {
            throw .unavailable("invalid configuration: cannot build a forecast URL from \"baseURL\" \"\(config.baseURL)\"")
        }
        let response = try await fetcher.get(url, timeoutMs: timeout(budgetMs), isCancelled: isCancelled)
        guard response.status == 200 else {
            throw .unavailable("GET \(url.absoluteString) returned HTTP \(response.status)\(Self.reason(response.body))")
        }
        let forecast: OpenMeteo.Forecast
        do {
            forecast = try OpenMeteo.parse(response.body)
        } catch {
            throw .failed("\(error.message) (GET \(url.absoluteString))")
        }
        return WeatherReport.build(forecast, request: request, chinese: chinese)
    }

    /// The outcome of a health probe.
    public struct Probe: Sendable, Equatable {
        public enum Status: Sendable, Equatable { case ok, degraded, unavailable }
        public var status: Status
        public var message: String
        public var latencyMs: Double
    }

    /// Slower than this is reported as degraded.
    public static let degradedAfterMs = 2000.0

    /// Times a one-day forecast for 0,0. OK when it answers 200 within 2 s, degraded when slower,
    /// unavailable when unreachable or not 200. The probe waits at most `timeoutMs` (capped at 5 s).
    public func probe() async -> Probe {
        guard let url = OpenMeteo.probeURL(baseURL: config.baseURL) else {
            return Probe(status: .unavailable, message: "invalid configuration: \"baseURL\" \"\(config.baseURL)\"", latencyMs: 0)
        }
        let started = DispatchTime.now()
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000 }
        do {
            let response = try await fetcher.get(url, timeoutMs: min(config.timeoutMs, 5000))
            let ms = elapsed()
            guard response.status == 200 else {
                return Probe(status: .unavailable, message: "GET \(url.absoluteString) returned HTTP \(response.status)\(Self.reason(response.body))", latencyMs: ms)
            }
            let rounded = Int(ms.rounded())
            if ms > Self.degradedAfterMs {
                return Probe(status: .degraded, message: "\(config.baseURL) is slow: answered in \(rounded) ms", latencyMs: ms)
            }
            return Probe(status: .ok, message: "\(config.baseURL) answered in \(rounded) ms", latencyMs: ms)
        } catch {
            return Probe(status: .unavailable, message: error.message, latencyMs: elapsed())
        }
    }

    /// `: <reason>` from an Open-Meteo error body (`{"error":true,"reason":"…"}`), else the start of the body.
    static func reason(_ body: Data) -> String {
        if body.isEmpty { return "" }
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
           let reason = object["reason"] as? String {
            return ": " + reason
        }
        return ": " + OpenMeteo.snippet(body, limit: 200)
    }
}
