import Foundation

/// A place name as typed: the name the geocoding service is asked for, and the qualifiers after commas
/// ("Paris, TX" → name "Paris", qualifiers ["TX"]; "Springfield, Illinois, US" → ["Illinois", "US"]).
public struct PlaceQuery: Sendable, Equatable {
    public var name: String
    public var qualifiers: [String]

    public init(name: String, qualifiers: [String]) {
        self.name = name
        self.qualifiers = qualifiers
    }

    public init(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        name = parts.first ?? ""
        qualifiers = parts.dropFirst().filter { !$0.isEmpty }
    }
}

/// Which of the geocoding service's results a place name means. The rule, in order:
///
/// 1. **Qualifiers filter**: each qualifier after a comma must match the result's country name, its
///    ISO country code, or its first-level area (admin1), ignoring case and accents; a US state may
///    also be given by its postal code ("Paris, TX"), and "USA"/"UK" are accepted for US/GB.
/// 2. **Exact names win**: if some results are named exactly as asked (ignoring case and accents), the
///    fuzzy matches are dropped.
/// 3. **Same place**: a result within 50 km of a more populous one is the same place for a forecast and
///    is dropped.
/// 4. **One left, or a clear first**: one result is taken; of several, the most populous is taken when
///    it has at least 10 times the population of the next ("Paris" → Paris, France, not Paris, Texas).
///    Otherwise the name is ambiguous ("Springfield") and the caller gets the candidates, most populous
///    first, instead of a guess.
public enum PlaceChoice: Sendable, Equatable {
    case one(GeocodedPlace)
    case ambiguous([GeocodedPlace])
    /// Nothing matched the name; or results matched the name but none the qualifiers (they are given).
    case none(unqualified: [GeocodedPlace])

    /// The population ratio above which the most populous result is taken.
    public static let clearLeadFactor = 10
    /// Results closer than this to a more populous one are the same place (kilometres).
    public static let samePlaceKm = 50.0

    public static func choose(_ results: [GeocodedPlace], for query: PlaceQuery) -> PlaceChoice {
        var candidates = results.filter { place in query.qualifiers.allSatisfy { matches($0, place) } }
        if candidates.isEmpty { return .none(unqualified: results) }
        let exact = candidates.filter { fold($0.name) == fold(query.name) }
        if !exact.isEmpty { candidates = exact }
        // Most populous first; a stable sort keeps the service's relevance order among equals.
        candidates = candidates.enumerated().sorted { a, b in
            let (pa, pb) = (a.element.population ?? 0, b.element.population ?? 0)
            return pa != pb ? pa > pb : a.offset < b.offset
        }.map(\.element)
        var distinct: [GeocodedPlace] = []
        for place in candidates where !distinct.contains(where: { kilometres($0, place) < samePlaceKm }) {
            distinct.append(place)
        }
        guard distinct.count > 1 else { return .one(distinct[0]) }
        let (first, second) = (distinct[0].population ?? 0, distinct[1].population ?? 0)
        if first > 0, first >= second * clearLeadFactor { return .one(distinct[0]) }
        return .ambiguous(distinct)
    }

    /// Whether `qualifier` names the place's country, country code or first-level area.
    static func matches(_ qualifier: String, _ place: GeocodedPlace) -> Bool {
        let q = fold(qualifier)
        let code = place.countryCode?.uppercased()
        if let country = place.country, fold(country) == q { return true }
        if let admin1 = place.admin1, fold(admin1) == q { return true }
        if let code, code.lowercased() == q || countryAliases[q] == code { return true }
        if code == "US", let state = usStates[qualifier.uppercased()], let admin1 = place.admin1 { return fold(admin1) == fold(state) }
        return false
    }

    /// Case-, accent- and width-insensitive form for comparisons: "São Paulo" ≈ "sao paulo".
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }

    /// Great-circle distance (haversine, mean Earth radius).
    static func kilometres(_ a: GeocodedPlace, _ b: GeocodedPlace) -> Double {
        let r = 6371.0, rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }

    static let countryAliases = ["usa": "US", "uk": "GB"]

    /// US postal codes of the states and DC (GeoNames' admin1 names).
    static let usStates: [String: String] = [
        "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
        "CT": "Connecticut", "DE": "Delaware", "DC": "Washington, D.C.", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii",
        "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
        "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi",
        "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
        "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
        "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
        "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
        "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
    ]
}
