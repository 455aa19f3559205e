import CGeonames
import Foundation
import Synchronization

/// Offline city search through libgeonames. Results come most populous first, as libgeonames
/// orders them. Text after a comma narrows by region or country ("santa cruz, california").
public enum PlaceSearch {
    /// Longest query looked at; longer input is cut here, since no city name comes near it.
    public static let maximumQueryLength = 100

    /// libgeonames loads its table on first use into process-wide state: one caller at a time.
    private static let lock = Mutex(())

    /// Up to `limit` places whose name contains `text` (accents and case ignored).
    public static func search(_ text: String, limit: Int = 10) -> [Place] {
        let parts = text.prefix(maximumQueryLength).split(separator: ",", maxSplits: 1)
            .map { folded(String($0)).trimmingCharacters(in: .whitespaces) }
        guard let name = parts.first, !name.isEmpty, limit > 0 else { return [] }
        let qualifier = parts.count > 1 ? parts[1] : ""
        return lock.withLock { _ in
            var places: [Place] = []
            for index in cityIndexes(matching: name) {
                guard let place = city(at: index) else { continue }
                if qualifier.isEmpty || place.matches(qualifier: qualifier) { places.append(place) }
                if places.count == limit { break }
            }
            return places
        }
    }

    /// The place `identifier` names, found again by its index or, when the table changed, by
    /// its name and country; nil when it is no longer in the table.
    public static func place(for identifier: PlaceIdentifier) -> Place? {
        guard identifier.source == PlaceIdentifier.geonames else { return nil }
        let sameEntry = { (place: Place) in
            place.name == identifier.name && (identifier.countryCode == nil || place.countryCode == identifier.countryCode)
        }
        if let index = identifier.index, let place = lock.withLock({ _ in city(at: index) }), sameEntry(place) {
            return place
        }
        return search(identifier.name, limit: 50).first(where: sameEntry)
    }

    private static func cityIndexes(matching name: String) -> [Int] {
        var count: guint = 0
        guard let indexes = geonames_query_cities_sync(name, GEONAMES_QUERY_DEFAULT, &count, nil, nil) else { return [] }
        defer { g_free(indexes) }
        return (0..<Int(count)).map { Int(indexes[$0]) }
    }

    private static func city(at index: Int) -> Place? {
        guard index >= 0, index < Int(geonames_get_n_cities()), let city = geonames_get_city(gint(index)) else { return nil }
        defer { geonames_city_free(city) }
        let name = String(cString: geonames_city_get_name(city))
        let countryCode = String(cString: geonames_city_get_country_code(city))
        return Place(
            identifier: PlaceIdentifier(source: PlaceIdentifier.geonames, index: index, name: name, countryCode: countryCode),
            name: name,
            region: geonames_city_get_state(city).map { String(cString: $0) } ?? "",
            country: String(cString: geonames_city_get_country(city)),
            countryCode: countryCode,
            coordinate: Coordinate(latitude: geonames_city_get_latitude(city), longitude: geonames_city_get_longitude(city)),
            population: Int(geonames_city_get_population(city)))
    }

    /// libgeonames folds the names it searches but not the query: "zürich" must become "zurich".
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}

extension PlaceIdentifier {
    static let geonames = "geonames"
}

private extension Place {
    func matches(qualifier: String) -> Bool {
        [region, country, countryCode].contains { PlaceSearch.folded($0).hasPrefix(qualifier) }
    }
}
