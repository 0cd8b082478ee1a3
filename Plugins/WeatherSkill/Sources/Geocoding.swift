import Foundation

/// One place the geocoding service knows: what the cache keeps, what `location` in the output and
/// `details.candidates` of an ambiguous name show.
public struct GeocodedPlace: Codable, Sendable, Equatable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// First-level administrative area (state, province, prefecture), in the request's language.
    public var admin1: String?
    /// Country name, in the request's language.
    public var country: String?
    /// ISO 3166-1 alpha-2, e.g. "JP".
    public var countryCode: String?
    public var population: Int?
    /// IANA time zone.
    public var timezone: String?

    public init(name: String, latitude: Double, longitude: Double, admin1: String? = nil, country: String? = nil,
                countryCode: String? = nil, population: Int? = nil, timezone: String? = nil) {
        (self.name, self.latitude, self.longitude, self.admin1, self.country, self.countryCode, self.population, self.timezone)
            = (name, latitude, longitude, admin1, country, countryCode, population, timezone)
    }

    /// "Tokyo, Japan", "Springfield, Missouri, United States" (admin1 left out when it repeats the name).
    public var label: String {
        var parts = [name]
        if let admin1, !admin1.isEmpty, admin1 != name { parts.append(admin1) }
        if let country, !country.isEmpty { parts.append(country) } else if let countryCode { parts.append(countryCode) }
        return parts.joined(separator: ", ")
    }
}

/// The Open-Meteo geocoding API (https://open-meteo.com/en/docs/geocoding-api): request URLs and
/// response parsing. `GET {base}/v1/search?name=…&count=10&language=…&format=json` answers
/// `{"results":[{"name","latitude","longitude","admin1","country","country_code","population",
/// "timezone",…}],"generationtime_ms":…}`; `results` is absent when nothing matched, and empty fields are
/// left out. An error is `{"error":true,"reason":"…"}`.
public enum Geocoding {
    /// How many results are asked for (the service's default).
    public static let resultCount = 10

    /// The search URL for `name` (percent-encoded as UTF-8), or nil when `baseURL` is not a URL.
    public static func searchURL(baseURL: String, name: String, language: String) -> URL? {
        guard var components = URLComponents(string: OpenMeteo.trimmed(baseURL) + "/v1/search") else { return nil }
        components.queryItems = [URLQueryItem(name: "name", value: name), URLQueryItem(name: "count", value: String(resultCount)),
                                 URLQueryItem(name: "language", value: language), URLQueryItem(name: "format", value: "json")]
        // URLComponents leaves "+" alone, which a server reads as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url
    }

    /// The service's language parameter for a BCP 47 tag: "zh-CN" → "zh", "" → "en".
    public static func language(forLocale locale: String) -> String {
        let primary = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        guard (2...3).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return "en" }
        return primary
    }

    /// Parses a search response. Results without a name or with coordinates out of range are skipped;
    /// a body that is not a JSON object, or whose `results` is not an array, is `WeatherError.failed`.
    public static func parse(_ body: Data) throws(WeatherError) -> [GeocodedPlace] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: body)
        } catch {
            throw .failed("the geocoding response is not valid JSON (\(body.count) bytes): \(OpenMeteo.snippet(body))")
        }
        guard let root = object as? [String: Any] else { throw .failed("the geocoding response is not a JSON object") }
        if root["error"] as? Bool == true {
            throw .failed("the geocoding service reported an error: \(root["reason"] as? String ?? "no reason given")")
        }
        guard let results = root["results"] else { return [] }
        guard let list = results as? [Any] else { throw .failed("the geocoding response's \"results\" is not an array") }
        return list.compactMap { item -> GeocodedPlace? in
            guard let r = item as? [String: Any], let name = r["name"] as? String, !name.isEmpty,
                  let latitude = OpenMeteo.number(r["latitude"]), let longitude = OpenMeteo.number(r["longitude"]),
                  (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
            func text(_ key: String) -> String? { (r[key] as? String).flatMap { $0.isEmpty ? nil : $0 } }
            return GeocodedPlace(name: name, latitude: latitude, longitude: longitude, admin1: text("admin1"),
                                 country: text("country"), countryCode: text("country_code")?.uppercased(),
                                 population: OpenMeteo.number(r["population"]).flatMap { Int(exactly: $0.rounded()) },
                                 timezone: text("timezone"))
        }
    }
}
