import Persistence
import Places

/// Where a trip goes: a place picked from the place search (with its position and the opaque
/// identifier of the gazetteer entry), or free text when no place matched.
public struct TripDestination: Hashable, Sendable {
    /// What the trip shows and sections group by: "Kyoto, Japan", or what was typed.
    public var name: String
    /// Set for a picked place: where the map puts the trip's pin.
    public var coordinate: Coordinate?
    /// The picked place, kept as `PlaceSearch` encoded it; never filtered or sorted on.
    public var place: PlaceIdentifier?

    public init(name: String, coordinate: Coordinate? = nil, place: PlaceIdentifier? = nil) {
        self.name = name
        self.coordinate = coordinate
        self.place = place
    }

    /// The destination of a place found by `PlaceSearch`.
    public init(_ place: Place) {
        self.init(name: place.label, coordinate: place.coordinate, place: place.identifier)
    }

    /// The columns `init(row:)` reads (with `Trip.selection`).
    static let selection = "Trip.destination, Trip.latitude, Trip.longitude, Trip.place"

    init?(row: Row) throws {
        guard let name: String = try row.decode("destination") else { return nil }
        let latitude: Double? = try row.decode("latitude")
        let longitude: Double? = try row.decode("longitude")
        self.name = name
        coordinate = zip(latitude, longitude).map { Coordinate(latitude: $0, longitude: $1) }
        // A place stored in a shape this version cannot read is dropped, not the trip with it.
        place = (try? row.decode("place", as: CodableAttribute<PlaceIdentifier>?.self))??.value
    }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
