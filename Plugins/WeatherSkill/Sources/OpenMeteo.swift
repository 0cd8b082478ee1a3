import Foundation

/// The Open-Meteo forecast API (https://open-meteo.com/en/docs): request URLs and response parsing.
public enum OpenMeteo {
    /// The daily variables requested, in request order.
    public static let dailyVariables = ["weather_code", "temperature_2m_max", "temperature_2m_min",
                                        "precipitation_sum", "precipitation_probability_max"]

    /// `{base}/v1/forecast?latitude=…&longitude=…&daily=…&timezone=auto&forecast_days=N`.
    public static func forecastURL(baseURL: String, request: ForecastRequest) -> URL? {
        URL(string: trimmed(baseURL) + "/v1/forecast?latitude=\(coordinate(request.latitude))"
            + "&longitude=\(coordinate(request.longitude))&daily=\(dailyVariables.joined(separator: ","))"
            + "&timezone=auto&forecast_days=\(request.days)")
    }

    /// The cheap request the health check times.
    public static func probeURL(baseURL: String) -> URL? {
        URL(string: trimmed(baseURL) + "/v1/forecast?latitude=0&longitude=0&daily=weather_code&timezone=GMT&forecast_days=1")
    }

    static func trimmed(_ base: String) -> String {
        var s = base.trimmingCharacters(in: .whitespaces)
        while s.hasSuffix("/") { s.removeLast() }
        return s
    }

    /// Decimal degrees without exponent notation, at most 6 decimals (≈ 0.1 m): `52.2297`, `-0.5`, `21`.
    public static func coordinate(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A parsed forecast response.
    public struct Forecast: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var timezone: String
        public var temperatureUnit: String
        public var precipitationUnit: String
        public var days: [Day]
    }

    /// One day of `daily`. Open-Meteo sends `null` where a model has no value (e.g. precipitation
    /// probability far ahead), hence the optionals.
    public struct Day: Sendable, Equatable {
        public var date: String
        public var weatherCode: Int?
        public var tempMax: Double?
        public var tempMin: Double?
        public var precipitationSum: Double?
        public var precipitationProbability: Double?

        public init(date: String, weatherCode: Int?, tempMax: Double?, tempMin: Double?,
                    precipitationSum: Double?, precipitationProbability: Double?) {
            self.date = date
            self.weatherCode = weatherCode
            self.tempMax = tempMax
            self.tempMin = tempMin
            self.precipitationSum = precipitationSum
            self.precipitationProbability = precipitationProbability
        }
    }

    /// Parses a response body: `{"latitude","longitude","timezone","daily_units":{…},"daily":{"time":[…],
    /// "weather_code":[…],…}}`. Every requested variable must be present with one value (or null) per
    /// day in `daily.time`; otherwise `WeatherError.failed` names what is missing or mismatched.
    public static func parse(_ body: Data) throws(WeatherError) -> Forecast {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: body)
        } catch {
            throw .failed("the forecast response is not valid JSON (\(body.count) bytes): \(snippet(body))")
        }
        guard let root = object as? [String: Any] else {
            throw .failed("the forecast response is not a JSON object")
        }
        if root["error"] as? Bool == true {
            throw .failed("the forecast service reported an error: \(root["reason"] as? String ?? "no reason given")")
        }
        guard let latitude = number(root["latitude"]), let longitude = number(root["longitude"]) else {
            throw .failed("the forecast response has no numeric \"latitude\"/\"longitude\"")
        }
        guard let daily = root["daily"] as? [String: Any] else {
            throw .failed("the forecast response has no \"daily\" object")
        }
        guard let time = daily["time"] as? [Any] else {
            throw .failed("the forecast response has no \"daily.time\" array")
        }
        let dates = try time.enumerated().map { (i, value) throws(WeatherError) -> String in
            guard let s = value as? String else { throw .failed("\"daily.time[\(i)]\" is not a date string") }
            return s
        }

        func column(_ name: String, fallback: String? = nil) throws(WeatherError) -> [Double?] {
            guard let values = (daily[name] ?? fallback.flatMap { daily[$0] }) as? [Any] else {
                throw .failed("the forecast response has no \"daily.\(name)\" array")
            }
            guard values.count == dates.count else {
                throw .failed("\"daily.\(name)\" has \(values.count) values but \"daily.time\" has \(dates.count)")
            }
            return try values.enumerated().map { (i, value) throws(WeatherError) -> Double? in
                if value is NSNull { return nil }
                guard let n = number(value) else { throw .failed("\"daily.\(name)[\(i)]\" is not a number") }
                return n
            }
        }
        // "weathercode" is the pre-2023 spelling some compatible servers still send.
        let codes = try column("weather_code", fallback: "weathercode")
        let maxima = try column("temperature_2m_max")
        let minima = try column("temperature_2m_min")
        let sums = try column("precipitation_sum")
        let probabilities = try column("precipitation_probability_max")

        let units = root["daily_units"] as? [String: Any]
        let days = dates.indices.map { i in
            Day(date: dates[i], weatherCode: codes[i].flatMap { Int(exactly: $0) }, tempMax: maxima[i], tempMin: minima[i],
                precipitationSum: sums[i], precipitationProbability: probabilities[i])
        }
        return Forecast(latitude: latitude, longitude: longitude,
                        timezone: root["timezone"] as? String ?? "GMT",
                        temperatureUnit: units?["temperature_2m_max"] as? String ?? "°C",
                        precipitationUnit: units?["precipitation_sum"] as? String ?? "mm",
                        days: days)
    }

    static func number(_ value: Any?) -> Double? {
        guard let value, !(value is NSNull), let n = value as? NSNumber else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    /// The start of a body, for error messages.
    static func snippet(_ body: Data, limit: Int = 120) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
        return "\"" + text + (body.count > limit ? "…" : "") + "\""
    }
}
