import Foundation
import Places
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// The places as GPX, KML and GeoJSON downloads over the seeded trips, in process: addresses,
/// types, what each holds, and the links to them. GDAL's own reading of the files is in
/// GeodataTests and, with `ogrinfo`, Tests/Browser/test_exports.py.
@Suite struct PlaceExportTests {
    static let formats = [("gpx", "application/gpx+xml", "<wpt "), ("kml", "application/vnd.google-earth.kml+xml", "<Placemark"),
                          ("geojson", "application/geo+json", #""type": "Feature""#)]

    /// The GeoJSON features' names and links, by name.
    func features(_ reply: Reply) throws -> [String: String] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: features.map { feature in
            let properties = feature["properties"] as? [String: Any]
            return (properties?["name"] as? String ?? "", properties?["link"] as? String ?? "")
        })
    }

    @Test(arguments: formats)
    func everyScopeIsADownloadOfItsType(format: (ext: String, type: String, feature: String)) throws {
        let fixture = try AppHarness()
        defer { fixture.stop() }
        let kyoto = try fixture.trip(named: "Japan Mystique")
        let summer = try fixture.store.trips(in: .summerVibes).filter { $0.destination?.coordinate != nil }
        for (path, count, file) in [("/map/trips", 12, "wishlist-trips"), ("/collections/summerVibes/trips", summer.count, "wishlist-summerVibes"),
                                    ("/trips/\(kyoto.id)/place", 1, "Japan-Mystique")] {
            let reply = try fixture.client.get(path + "." + format.ext)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.header("Content-Type") == format.type)
            #expect(reply.header("Content-Disposition") == "attachment; filename=\"\(file).\(format.ext)\"")
            #expect(reply.header("Cache-Control") == "private, no-cache")
            #expect(reply.text.components(separatedBy: format.feature).count - 1 == count, "\(path).\(format.ext)")
        }
        #expect(summer.count > 1 && summer.count < 12, "the collection is a part of the trips")
    }

    @Test func eachFeatureIsATripNamedAndLinkedBack() throws {
        let fixture = try AppHarness()
        defer { fixture.stop() }
        let summer = try fixture.store.trips(in: .summerVibes).filter { $0.destination?.coordinate != nil }
        let shown = try features(fixture.client.get("/collections/summerVibes/trips.geojson"))
        #expect(Set(shown.keys) == Set(summer.map(\.name)))
        for trip in summer {
            let link = try #require(shown[trip.name])
            #expect(link.hasPrefix("http://") && link.hasSuffix("/trips/\(trip.id)"), "absolute, to the trip")
        }
        #expect(try features(fixture.client.get("/map/trips.geojson")).count == 12)
    }

    @Test func aTripWithoutAPlaceHasNoLinkAndAnEmptyFileAMissingTripIsNotFound() throws {
        let fixture = try AppHarness()
        defer { fixture.stop() }
        let somewhere = try fixture.store.addTrip(TripDraft(name: "Somewhere", collection: .summerVibes))
        let page = try fixture.client.get("/trips/\(somewhere)")
        #expect(!page.text.contains("/place.gpx"))
        #expect(try features(fixture.client.get("/trips/\(somewhere)/place.geojson")).isEmpty)

        for path in ["/trips/9999/place.gpx", "/trips/abc/place.kml", "/collections/monsoon/trips.geojson"] {
            let missing = try fixture.client.get(path)
            #expect(missing.status == 404, "\(path)")
            #expect(missing.text.contains("There is no"), "\(path)")
        }
        try fixture.store.deleteTrip(id: somewhere)
        #expect(try fixture.client.get("/trips/\(somewhere)/place.geojson").status == 404, "deleted")
    }

    @Test func theMapAndATripWithAPlaceLinkTheirDownloads() throws {
        let fixture = try AppHarness()
        defer { fixture.stop() }
        let map = try fixture.client.get("/map").text
        for ext in ["gpx", "kml", "geojson"] {
            #expect(map.contains(#"<a class="text-button" href="/map/trips.\#(ext)" download>"#))
            for collection in TripCollection.allCases {
                #expect(map.contains(#"href="/collections/\#(collection.rawValue)/trips.\#(ext)" download>"#))
            }
        }
        let kyoto = try fixture.trip(named: "Japan Mystique")
        let page = try fixture.client.get("/trips/\(kyoto.id)").text
        #expect(page.contains(#"<a class="text-button" href="/trips/\#(kyoto.id)/place.gpx" download>GPX</a>"#))
        #expect(page.contains(#"href="/trips/\#(kyoto.id)/place.geojson" download>GeoJSON</a>"#))
    }

    /// One trip's downloads are named after it, whatever it is called: its letters and digits
    /// (UTF-8 in `filename*`, folded to ASCII in `filename`), never a quote or a path; a name
    /// with none of them gives `trip-<id>`. Its dates are in the file.
    @Test func aTripsDownloadsAreNamedAfterItAndCarryItsDates() throws {
        let fixture = try AppHarness()
        defer { fixture.stop() }
        let place = TripDestination(name: "Kraków, Poland", coordinate: Coordinate(latitude: 50.06, longitude: 19.94))
        let hostile = try fixture.store.addTrip(TripDraft(name: #"Kraków "old town" ../..\\etc/passwd; 🎉"#, collection: .springEscapes,
                                                          destination: place, startDate: "2027-05-01", endDate: "2027-05-04"))
        let emoji = try fixture.store.addTrip(TripDraft(name: "🎉🏄", collection: .springEscapes, destination: place))
        for file in ["place.gpx", "place.kml", "place.geojson", "calendar.ics"] {
            let ext = file.split(separator: ".")[1]
            let header = try fixture.client.get("/trips/\(hostile)/\(file)").header("Content-Disposition")
            #expect(header == #"attachment; filename="Krakow-old-town-etc-passwd.\#(ext)"; filename*=UTF-8''Krak%C3%B3w-old-town-etc-passwd.\#(ext)"#)
            #expect(try fixture.client.get("/trips/\(emoji)/\(file)").header("Content-Disposition") == #"attachment; filename="trip-\#(emoji).\#(ext)""#)
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fixture.client.get("/trips/\(hostile)/place.geojson").body)) as? [String: Any])
        let properties = try #require((json["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])
        #expect(properties["startDate"] as? String == "2027-05-01" && properties["endDate"] as? String == "2027-05-04")
        #expect(try fixture.client.get("/trips/\(hostile)/place.gpx").text.contains("<time>2027-05-01T00:00:00"))
    }
}
