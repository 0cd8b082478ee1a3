import Foundation

/// Turns a place name into one place: the cache, else the geocoding service, then `PlaceChoice`.
///
/// Errors: no match is `invalidInput` naming the place and the fixes; several plausible places are
/// `ambiguous` with the candidates; the service unreachable, slow or answering other than 200 is
/// `unavailable` naming the URL (as for the forecast); an answer that is not the expected JSON is `failed`.
public struct PlaceLookup: Sendable {
    public var geocodingURL: String
    public var fetcher: HTTPFetcher
    /// nil: no cache (every name is asked for).
    public var cache: PlaceCache?

    public init(geocodingURL: String, fetcher: HTTPFetcher = HTTPFetcher(), cache: PlaceCache?) {
        self.geocodingURL = geocodingURL
        self.fetcher = fetcher
        self.cache = cache
    }

    public func find(_ text: String, language: String, timeoutMs: Int, isCancelled: @escaping @Sendable () -> Bool = { false })
        async throws(WeatherError) -> GeocodedPlace {
        let query = PlaceQuery(text)
        let key = PlaceCache.key(name: query.name, language: language)
        let results: [GeocodedPlace]
        if let cached = cache?.results(for: key) {
            results = cached
        } else {
            guard let url = Geocoding.searchURL(baseURL: geocodingURL, name: query.name, language: language) else {
                throw .unavailable("invalid configuration: cannot build a geocoding URL from \"geocodingURL\" \"\(geocodingURL)\"")
            }
            let response = try await fetcher.get(url, timeoutMs: timeoutMs, isCancelled: isCancelled)
            guard response.status == 200 else {
                throw .unavailable("GET \(url.absoluteString) returned HTTP \(response.status)\(WeatherService.reason(response.body))")
            }
            do {
                results = try Geocoding.parse(response.body)
            } catch {
                throw .failed("\(error.message) (GET \(url.absoluteString))")
            }
            cache?.store(results, for: key)
        }
        switch PlaceChoice.choose(results, for: query) {
        case .one(let place):
            return place
        case .ambiguous(let candidates):
            let shown = candidates.prefix(5).map(Self.describe).joined(separator: "; ")
            let more = candidates.count > 5 ? "; and \(candidates.count - 5) more" : ""
            let example = candidates.first.map { "\"\(query.name), \($0.admin1 ?? $0.country ?? $0.countryCode ?? "")\"" } ?? ""
            throw .ambiguous("field \"place\": \"\(text)\" matches \(candidates.count) places and none stands out: \(shown)\(more); "
                             + "add the region or country after a comma (e.g. \(example)), or give \"latitude\"/\"longitude\"",
                             candidates: candidates)
        case .none(let unqualified) where !unqualified.isEmpty:
            let areas = Self.distinctAreas(unqualified)
            throw .invalidInput("field \"place\": no place named \"\(query.name)\" in \(query.qualifiers.map { "\"\($0)\"" }.joined(separator: ", ")); "
                                + "places of that name are in: \(areas.joined(separator: "; ")); "
                                + "name one of these after the comma, or give \"latitude\"/\"longitude\"")
        case .none:
            throw .invalidInput("field \"place\": no place named \"\(query.name)\" was found (geocoding service \(geocodingURL)); "
                                + "check the spelling, try the name in English or the local language, give \"latitude\"/\"longitude\", "
                                + "or add it under the config key \"places\"")
        }
    }

    /// "Springfield, Missouri, United States (37.21533, -93.29824, population 166810)".
    static func describe(_ place: GeocodedPlace) -> String {
        let population = place.population.map { ", population \($0)" } ?? ""
        return "\(place.label) (\(OpenMeteo.coordinate(place.latitude)), \(OpenMeteo.coordinate(place.longitude))\(population))"
    }

    /// "Texas, United States" for each distinct area, in the service's order.
    static func distinctAreas(_ places: [GeocodedPlace]) -> [String] {
        var seen: [String] = []
        for place in places {
            let area = [place.admin1, place.country ?? place.countryCode].compactMap { $0 }.joined(separator: ", ")
            if !area.isEmpty, !seen.contains(area) { seen.append(area) }
        }
        return seen
    }
}
