import Places

/// The part of the world a map shows, in degrees. `west` is in -180..<180; `east` is greater and
/// may pass 180 when the view crosses the antimeridian (Hawaii to Japan: west 139, east 205).
/// Always twice as wide as high, the shape the map is drawn in (equirectangular).
public struct MapBounds: Hashable, Sendable {
    public let west: Double
    public let east: Double
    public let south: Double
    public let north: Double

    public var width: Double { east - west }
    public var height: Double { north - south }

    /// Width over height of every bounds made here.
    public static let aspectRatio = 2.0
    public static let world = MapBounds(west: -180, east: 180, south: -90, north: 90)
    /// The view around a single pin: a region, a few hundred kilometres each side.
    static let singlePinWidth = 16.0
    /// Room around the pins, as a share of their extent (each side), within these degrees.
    static let paddingShare = 0.15
    static let paddingRange = 2.0...10.0

    init(west: Double, east: Double, south: Double, north: Double) {
        self.west = west
        self.east = east
        self.south = south
        self.north = north
    }

    /// The smallest view that shows every coordinate with padding: none shows the world, one a
    /// region around it. Longitudes are spanned the short way round, across the antimeridian
    /// when that is shorter.
    public static func fitting(_ coordinates: [Coordinate]) -> MapBounds {
        guard !coordinates.isEmpty else { return world }
        let (west, span) = shortestLongitudeSpan(coordinates.map(\.longitude))
        let south = coordinates.map(\.latitude).min()!, north = coordinates.map(\.latitude).max()!
        if span == 0, south == north {
            let center = Coordinate(latitude: south, longitude: west)
            return shaped(west: center.longitude - singlePinWidth / 2, width: singlePinWidth,
                          centerLatitude: center.latitude, height: singlePinWidth / aspectRatio)
        }
        let horizontal = padding(for: span), vertical = padding(for: north - south)
        return shaped(west: west - horizontal, width: span + 2 * horizontal,
                      centerLatitude: (south + north) / 2, height: north - south + 2 * vertical)
    }

    static func padding(for extent: Double) -> Double {
        min(max(extent * paddingShare, paddingRange.lowerBound), paddingRange.upperBound)
    }

    /// The west edge and width of the shortest arc holding all longitudes: the complement of
    /// the widest gap between neighbours around the circle.
    static func shortestLongitudeSpan(_ longitudes: [Double]) -> (west: Double, span: Double) {
        let sorted = longitudes.sorted()
        // The gap from the last longitude round to the first (through the antimeridian).
        var widestGap = sorted.first! + 360 - sorted.last!
        var west = sorted.first!
        for (previous, next) in zip(sorted, sorted.dropFirst()) where next - previous > widestGap {
            widestGap = next - previous
            west = next
        }
        return (west, 360 - widestGap)
    }

    /// Widened or heightened about its centre to the aspect ratio, at most the whole world,
    /// slid inside the poles.
    static func shaped(west: Double, width: Double, centerLatitude: Double, height: Double) -> MapBounds {
        let shapedWidth = max(width, height * aspectRatio)
        guard shapedWidth < 360 else { return world }
        let shapedHeight = shapedWidth / aspectRatio
        let south = min(max(centerLatitude - shapedHeight / 2, -90), 90 - shapedHeight)
        var shapedWest = west - (shapedWidth - width) / 2
        if shapedWest < -180 { shapedWest += 360 }
        if shapedWest >= 180 { shapedWest -= 360 }
        return MapBounds(west: shapedWest, east: shapedWest + shapedWidth, south: south, north: south + shapedHeight)
    }
}
