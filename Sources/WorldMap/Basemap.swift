import Foundation
import Places

/// The land a map is drawn over: polygon rings in degrees, as `scripts/make-basemap.py` writes
/// them (one ring a line, `NAME<TAB>lon,lat lon,lat …`).
public struct Basemap: Sendable {
    public struct Ring: Sendable {
        public let name: String
        /// Longitude, latitude pairs.
        public let points: [(longitude: Double, latitude: Double)]
        let west, east, south, north: Double
    }

    public let rings: [Ring]

    /// Natural Earth's 1:110m countries, read once from the target's resources.
    public static let naturalEarth110m: Basemap = {
        guard let url = Bundle.module.url(forResource: "countries-110m", withExtension: "txt"),
              let basemap = try? Basemap(contentsOf: url) else {
            // Without it the map still shows its pins (over the sea).
            return Basemap(rings: [])
        }
        return basemap
    }()

    init(rings: [Ring]) {
        self.rings = rings
    }

    public init(contentsOf url: URL) throws {
        try self.init(text: String(contentsOf: url, encoding: .utf8))
    }

    public init(text: String) throws {
        rings = try text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t")
            guard fields.count == 2 else { throw BasemapError.malformedLine(String(line.prefix(40))) }
            let points = try fields[1].split(separator: " ").map { pair in
                let values = pair.split(separator: ",").compactMap { Double($0) }
                guard values.count == 2 else { throw BasemapError.malformedLine(String(line.prefix(40))) }
                return (longitude: values[0], latitude: values[1])
            }
            let longitudes = points.map(\.longitude), latitudes = points.map(\.latitude)
            return Ring(name: String(fields[0]), points: points,
                        west: longitudes.min() ?? 0, east: longitudes.max() ?? 0,
                        south: latitudes.min() ?? 0, north: latitudes.max() ?? 0)
        }
    }
}

public enum BasemapError: Error, Equatable {
    case malformedLine(String)
}
