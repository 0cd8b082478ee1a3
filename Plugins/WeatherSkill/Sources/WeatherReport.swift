import Foundation

/// One day of the `weather.forecast` output. Values the service did not have are `null`.
public struct WeatherDay: Codable, Sendable, Equatable {
    public var date: String
    public var weatherCode: Int?
    public var description: String
    public var tempMax: Double?
    public var tempMin: Double?
    public var precipitationSum: Double?
    public var precipitationProbability: Double?
    /// Whether this day counts towards `rainExpected` (not part of the output).
    var rainy: Bool = false

    enum CodingKeys: String, CodingKey {
        case date, weatherCode, description, tempMax, tempMin, precipitationSum, precipitationProbability
    }

    public init(date: String, weatherCode: Int?, description: String, tempMax: Double?, tempMin: Double?,
                precipitationSum: Double?, precipitationProbability: Double?) {
        self.date = date
        self.weatherCode = weatherCode
        self.description = description
        self.tempMax = tempMax
        self.tempMin = tempMin
        self.precipitationSum = precipitationSum
        self.precipitationProbability = precipitationProbability
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(date: try c.decode(String.self, forKey: .date),
                  weatherCode: try c.decodeIfPresent(Int.self, forKey: .weatherCode),
                  description: try c.decode(String.self, forKey: .description),
                  tempMax: try c.decodeIfPresent(Double.self, forKey: .tempMax),
                  tempMin: try c.decodeIfPresent(Double.self, forKey: .tempMin),
                  precipitationSum: try c.decodeIfPresent(Double.self, forKey: .precipitationSum),
                  precipitationProbability: try c.decodeIfPresent(Double.self, forKey: .precipitationProbability))
    }

    /// Every key is written; missing values as `null` (so the shape is the same every day).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(date, forKey: .date)
        try c.encode(weatherCode, forKey: .weatherCode)
        try c.encode(description, forKey: .description)
        try c.encode(tempMax, forKey: .tempMax)
        try c.encode(tempMin, forKey: .tempMin)
        try c.encode(precipitationSum, forKey: .precipitationSum)
        try c.encode(precipitationProbability, forKey: .precipitationProbability)
    }

    public static func == (a: WeatherDay, b: WeatherDay) -> Bool {
        a.date == b.date && a.weatherCode == b.weatherCode && a.description == b.description && a.tempMax == b.tempMax
            && a.tempMin == b.tempMin && a.precipitationSum == b.precipitationSum
            && a.precipitationProbability == b.precipitationProbability
    }
}

/// The `weather.forecast` output.
public struct WeatherForecastOutput: Codable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var place: String?
    /// The place found for a place name (absent for coordinates and configured places).
    public var location: GeocodedPlace?
    public var timezone: String
    public var days: [WeatherDay]
    public var rainExpected: Bool
    /// What went wrong on the side without failing the call (e.g. a place cache moved aside); absent when nothing did.
    public var problems: [String]?
}

/// Builds the output and the human message from a parsed forecast.
public enum WeatherReport {
    /// A day counts as rainy when the probability of precipitation is at least this (percent)…
    public static let rainProbabilityThreshold = 50.0
    /// …or at least this much precipitation is forecast (mm)…
    public static let rainAmountThreshold = 1.0
    /// …or its weather code is rain and the probability (if known) is at least this. Snow days never count.
    public static let rainCodeProbabilityThreshold = 30.0

    public static func isRainy(_ day: OpenMeteo.Day) -> Bool {
        if WeatherCodes.isSnow(day.weatherCode) { return false }
        let probability = day.precipitationProbability
        if let probability, probability >= rainProbabilityThreshold { return true }
        if let sum = day.precipitationSum, sum >= rainAmountThreshold { return true }
        return WeatherCodes.isRain(day.weatherCode) && (probability ?? 100) >= rainCodeProbabilityThreshold
    }

    /// The output for `request`: at most `request.days` days (a server may send more).
    public static func build(_ forecast: OpenMeteo.Forecast, request: ForecastRequest, chinese: Bool = false) -> (output: WeatherForecastOutput, message: String) {
        let days = forecast.days.prefix(request.days).map { day -> WeatherDay in
            var out = WeatherDay(date: day.date, weatherCode: day.weatherCode,
                                 description: WeatherCodes.description(day.weatherCode),
                                 tempMax: day.tempMax, tempMin: day.tempMin, precipitationSum: day.precipitationSum,
                                 precipitationProbability: day.precipitationProbability)
            out.rainy = isRainy(day)
            return out
        }
        let output = WeatherForecastOutput(latitude: forecast.latitude, longitude: forecast.longitude, place: request.place,
                                           location: request.location, timezone: forecast.timezone, days: Array(days),
                                           rainExpected: days.contains { $0.rainy })
        let text = chinese ? chineseMessage(for: output, forecast: forecast) : message(for: output, forecast: forecast)
        // A looked-up place is named, so the reader sees which Springfield was meant.
        guard let location = request.location else { return (output, text) }
        return (output, location.label + (chinese ? "：" : ": ") + text)
    }

    /// "Rain likely on 2026-11-30 (80%) and 2026-12-01 (65%); bring an umbrella."
    static func message(for output: WeatherForecastOutput, forecast: OpenMeteo.Forecast) -> String {
        let days = output.days
        guard !days.isEmpty else { return "The forecast service returned no days." }
        let rainy = days.filter(\.rainy)
        if !rainy.isEmpty {
            let parts = rainy.map { day -> String in
                if let p = day.precipitationProbability { return "\(day.date) (\(number(p.rounded()))%)" }
                if let s = day.precipitationSum { return "\(day.date) (\(number(s)) \(forecast.precipitationUnit))" }
                return day.date
            }
            return "Rain likely on \(joined(parts)); bring an umbrella."
        }
        let span = days.count == 1 ? "on \(days[0].date)" : "from \(days[0].date) to \(days[days.count - 1].date)"
        let snowy = days.filter { WeatherCodes.isSnow($0.weatherCode) }
        var text = snowy.isEmpty ? "No rain expected \(span)" : "No rain expected \(span), but snow on \(joined(snowy.map(\.date)))"
        let highs = days.compactMap(\.tempMax), lows = days.compactMap(\.tempMin)
        if let low = lows.min(), let high = highs.max() {
            text += "; temperatures \(number(low)) to \(number(high)) \(forecast.temperatureUnit)"
        }
        return text + "."
    }

    /// "2026-11-30（80%）和 2026-12-01（65%）可能下雨，记得带伞。"
    static func chineseMessage(for output: WeatherForecastOutput, forecast: OpenMeteo.Forecast) -> String {
        let days = output.days
        guard !days.isEmpty else { return "天气服务没有返回任何一天的预报。" }
        let rainy = days.filter(\.rainy)
        if !rainy.isEmpty {
            let parts = rainy.map { day -> String in
                if let p = day.precipitationProbability { return "\(day.date)（\(number(p.rounded()))%）" }
                if let s = day.precipitationSum { return "\(day.date)（\(number(s)) \(forecast.precipitationUnit)）" }
                return day.date
            }
            return "\(parts.joined(separator: "、"))可能下雨，记得带伞。"
        }
        let span = days.count == 1 ? days[0].date : "\(days[0].date) 至 \(days[days.count - 1].date)"
        var text = "\(span)预计不会下雨"
        let snowy = days.filter { WeatherCodes.isSnow($0.weatherCode) }
        if !snowy.isEmpty { text += "，但 \(snowy.map(\.date).joined(separator: "、")) 有雪" }
        let highs = days.compactMap(\.tempMax), lows = days.compactMap(\.tempMin)
        if let low = lows.min(), let high = highs.max() {
            text += "，气温 \(number(low)) 至 \(number(high)) \(forecast.temperatureUnit)"
        }
        return text + "，不用带伞。"
    }

    static func joined(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
        }
    }

    /// `4`, `-1.5`, `12.3`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        if rounded == rounded.rounded(), let whole = Int(exactly: rounded) { return String(whole) }
        return String(format: "%.1f", rounded)
    }
}
