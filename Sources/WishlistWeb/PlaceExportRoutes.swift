import Geodata
import HTTPServer
import Mustache
import WishlistCore

/// The trips' places for map apps and GPS units, written by GDAL/OGR (`Geodata`) as GPX
/// waypoints, KML placemarks or GeoJSON points: each trip with a position one feature, named
/// after the trip, described by its destination, with its dates, and linking back to its page.
/// `/map/trips.gpx|.kml|.geojson` every trip (the Map page's pins, none grouped),
/// `/collections/:collection/trips.…` one collection's, `/trips/:id/place.…` one trip's (the file named after it).
/// Read from the map's own query (`tripPositions(in:)`), so a file holds what the map shows.
struct PlaceExportRoutes {
    let app: WishlistApp

    func register(on router: inout Router) {
        for format in GeodataFormat.allCases {
            let file = "." + format.fileExtension
            router.get("/map/trips" + file) { request in
                try export(.all, as: format, for: request)
            }
            router.get("/collections/:collection/trips" + file) { request in
                guard let collection = request.parameters["collection"].flatMap(TripCollection.init(rawValue:)) else {
                    throw HTTPError(.notFound, "There is no such collection. The four are Spring Escapes, Summer Vibes, Fall Getaways and Winter Retreats.")
                }
                return try export(.collection(collection), as: format, for: request)
            }
            router.get("/trips/:id/place" + file) { request in
                let id = try RecordID(request.parameters["id"], entity: "trip").value
                return try export(.trip(id), as: format, for: request)
            }
        }
    }

    /// `scope`'s downloads for a template, one per format: `href` and `label` ("GPX").
    static func linkValues(_ scope: TripScope) -> MustacheValue {
        let path = switch scope {
        case .all: "/map/trips"
        case .collection(let collection): "/collections/\(collection.rawValue)/trips"
        case .trip(let id): "/trips/\(id)/place"
        }
        return .array(GeodataFormat.allCases.map { format in
            ["href": .string(path + "." + format.fileExtension), "label": .string(label(format))]
        })
    }

    private static func label(_ format: GeodataFormat) -> String {
        switch format {
        case .gpx: "GPX"
        case .kml: "KML"
        case .geojson: "GeoJSON"
        }
    }

    private func export(_ scope: TripScope, as format: GeodataFormat, for request: Request) throws -> Response {
        let (positions, disposition) = try app.store.read { snapshot in
            let positions = try snapshot.fetch(.tripPositions(in: scope))  // first: it is the one that finds no trip
            return (positions, try Self.attachment(scope, format, in: snapshot))
        }
        let origin = request.origin
        let waypoints = positions.map { position in
            Waypoint(name: position.name, latitude: position.coordinate.latitude, longitude: position.coordinate.longitude,
                     link: origin + "/trips/\(position.tripID)", description: position.destination,
                     startDate: position.startDate.map(Self.day), endDate: position.endDate.map(Self.day))
        }
        var response = Response(body: .bytes(try GeodataDocument.encode(waypoints, as: format, layerName: "trips")))
        response.headers["Content-Type"] = format.mediaType
        response.headers["Content-Disposition"] = disposition
        response.headers["Cache-Control"] = "private, no-cache"
        return response
    }

    /// One trip's file is named after it (the positions' query has made sure it exists); the
    /// others after the app and the collection.
    private static func attachment(_ scope: TripScope, _ format: GeodataFormat, in snapshot: WishlistSnapshot) throws -> String {
        let fixedName: String
        switch scope {
        case .all: fixedName = "wishlist-trips"
        case .collection(let collection): fixedName = "wishlist-\(collection.rawValue)"
        case .trip(let id):
            guard let trip = try snapshot.fetch(.trip(id: id)) else { return "attachment" }
            return TripViews.attachment(trip, fileExtension: format.fileExtension)
        }
        return ContentDisposition.attachment(title: fixedName, fileExtension: format.fileExtension, fallback: fixedName)
    }

    private static func day(_ date: CalendarDate) -> GeodataDay {
        GeodataDay(year: date.year, month: date.month, day: date.day)
    }
}
