import Foundation

/// How a weather call failed; the skill layer maps each case to the `SkillError` of the same name.
public enum WeatherError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidInput(String)
    case unavailable(String)
    case failed(String)
    case cancelled(String)
    /// A place name several places answer to: the message lists them, `candidates` holds them.
    case ambiguous(String, candidates: [GeocodedPlace])

    public var message: String {
        switch self {
        case .invalidInput(let m), .unavailable(let m), .failed(let m), .cancelled(let m), .ambiguous(let m, _): return m
        }
    }

    public var description: String { message }
}

/// The `weather.forecast` input, as sent: coordinates or a place name (configured, or any name the
/// geocoding service knows), and a day count.
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

    /// The members the input schema allows (it has `"additionalProperties": false`).
    public static let fields = ["latitude", "longitude", "place", "days"]

    /// Fails closed on members the schema does not allow, as the host would have (a caller that skips
    /// the host's schema check must not have a typo taken for "no such field").
    public static func checkFields(_ json: [UInt8]) throws(WeatherError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw .invalidInput("unknown field \"\(unknown)\"; the input takes \(fields.joined(separator: ", "))")
        }
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
/// `{"baseURL": "https://api.open-meteo.com", "geocodingURL": "https://geocoding-api.open-meteo.com",
///   "places": {"home": {"latitude": 52.23, "longitude": 21.01}}, "timeoutMs": 5000}` — every member optional.
public struct WeatherConfig: Decodable, Sendable, Equatable {
    public static let defaultBaseURL = "https://api.open-meteo.com"
    public static let defaultGeocodingURL = "https://geocoding-api.open-meteo.com"
    public static let defaultTimeoutMs = 5000

    public var baseURL: String
    /// Where place names are looked up (Open-Meteo's geocoding API or a compatible server).
    public var geocodingURL: String
    public var places: [String: WeatherPlace]
    public var timeoutMs: Int

    public init(baseURL: String = WeatherConfig.defaultBaseURL, geocodingURL: String = WeatherConfig.defaultGeocodingURL,
                places: [String: WeatherPlace] = [:], timeoutMs: Int = WeatherConfig.defaultTimeoutMs) {
        self.baseURL = baseURL
        self.geocodingURL = geocodingURL
        self.places = places
        self.timeoutMs = timeoutMs
    }

    enum CodingKeys: String, CodingKey { case baseURL, geocodingURL, places, timeoutMs }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        baseURL = try c.decodeIfPresent(String.self, forKey: .baseURL) ?? Self.defaultBaseURL
        geocodingURL = try c.decodeIfPresent(String.self, forKey: .geocodingURL) ?? Self.defaultGeocodingURL
        places = try c.decodeIfPresent([String: WeatherPlace].self, forKey: .places) ?? [:]
        timeoutMs = try c.decodeIfPresent(Int.self, forKey: .timeoutMs) ?? Self.defaultTimeoutMs
    }

    /// Checks what a decoder cannot: a usable base URL, a sane timeout, places with valid coordinates.
    /// The messages name the config key to fix.
    public func validated() throws(WeatherError) -> WeatherConfig {
        var copy = self
        copy.baseURL = OpenMeteo.trimmed(baseURL)
        copy.geocodingURL = OpenMeteo.trimmed(geocodingURL)
        for (key, value, example) in [("baseURL", copy.baseURL, Self.defaultBaseURL), ("geocodingURL", copy.geocodingURL, Self.defaultGeocodingURL)] {
            guard let url = URL(string: value), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host != nil, url.query == nil else {
                throw .unavailable("invalid configuration: \"\(key)\" must be an http(s) URL such as \(example), found \"\(key == "baseURL" ? baseURL : geocodingURL)\"")
            }
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
    /// The configured place name, or the found place's label ("Tokyo, Japan"), when the input named one.
    public var place: String?
    /// The place the geocoding service found for the input's name (nil for coordinates and configured places).
    public var location: GeocodedPlace?
    public var days: Int

    public init(latitude: Double, longitude: Double, place: String? = nil, location: GeocodedPlace? = nil,
                days: Int = ForecastRequest.defaultDays) {
        self.latitude = latitude
        self.longitude = longitude
        self.place = place
        self.location = location
        self.days = days
    }

    /// What the input asks for: a request ready to send (coordinates, or a place configured in `places`:
    /// exact name first, then ignoring case — configured names win over the geocoding service), or a
    /// place name to look up first.
    public enum Resolution: Sendable, Equatable {
        case ready(ForecastRequest)
        case lookUp(place: String, days: Int)
    }

    /// Turns the input into a `Resolution`. Neither coordinates nor place, both, half a coordinate pair
    /// or out-of-range values are `invalidInput`.
    public static func resolve(_ input: WeatherInput, places: [String: WeatherPlace]) throws(WeatherError) -> Resolution {
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
            return .ready(ForecastRequest(latitude: latitude, longitude: longitude, days: days))
        }
        guard let place, !place.isEmpty else {
            throw .invalidInput("give \"latitude\" and \"longitude\", or a \"place\": a place name such as \"Tokyo\" or \"Paris, TX\"\(knownPlaces(places))")
        }
        let match = places[place].map { (place, $0) }
            ?? places.first { $0.key.caseInsensitiveCompare(place) == .orderedSame }.map { ($0.key, $0.value) }
        guard let (name, location) = match else {
            guard PlaceQuery(place).name.count >= 2 else {
                throw .invalidInput("field \"place\" must name a place (at least 2 characters before any comma), found \"\(place)\"")
            }
            return .lookUp(place: place, days: days)
        }
        return .ready(ForecastRequest(latitude: location.latitude, longitude: location.longitude, place: name, days: days))
    }

    static func knownPlaces(_ places: [String: WeatherPlace]) -> String {
        if places.isEmpty { return "" }
        return " (configured places: " + places.keys.sorted().joined(separator: ", ") + ")"
    }
}
