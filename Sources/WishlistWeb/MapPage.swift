import HTTPServer
import Mustache
import Places
import WishlistCore
import WorldMap

/// The Map tab (`/map`): every trip with a place as a pin over an offline world map, drawn
/// server-side as SVG, fitted to the pins, and refitted live when trips change. Beside it, the
/// same pins as a list of links: the way in for keyboards and screen readers (the drawing's
/// pins are for pointers and stay out of the tab order).
struct MapPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        let map = MapFragment()
        router.page("/map") { request in
            try app.pages.cached(request, read: map.read(in:)) { shown in
                var fragments = app.pages.fragmentPlaces()
                let context = ["map": try fragments.place(shown)]
                return try app.pages.render("map", for: request, tab: .map, liveTopics: [map.topic], fragments: fragments, context)
            }
        }
    }
}

/// Every positioned trip (grouped per position past `MapQueries.tripPinLimit`), drawn.
struct MapFragment: Fragment {
    var topic: LiveTopic { .map }
    var query: WishlistQuery<[TripPosition]> { .tripPositions }
    func view(_ positions: [TripPosition]) -> MapView? { MapView(positions: positions) }
}

struct MapView: FragmentView {
    static let partial = "partials/map"
    /// The list beside the map names at most this many pins; the drawing shows them all (clustered).
    static let listLimit = 200
    let positions: [TripPosition]
    var elementID: String { "trip-map" }

    var mustacheValue: MustacheValue {
        let places = MapPlace.grouping(positions)
        let pins = places.map { place in
            MapPin(coordinate: place.coordinate, label: place.label, href: place.href, count: place.tripCount)
        }
        let drawing = MapDrawing(basemap: .naturalEarth110m, pins: pins)
        let tripCount = places.reduce(0) { $0 + $1.tripCount }
        var fields: [String: MustacheValue] = [
            "viewBox": .string(drawing.viewBox),
            "land": .array(drawing.landPaths.map { .string($0) }),
            "pinRadius": .string(MapDrawing.format(drawing.pinRadius)),
            "strokeWidth": .string(MapDrawing.format(drawing.pinRadius / 3)),
            "pins": .array(drawing.pins.map { placed in
                ["x": .string(MapDrawing.format(placed.x)), "y": .string(MapDrawing.format(placed.y)),
                 "href": .string(placed.pin.href), "label": .string(placed.pin.label),
                 "countText": placed.pin.count > 1 ? .string(String(placed.pin.count)) : .null]
            }),
            "list": .array(places.prefix(Self.listLimit).map(\.listEntry)),
            "hasPins": .bool(!places.isEmpty),
            "summary": .string(tripCount == 1 ? "1 trip on the map" : "\(tripCount) trips on the map"),
            "downloads": .array(([("All trips", TripScope.all)] + TripCollection.allCases.map { ($0.title, .collection($0)) })
                .map { title, scope in ["title": .string(title), "files": PlaceExportRoutes.linkValues(scope)] }),
        ]
        if places.count > Self.listLimit {
            fields["listNote"] = .string("The list names the first \(Self.listLimit) of \(places.count) places; the map shows them all.")
        }
        return object(fields)
    }
}

/// The trips at one position: one pin on the map with their count. Several trips known by name
/// open as a list beside the map (the pin links to it); a group the query counted without
/// naming (past `MapQueries.tripPinLimit`) links to a search of its place.
struct MapPlace {
    let positions: [TripPosition]

    static func grouping(_ positions: [TripPosition]) -> [MapPlace] {
        var order: [Coordinate] = []
        var byCoordinate: [Coordinate: [TripPosition]] = [:]
        for position in positions {
            if byCoordinate[position.coordinate] == nil { order.append(position.coordinate) }
            byCoordinate[position.coordinate, default: []].append(position)
        }
        return order.map { MapPlace(positions: byCoordinate[$0]!) }
    }

    var coordinate: Coordinate { positions[0].coordinate }
    var tripCount: Int { positions.reduce(0) { $0 + $1.tripCount } }
    private var first: TripPosition { positions[0] }
    /// Named by its lowest trip id, which a change of dates does not move.
    private var anchor: String { "place-\(positions.map(\.tripID).min()!)" }

    /// "Kyoto trip · Kyoto, Japan", or for several "12 trips · Kyoto, Japan".
    var label: String {
        let destination = first.destination ?? ""
        if tripCount > 1 { return "\(tripCount) trips · \(destination)" }
        return destination.isEmpty ? first.name : "\(first.name) · \(destination)"
    }

    var href: String {
        if positions.count > 1 { return "#\(anchor)" }
        return first.tripCount == 1 ? "/trips/\(first.tripID)" : searchURL
    }

    var listEntry: MustacheValue {
        var entry: [String: MustacheValue] = ["href": .string(href), "label": .string(label)]
        if positions.count > 1 {
            entry["group"] = ["anchor": .string(anchor), "trips": .array(positions.map { position in
                ["href": .string("/trips/\(position.tripID)"), "name": .string(position.name)]
            })]
        }
        return .object(entry)
    }

    private var searchURL: String {
        "/search?q=\(ShownPages.encoded(first.destination ?? first.name))"
    }
}
