import HTTPServer
import Mustache
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
        let pins = positions.map { position in
            MapPin(coordinate: position.coordinate, label: label(position),
                   href: position.tripCount == 1 ? "/trips/\(position.tripID)" : searchURL(position), count: position.tripCount)
        }
        let drawing = MapDrawing(basemap: .naturalEarth110m, pins: pins)
        let tripCount = positions.reduce(0) { $0 + $1.tripCount }
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
            "list": .array(pins.prefix(Self.listLimit).map { pin in
                ["href": .string(pin.href), "label": .string(pin.label)]
            }),
            "hasPins": .bool(!pins.isEmpty),
            "summary": .string(tripCount == 1 ? "1 trip on the map" : "\(tripCount) trips on the map"),
        ]
        if pins.count > Self.listLimit {
            fields["listNote"] = .string("The list names the first \(Self.listLimit) of \(pins.count) places; the map shows them all.")
        }
        return object(fields)
    }

    /// "Kyoto trip · Kyoto, Japan", or for a group "12 trips · Kyoto, Japan".
    private func label(_ position: TripPosition) -> String {
        let destination = position.destination ?? ""
        if position.tripCount > 1 { return "\(position.tripCount) trips · \(destination)" }
        return destination.isEmpty ? position.name : "\(position.name) · \(destination)"
    }

    private func searchURL(_ position: TripPosition) -> String {
        "/search?q=\(ShownPages.encoded(position.destination ?? position.name))"
    }
}
