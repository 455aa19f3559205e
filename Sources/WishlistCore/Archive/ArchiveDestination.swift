import Places

/// Where a trip goes, in a document: the name shown, the position of a picked place, and the
/// gazetteer's identifier of it, an opaque value to copy as it is.
struct ArchiveDestination: Codable, Equatable {
    var name: String
    var latitude: Double?
    var longitude: Double?
    var place: PlaceIdentifier?

    init(_ destination: TripDestination) {
        name = destination.name
        latitude = destination.coordinate?.latitude
        longitude = destination.coordinate?.longitude
        place = destination.place
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeText(forKey: .name)
        latitude = try container.decodeIfPresent(Double.self, forKey: .latitude)
        longitude = try container.decodeIfPresent(Double.self, forKey: .longitude)
        guard (latitude == nil) == (longitude == nil), coordinate.map(\.isValid) ?? true else {
            throw DecodingError.dataCorruptedError(forKey: latitude == nil ? .latitude : .longitude, in: container,
                debugDescription: "latitude (-90 to 90) and longitude (-180 to 180) must be given together")
        }
        // An identifier of a shape this app cannot read (a newer app's) leaves the trip its name and position.
        place = try? container.decodeIfPresent(PlaceIdentifier.self, forKey: .place)
    }

    private var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    var tripDestination: TripDestination {
        TripDestination(name: name, coordinate: coordinate, place: place)
    }
}
