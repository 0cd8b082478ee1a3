import Foundation
import SkillKit

/// The SkillKit face of the weather skill: decodes input and config and maps `WeatherError` to
/// `SkillError`. The work is done by `WeatherService` (SDK-free).
struct WeatherSkill: AgentSkill {
    let id = "dev.skillhost.weather"
    let name = "Weather"
    let version = "1.0.0"
    let category = "weather"
    let vendor = "skillhost"
    let description = "Daily weather forecast (conditions, temperatures, rain) for coordinates or a configured place, fetched from an Open-Meteo-compatible web service."

    var supportedIntents: [SkillIntent] { WeatherIntents.all }
    /// The forecast service: the configured `baseURL`'s host and port, or Open-Meteo's public API.
    var permissions: SkillPermissions {
        SkillPermissions(network: [.config("baseURL"), .host("api.open-meteo.com", port: 443)])
    }

    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        guard input.intent == WeatherIntents.forecast else {
            throw SkillError.invalidInput("unknown intent \"\(input.intent)\"")
        }
        let params = try input.decode(WeatherInput.self)
        let service = try makeService(context)
        let forecast: (output: WeatherForecastOutput, message: String)
        do {
            // Answer before the host's deadline (ABI 1.1 time_left_ms), with a message naming the server.
            let budget = context.timeLeft.map { Int($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
            forecast = try await service.forecast(params, budgetMs: budget, chinese: context.locale.lowercased().hasPrefix("zh"),
                                                  isCancelled: { context.isCancelled })
        } catch {
            throw error.skillError
        }
        return try SkillResult(forecast.output, message: forecast.message)
    }

    func healthCheck(context: SkillContext) async -> SkillHealth {
        let service: WeatherService
        do {
            service = try makeService(context)
        } catch {
            return .unavailable((error as? SkillError)?.message ?? String(describing: error))
        }
        let probe = await service.probe()
        switch probe.status {
        case .ok: return SkillHealth(status: .ok, message: probe.message, latencyMs: probe.latencyMs)
        case .degraded: return .degraded(probe.message, latencyMs: probe.latencyMs)
        case .unavailable: return .unavailable(probe.message, latencyMs: probe.latencyMs)
        }
    }

    private func makeService(_ context: SkillContext) throws -> WeatherService {
        let config: WeatherConfig = try context.config()
        do {
            return try WeatherService(config: config)
        } catch {
            throw error.skillError
        }
    }
}

extension WeatherError {
    var skillError: SkillError {
        switch self {
        case .invalidInput(let m): return .invalidInput(m)
        case .unavailable(let m): return .unavailable(m)
        case .failed(let m): return .failed(m)
        case .cancelled(let m): return .cancelled(m)
        }
    }
}

enum WeatherIntents {
    static let forecast = "weather.forecast"

    static let inputSchema = #"""
    {"type":"object","properties":{"latitude":{"type":"number","minimum":-90,"maximum":90,"description":"WGS84 latitude in degrees; give together with longitude."},"longitude":{"type":"number","minimum":-180,"maximum":180,"description":"WGS84 longitude in degrees; give together with latitude."},"place":{"type":"string","minLength":1,"description":"Instead of coordinates: a place name from this skill's configuration (\"places\"), e.g. \"home\"."},"days":{"type":"integer","minimum":1,"maximum":16,"default":3,"description":"Number of days to forecast, starting today."}},"additionalProperties":false}
    """#

    static let outputSchema = #"""
    {"type":"object","properties":{"latitude":{"type":"number"},"longitude":{"type":"number"},"place":{"type":"string"},"timezone":{"type":"string","description":"IANA time zone of the location; dates are local to it."},"days":{"type":"array","items":{"type":"object","properties":{"date":{"type":"string","format":"date"},"weatherCode":{"description":"WMO weather code (integer), or null."},"description":{"type":"string"},"tempMax":{"description":"Maximum temperature in °C, or null."},"tempMin":{"description":"Minimum temperature in °C, or null."},"precipitationSum":{"description":"Precipitation in mm, or null."},"precipitationProbability":{"description":"Maximum precipitation probability in %, or null."}},"required":["date","weatherCode","description","tempMax","tempMin","precipitationSum","precipitationProbability"]}},"rainExpected":{"type":"boolean","description":"Whether any day is likely to bring rain (probability ≥ 50%, ≥ 1 mm, or a rain code)."}},"required":["latitude","longitude","timezone","days","rainExpected"]}
    """#

    static let all: [SkillIntent] = [
        SkillIntent(
            name: forecast,
            description: "Daily weather forecast for up to 16 days at given coordinates or a configured place: conditions, min/max temperature, precipitation and its probability, and whether rain is expected.",
            inputSchema: inputSchema,
            outputSchema: outputSchema,
            flags: [.readOnly, .idempotent, .openWorld],
            keywords: ["en": ["weather", "rain", "umbrella", "forecast", "temperature", "snow", "cold", "hot", "warm", "jacket", "coat", "sunny", "snowing", "raining"],
                       "zh": ["天气", "下雨", "带伞", "气温", "预报", "雨", "冷", "热", "多少度", "温度", "下雪", "晴", "穿什么"]],
            examples: [
                SkillExample(lang: "en", text: "Do I need an umbrella at home tomorrow?", input: #"{"place":"home","days":2}"#),
                SkillExample(lang: "en", text: "Weather forecast for Warsaw for the next 5 days", input: #"{"latitude":52.23,"longitude":21.01,"days":5}"#),
                SkillExample(lang: "zh", text: "明天要带伞吗？", input: #"{"place":"home","days":2}"#),
                SkillExample(lang: "zh", text: "上海未来三天的天气预报", input: #"{"latitude":31.23,"longitude":121.47,"days":3}"#),
                SkillExample(lang: "en", text: "Will it rain this weekend?"),
                SkillExample(lang: "en", text: "How warm is it going to be tomorrow?"),
                SkillExample(lang: "en", text: "Is it going to be cold on Friday?"),
                SkillExample(lang: "en", text: "What's the forecast in Berlin?"),
                SkillExample(lang: "en", text: "Should I bring a coat tomorrow?"),
                SkillExample(lang: "zh", text: "周末会下雨吗"),
                SkillExample(lang: "zh", text: "明天多少度"),
                SkillExample(lang: "zh", text: "后天冷吗"),
                SkillExample(lang: "zh", text: "北京今天的天气怎么样"),
                SkillExample(lang: "zh", text: "明天需要穿外套吗"),
            ]),
    ]
}

@_cdecl("skillhost_entry")
public func skillhost_entry() -> UnsafeRawPointer {
    exportSkill(WeatherSkill())
}
