/// A point on the globe in degrees (WGS 84).
public struct Coordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are on the globe: latitude in -90...90, longitude in -180...180.
    public var isValid: Bool {
        (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }
}

/// Which place a search result was, in a form the caller stores without looking inside: it
/// names the gazetteer and the entry in it. Its shape belongs to this module and may grow; a
/// stored value of an older shape must still decode (missing fields are optional).
public struct PlaceIdentifier: Hashable, Sendable, Codable {
    /// The gazetteer the entry comes from ("geonames").
    public var source: String
    /// The entry's position in libgeonames' city table: fast to resolve, but only valid for the
    /// same table, so `name` and `countryCode` let a newer table find the entry again.
    public var index: Int?
    public var name: String
    public var countryCode: String?

    public init(source: String, index: Int?, name: String, countryCode: String?) {
        self.source = source
        self.index = index
        self.name = name
        self.countryCode = countryCode
    }
}

/// A city found by `PlaceSearch`.
public struct Place: Hashable, Sendable {
    public var identifier: PlaceIdentifier
    public var name: String
    /// The region, state or province; may be empty.
    public var region: String
    public var country: String
    public var countryCode: String
    public var coordinate: Coordinate
    public var population: Int

    /// "Kyoto, Japan": the name a person recognises, unambiguous enough for a list of suggestions.
    public var label: String {
        region.isEmpty || region == name ? "\(name), \(country)" : "\(name), \(region), \(country)"
    }
}
