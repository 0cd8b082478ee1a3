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
    let description = "Daily weather forecast (conditions, temperatures, rain) for coordinates or a place name (Tokyo, 东京, \"Paris, TX\"; configured places first), fetched from an Open-Meteo-compatible web service."

    var supportedIntents: [SkillIntent] { WeatherIntents.all }
    /// The forecast and geocoding services: the configured `baseURL`'s and `geocodingURL`'s hosts and
    /// ports, or Open-Meteo's public APIs. The place cache lives in the data folder (always allowed).
    var permissions: SkillPermissions {
        SkillPermissions(network: [.config("baseURL"), .config("geocodingURL"), .host("api.open-meteo.com", port: 443),
                                   .host("geocoding-api.open-meteo.com", port: 443)])
    }

    func execute(input: SkillInput, context: SkillContext) async throws -> SkillResult {
        guard input.intent == WeatherIntents.forecast else {
            throw SkillError.invalidInput("unknown intent \"\(input.intent)\"")
        }
        do { try WeatherInput.checkFields(input.json) } catch { throw error.skillError }
        let params = try input.decode(WeatherInput.self)
        let service = try makeService(context)
        let forecast: (output: WeatherForecastOutput, message: String)
        do {
            // Answer before the host's deadline (ABI 1.1 time_left_ms), with a message naming the server.
            let budget = context.timeLeft.map { Int($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
            forecast = try await service.forecast(params, dataDirectory: context.dataDirectory,
                                                  language: Geocoding.language(forLocale: context.locale), budgetMs: budget,
                                                  chinese: context.locale.lowercased().hasPrefix("zh"), isCancelled: { context.isCancelled })
        } catch {
            throw error.skillError
        }
        for problem in forecast.output.problems ?? [] { context.log(.warning, problem) }
        return try SkillResult(forecast.output, message: forecast.message)
    }

    func healthCheck(context: SkillContext) async -> SkillHealth {
        let service: WeatherService
        do {
            service = try makeService(context)
        } catch {
            return .unavailable((error as? SkillError)?.message ?? (error as? SkillFailure)?.error.message ?? String(describing: error))
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
    /// The SDK error to throw; an ambiguous place is `invalid_input` with `details.candidates`.
    var skillError: any Error {
        switch self {
        case .invalidInput(let m): return SkillError.invalidInput(m)
        case .unavailable(let m): return SkillError.unavailable(m)
        case .failed(let m): return SkillError.failed(m)
        case .cancelled(let m): return SkillError.cancelled(m)
        case .ambiguous(let m, let candidates): return SkillFailure(.invalidInput(m), details: ["candidates": candidates])
        }
    }
}

enum WeatherIntents {
    static let forecast = "weather.forecast"

    static let inputSchema = #"""
    {"type":"object","properties":{"latitude":{"type":"number","minimum":-90,"maximum":90,"description":"WGS84 latitude in degrees; give together with longitude."},"longitude":{"type":"number","minimum":-180,"maximum":180,"description":"WGS84 longitude in degrees; give together with latitude."},"place":{"type":"string","minLength":1,"description":"Instead of coordinates: a place name in any language (\"Tokyo\", \"东京\", \"São Paulo\"), optionally narrowed by region or country after a comma (\"Paris, TX\", \"Springfield, Illinois\"), or a name from this skill's configuration (\"places\", e.g. \"home\"), which wins. An ambiguous name fails as invalid_input with error.details.candidates."},"days":{"type":"integer","minimum":1,"maximum":16,"default":3,"description":"Number of days to forecast, starting today."}},"additionalProperties":false}
    """#

    static let outputSchema = #"""
    {"type":"object","properties":{"latitude":{"type":"number"},"longitude":{"type":"number"},"place":{"type":"string","description":"The configured place name, or the found place as \"name, region, country\"."},"location":{"type":"object","description":"The place found for a place name.","properties":{"name":{"type":"string"},"latitude":{"type":"number"},"longitude":{"type":"number"},"admin1":{"type":"string"},"country":{"type":"string"},"countryCode":{"type":"string"},"population":{"type":"integer"},"timezone":{"type":"string"}},"required":["name","latitude","longitude"]},"problems":{"type":"array","items":{"type":"string"},"description":"What went wrong without failing the call, e.g. a place cache moved aside."},"timezone":{"type":"string","description":"IANA time zone of the location; dates are local to it."},"days":{"type":"array","items":{"type":"object","properties":{"date":{"type":"string","format":"date"},"weatherCode":{"description":"WMO weather code (integer), or null."},"description":{"type":"string"},"tempMax":{"description":"Maximum temperature in °C, or null."},"tempMin":{"description":"Minimum temperature in °C, or null."},"precipitationSum":{"description":"Precipitation in mm, or null."},"precipitationProbability":{"description":"Maximum precipitation probability in %, or null."}},"required":["date","weatherCode","description","tempMax","tempMin","precipitationSum","precipitationProbability"]}},"rainExpected":{"type":"boolean","description":"Whether any day is likely to bring rain (probability ≥ 50%, ≥ 1 mm, or a rain code)."}},"required":["latitude","longitude","timezone","days","rainExpected"]}
    """#

    static let all: [SkillIntent] = [
        SkillIntent(
            name: forecast,
            description: "Daily weather forecast for up to 16 days at given coordinates or a place name (any city, in any language; configured places first): conditions, min/max temperature, precipitation and its probability, and whether rain is expected.",
            inputSchema: inputSchema,
            outputSchema: outputSchema,
            flags: [.readOnly, .idempotent, .openWorld],
            keywords: ["en": ["weather", "rain", "umbrella", "forecast", "temperature", "snow", "cold", "hot", "warm", "jacket", "coat", "sunny", "snowing", "raining"],
                       "zh": ["天气", "下雨", "带伞", "气温", "预报", "雨", "冷", "热", "多少度", "温度", "下雪", "晴", "穿什么"]],
            examples: [
                SkillExample(lang: "en", text: "Do I need an umbrella at home tomorrow?", input: #"{"place":"home","days":2}"#),
                SkillExample(lang: "en", text: "Weather forecast for Warsaw for the next 5 days", input: #"{"place":"Warsaw","days":5}"#),
                SkillExample(lang: "zh", text: "明天要带伞吗？", input: #"{"place":"home","days":2}"#),
                SkillExample(lang: "zh", text: "上海未来三天的天气预报", input: #"{"place":"上海","days":3}"#),
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
