import Foundation
import Places

/// A point to mark on the map, and where it leads.
public struct MapPin: Hashable, Sendable {
    public var coordinate: Coordinate
    public var label: String
    public var href: String
    /// How many things the pin stands for: more than one for a cluster.
    public var count: Int

    public init(coordinate: Coordinate, label: String, href: String, count: Int = 1) {
        self.coordinate = coordinate
        self.label = label
        self.href = href
        self.count = count
    }
}

/// A pin placed in the drawing's coordinates (x = longitude, y = -latitude; shifted by 360
/// when the view crosses the antimeridian).
public struct PlacedPin: Hashable, Sendable {
    public let pin: MapPin
    public let x: Double
    public let y: Double
}

/// What an SVG map shows, ready for a template: the `viewBox` of the bounds, the land as path
/// data simplified for the zoom, and the pins. Equirectangular: one unit is one degree.
public struct MapDrawing: Sendable {
    public let bounds: MapBounds
    public let landPaths: [String]
    public let pins: [PlacedPin]
    /// A pin's radius in drawing units: about the same size on screen at every zoom.
    public let pinRadius: Double

    /// Past this many pins, pins sharing a cell of a `clusterColumns`-wide grid over the view
    /// become one pin with their count: the drawing stays the same size however many there are.
    public static let pinLimit = 500
    static let clusterColumns = 32.0

    /// Fits `pins` (see `MapBounds.fitting`) and simplifies `basemap` for that view.
    public init(basemap: Basemap, pins: [MapPin]) {
        let bounds = MapBounds.fitting(pins.map(\.coordinate))
        let pins = pins.count > Self.pinLimit ? Self.clustered(pins, in: bounds) : pins
        self.bounds = bounds
        // Detail finer than about a 600th of the view's width would not show.
        let tolerance = bounds.width / 600
        pinRadius = bounds.width / 80
        let shifts = bounds.east > 180 ? [0.0, 360] : [0.0]
        landPaths = shifts.flatMap { shift in
            basemap.rings.compactMap { ring in Self.path(of: ring, shiftedBy: shift, in: bounds, tolerance: tolerance) }
        }
        self.pins = pins.map { pin in
            let longitude = pin.coordinate.longitude
            return PlacedPin(pin: pin, x: longitude < bounds.west ? longitude + 360 : longitude, y: -pin.coordinate.latitude)
        }
    }

    /// One pin per grid cell, at the first pin's place, with its label and link and the cell's total count.
    static func clustered(_ pins: [MapPin], in bounds: MapBounds) -> [MapPin] {
        let cell = bounds.width / clusterColumns
        var clusters: [Int: MapPin] = [:]
        var order: [Int] = []
        for pin in pins {
            var longitude = pin.coordinate.longitude
            if longitude < bounds.west { longitude += 360 }
            let column = Int(((longitude - bounds.west) / cell).rounded(.down))
            let row = Int(((bounds.north - pin.coordinate.latitude) / cell).rounded(.down))
            let key = row * 1_000 + column
            if clusters[key] == nil { order.append(key) }
            clusters[key, default: MapPin(coordinate: pin.coordinate, label: pin.label, href: pin.href, count: 0)].count += pin.count
        }
        return order.map { clusters[$0]! }
    }

    /// `x y width height` of the bounds.
    public var viewBox: String {
        [bounds.west, -bounds.north, bounds.width, bounds.height].map(Self.format).joined(separator: " ")
    }

    /// The ring as path data, nil when it is outside the view or too small to see. Points
    /// closer than `tolerance` to the last one kept are dropped.
    static func path(of ring: Basemap.Ring, shiftedBy shift: Double, in bounds: MapBounds, tolerance: Double) -> String? {
        guard ring.east + shift >= bounds.west, ring.west + shift <= bounds.east,
              ring.north >= bounds.south, ring.south <= bounds.north,
              max(ring.east - ring.west, ring.north - ring.south) >= tolerance else { return nil }
        var kept: [(Double, Double)] = []
        for point in ring.points {
            let x = point.longitude + shift, y = -point.latitude
            if let last = kept.last, abs(x - last.0) < tolerance, abs(y - last.1) < tolerance { continue }
            kept.append((x, y))
        }
        guard kept.count >= 3 else { return nil }
        return "M" + kept.map { "\(format($0.0)) \(format($0.1))" }.joined(separator: "L") + "Z"
    }

    /// A drawing coordinate as SVG text: two decimals (about a kilometre), no trailing zeros.
    public static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
