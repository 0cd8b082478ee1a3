import Foundation

/// How a weather call failed; the skill layer maps each case to the `SkillError` of the same name.
public enum WeatherError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidInput(String)
    case unavailable(String)
    case failed(String)
    case cancelled(String)

    public var message: String {
        switch self {
        case .invalidInput(let m), .unavailable(let m), .failed(let m), .cancelled(let m): return m
        }
    }

    public var description: String { message }
}

/// The `weather.forecast` input, as sent: coordinates or a configured place name, and a day count.
public struct WeatherInput: Decodable, Sendable, Equatable {
    public var latitude: Double?
    public var longitude: Double?
    public var place: String?
    public var days: Int?

    public init(latitude: Double? = nil, longitude: Double? = nil, place: String? = nil, days: Int? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.place = place
        self.days = days
    }
}

/// A named location in the config.
public struct WeatherPlace: Decodable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// This skill's config section:
/// `{"baseURL": "https://api.open-meteo.com", "places": {"home": {"latitude": 52.23, "longitude": 21.01}},
///   "timeoutMs": 5000}` — every member optional.
public struct WeatherConfig: Decodable, Sendable, Equatable {
    public static let defaultBaseURL = "https://api.open-meteo.com"
    public static let defaultTimeoutMs = 5000

    public var baseURL: String
    public var places: [String: WeatherPlace]
    public var timeoutMs: Int

    public init(baseURL: String = WeatherConfig.defaultBaseURL, places: [String: WeatherPlace] = [:],
                timeoutMs: Int = WeatherConfig.defaultTimeoutMs) {
        self.baseURL = baseURL
        self.places = places
        self.timeoutMs = timeoutMs
    }

    enum CodingKeys: String, CodingKey { case baseURL, places, timeoutMs }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        baseURL = try c.decodeIfPresent(String.self, forKey: .baseURL) ?? Self.defaultBaseURL
        places = try c.decodeIfPresent([String: WeatherPlace].self, forKey: .places) ?? [:]
        timeoutMs = try c.decodeIfPresent(Int.self, forKey: .timeoutMs) ?? Self.defaultTimeoutMs
    }

    /// Checks what a decoder cannot: a usable base URL, a sane timeout, places with valid coordinates.
    /// The messages name the config key to fix.
    public func validated() throws(WeatherError) -> WeatherConfig {
        var copy = self
        copy.baseURL = OpenMeteo.trimmed(baseURL)
        guard let url = URL(string: copy.baseURL), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil, url.query == nil else {
            throw .unavailable("invalid configuration: \"baseURL\" must be an http(s) URL such as \(Self.defaultBaseURL), found \"\(baseURL)\"")
        }
        guard (100...120_000).contains(timeoutMs) else {
            throw .unavailable("invalid configuration: \"timeoutMs\" must be between 100 and 120000, found \(timeoutMs)")
        }
        for (name, place) in places.sorted(by: { $0.key < $1.key }) {
            guard (-90...90).contains(place.latitude), (-180...180).contains(place.longitude) else {
                throw .unavailable("invalid configuration: \"places.\(name)\" has coordinates out of range (\(place.latitude), \(place.longitude))")
            }
        }
        return copy
    }
}

/// A forecast request ready to send.
public struct ForecastRequest: Sendable, Equatable {
    public static let defaultDays = 3
    public static let maxDays = 16

    public var latitude: Double
    public var longitude: Double
    /// The configured place name, when the input named one.
    public var place: String?
    public var days: Int

    public init(latitude: Double, longitude: Double, place: String? = nil, days: Int = ForecastRequest.defaultDays) {
        self.latitude = latitude
        self.longitude = longitude
        self.place = place
        self.days = days
    }

    /// Turns the input into a request: coordinates, or a place looked up in `places` (exact name first,
    /// then ignoring case). Neither, both, half a coordinate pair, out-of-range values or an unknown
    /// place are `invalidInput`.
    public static func resolve(_ input: WeatherInput, places: [String: WeatherPlace]) throws(WeatherError) -> ForecastRequest {
        let days = input.days ?? defaultDays
        guard (1...maxDays).contains(days) else {
            throw .invalidInput("field \"days\" must be between 1 and \(maxDays), found \(days)")
        }
        let place = input.place?.trimmingCharacters(in: .whitespaces)
        let hasCoordinates = input.latitude != nil || input.longitude != nil
        if hasCoordinates {
            guard place == nil else {
                throw .invalidInput("give either \"latitude\"/\"longitude\" or \"place\", not both")
            }
            guard let latitude = input.latitude, let longitude = input.longitude else {
                throw .invalidInput("\"latitude\" and \"longitude\" must be given together (missing \"\(input.latitude == nil ? "latitude" : "longitude")\")")
            }
            guard latitude.isFinite, (-90...90).contains(latitude) else {
                throw .invalidInput("field \"latitude\" must be between -90 and 90, found \(latitude)")
            }
            guard longitude.isFinite, (-180...180).contains(longitude) else {
                throw .invalidInput("field \"longitude\" must be between -180 and 180, found \(longitude)")
            }
            return ForecastRequest(latitude: latitude, longitude: longitude, days: days)
        }
        guard let place, !place.isEmpty else {
            throw .invalidInput("give \"latitude\" and \"longitude\", or a configured \"place\"\(knownPlaces(places))")
        }
        let match = places[place].map { (place, $0) }
            ?? places.first { $0.key.caseInsensitiveCompare(place) == .orderedSame }.map { ($0.key, $0.value) }
        guard let (name, location) = match else {
            throw .invalidInput("unknown place \"\(place)\"\(knownPlaces(places))")
        }
        return ForecastRequest(latitude: location.latitude, longitude: location.longitude, place: name, days: days)
    }

    static func knownPlaces(_ places: [String: WeatherPlace]) -> String {
        if places.isEmpty { return "; no places are configured (add them under the config key \"places\")" }
        return "; configured places: " + places.keys.sorted().joined(separator: ", ")
    }
}
