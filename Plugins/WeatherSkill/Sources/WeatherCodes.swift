/// WMO weather interpretation codes (WW), as Open-Meteo documents them for `weather_code`.
public enum WeatherCodes {
    public static func description(_ code: Int?) -> String {
        guard let code else { return "unknown" }
        switch code {
        case 0: return "clear sky"
        case 1: return "mainly clear"
        case 2: return "partly cloudy"
        case 3: return "overcast"
        case 45: return "fog"
        case 48: return "depositing rime fog"
        case 51: return "light drizzle"
        case 53: return "moderate drizzle"
        case 55: return "dense drizzle"
        case 56: return "light freezing drizzle"
        case 57: return "dense freezing drizzle"
        case 61: return "slight rain"
        case 63: return "moderate rain"
        case 65: return "heavy rain"
        case 66: return "light freezing rain"
        case 67: return "heavy freezing rain"
        case 71: return "slight snowfall"
        case 73: return "moderate snowfall"
        case 75: return "heavy snowfall"
        case 77: return "snow grains"
        case 80: return "slight rain showers"
        case 81: return "moderate rain showers"
        case 82: return "violent rain showers"
        case 85: return "slight snow showers"
        case 86: return "heavy snow showers"
        case 95: return "thunderstorm"
        case 96: return "thunderstorm with slight hail"
        case 99: return "thunderstorm with heavy hail"
        default: return "unknown (WMO code \(code))"
        }
    }

    /// Drizzle, rain, freezing rain, rain showers, thunderstorms.
    public static func isRain(_ code: Int?) -> Bool {
        guard let code else { return false }
        return (51...67).contains(code) || (80...82).contains(code) || (95...99).contains(code)
    }

    /// Snowfall, snow grains, snow showers.
    public static func isSnow(_ code: Int?) -> Bool {
        guard let code else { return false }
        return (71...77).contains(code) || (85...86).contains(code)
    }
}
