import CGDAL
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Geodata

/// What GDAL writes for each format, read back by OGR itself (by the driver that reads the
/// format, from the bytes alone): the features, their names, links and coordinates. Reading
/// with a separate program (`ogrinfo`) is in Tests/Browser/test_exports.py.
@Suite(.serialized) struct GeodataDocumentTests {
    static let waypoints = [
        Waypoint(name: #"Kyoto "temples" & <gardens>"#, latitude: 35.02107, longitude: 135.75385,
                 link: "http://localhost:8080/trips/1", description: "Kyoto, Japan"),
        Waypoint(name: "Café 🏄 Águas", latitude: -22.90642, longitude: -43.18223, link: "http://localhost:8080/trips/2"),
        Waypoint(name: "Nowhere in particular", latitude: 0, longitude: -179.5),
    ]

    /// One feature as OGR reads it back.
    struct ReadFeature: Equatable {
        var name: String?
        var description: String?
        var link: String?
        var longitude: Double
        var latitude: Double
    }

    /// The features of the one layer that holds points (a GPX file has five layers, waypoints first).
    static func read(_ bytes: [UInt8], as format: GeodataFormat) throws -> (layerCount: Int, features: [ReadFeature]) {
        let path = "/vsimem/read-\(UUID().uuidString).\(format.fileExtension)"
        let copy = VSIMalloc(bytes.count)!
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        VSIFCloseL(VSIFileFromMemBuffer(path, copy.assumingMemoryBound(to: GByte.self), vsi_l_offset(bytes.count), 1))
        defer { VSIUnlink(path) }
        // LIBKML reads a KML's extended data (the link), as ogrinfo does; OGR's own KML reader does not.
        let drivers = CSLAddString(nil, format == .gpx ? "GPX" : format == .kml ? "LIBKML" : "GeoJSON")
        defer { CSLDestroy(drivers) }
        guard let dataset = GDALOpenEx(path, UInt32(GDAL_OF_VECTOR | GDAL_OF_READONLY), UnsafePointer(OpaquePointer(drivers)), nil, nil) else {
            throw GeodataError(description: "OGR cannot read it: \(String(cString: CPLGetLastErrorMsg()))")
        }
        defer { GDALClose(dataset) }
        let layer = GDALDatasetGetLayer(dataset, 0)!
        let fields = format.fields
        var features: [ReadFeature] = []
        OGR_L_ResetReading(layer)
        while let feature = OGR_L_GetNextFeature(layer) {
            defer { OGR_F_Destroy(feature) }
            func text(_ field: String) -> String? {
                let index = OGR_F_GetFieldIndex(feature, field)
                guard index >= 0, OGR_F_IsFieldSetAndNotNull(feature, index) != 0 else { return nil }
                return String(cString: OGR_F_GetFieldAsString(feature, index))
            }
            let point = OGR_F_GetGeometryRef(feature)
            features.append(ReadFeature(name: text(fields.name), description: text(fields.description), link: text(fields.link),
                                        longitude: OGR_G_GetX(point, 0), latitude: OGR_G_GetY(point, 0)))
        }
        return (Int(GDALDatasetGetLayerCount(dataset)), features)
    }

    @Test(arguments: GeodataFormat.allCases)
    func everyWaypointReadsBackWithItsNameLinkAndPosition(format: GeodataFormat) throws {
        let bytes = try GeodataDocument.encode(Self.waypoints, as: format)
        let (_, features) = try Self.read(bytes, as: format)
        #expect(features.count == Self.waypoints.count)
        for (waypoint, feature) in zip(Self.waypoints, features) {
            #expect(feature.name == waypoint.name)
            #expect(feature.link == waypoint.link)
            #expect(feature.description == waypoint.description)
            #expect(abs(feature.latitude - waypoint.latitude) < 1e-6, "\(waypoint.name)")
            #expect(abs(feature.longitude - waypoint.longitude) < 1e-6, "\(waypoint.name)")
        }
    }

    @Test func eachFormatIsWhatItsTypeSays() throws {
        let gpx = String(decoding: try GeodataDocument.encode(Self.waypoints, as: .gpx), as: UTF8.self)
        #expect(gpx.contains(#"<gpx version="1.1""#))
        #expect(gpx.contains(#"<wpt lat="35.02107" lon="135.75385">"#), "latitude and longitude not swapped")
        #expect(gpx.contains("<name>Kyoto &quot;temples&quot; &amp; &lt;gardens&gt;</name>"))
        #expect(gpx.contains(#"<link href="http://localhost:8080/trips/1">"#))

        let kml = String(decoding: try GeodataDocument.encode(Self.waypoints, as: .kml), as: UTF8.self)
        #expect(kml.contains("<kml xmlns=\"http://www.opengis.net/kml/2.2\">"))
        #expect(kml.contains("<coordinates>135.75385,35.02107</coordinates>"), "KML is longitude first")

        let json = try JSONSerialization.jsonObject(with: Data(try GeodataDocument.encode(Self.waypoints, as: .geojson))) as? [String: Any]
        let features = json?["features"] as? [[String: Any]]
        let geometry = features?.first?["geometry"] as? [String: Any]
        #expect(json?["type"] as? String == "FeatureCollection")
        #expect(geometry?["coordinates"] as? [Double] == [135.75385, 35.02107], "GeoJSON is longitude first")
        #expect((features?[1]["properties"] as? [String: Any])?["name"] as? String == "Café 🏄 Águas")

        #expect(GeodataFormat.gpx.mediaType == "application/gpx+xml")
        #expect(GeodataFormat.kml.mediaType == "application/vnd.google-earth.kml+xml")
        #expect(GeodataFormat.geojson.mediaType == "application/geo+json")
    }

    /// A waypoint's days: GPX's `time` (its first day; GPX has no end), KML's extended data and
    /// GeoJSON's properties `startDate` and `endDate`, each read back by OGR; none where it has none.
    @Test func aWaypointsDatesAreWrittenInEachFormat() throws {
        let dated = Waypoint(name: "Kyoto", latitude: 35, longitude: 135, startDate: GeodataDay(year: 2027, month: 3, day: 28),
                             endDate: GeodataDay(year: 2027, month: 4, day: 2))
        let undated = Waypoint(name: "Someday", latitude: 1, longitude: 2)
        let gpx = String(decoding: try GeodataDocument.encode([dated, undated], as: .gpx), as: UTF8.self)
        #expect(gpx.contains("<time>2027-03-28T00:00:00"), "\(gpx)")
        #expect(gpx.components(separatedBy: "<time>").count == 2, "the undated point has none")

        let json = try JSONSerialization.jsonObject(with: Data(try GeodataDocument.encode([dated, undated], as: .geojson))) as? [String: Any]
        let properties = (json?["features"] as? [[String: Any]])?.map { $0["properties"] as? [String: Any] ?? [:] }
        #expect(properties?.first?["startDate"] as? String == "2027-03-28")
        #expect(properties?.first?["endDate"] as? String == "2027-04-02")
        #expect(properties?.last?["startDate"] == nil || properties?.last?["startDate"] is NSNull)

        let kml = String(decoding: try GeodataDocument.encode([dated], as: .kml), as: UTF8.self)
        #expect(kml.contains(#"<SimpleData name="startDate">2027-03-28</SimpleData>"#) && kml.contains(#"<SimpleData name="endDate">2027-04-02</SimpleData>"#))
    }

    /// A trip stored before names refused noncharacters made every all-trips download ill-formed:
    /// the drivers escape markup, not the characters XML 1.0 has no place for.
    @Test(arguments: [GeodataFormat.gpx, .kml])
    func charactersXMLCannotCarryStillMakeAWellFormedDocument(format: GeodataFormat) throws {
        let waypoint = Waypoint(name: "Odd \u{FFFE}\u{FFFF}\u{1}\u{1B} name\tend", latitude: 1, longitude: 2,
                                link: "http://localhost:8080/trips/9", description: "note \u{FFFF} here")
        let bytes = try GeodataDocument.encode([waypoint], as: format, layerName: "Trips \u{FFFE}")
        let parser = XMLParser(data: Data(bytes))
        #expect(parser.parse(), "libxml2 reads it: \(parser.parserError.map { "\($0)" } ?? "")")
        let feature = try #require(try Self.read(bytes, as: format).features.first)
        #expect(feature.name == "Odd \u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD} name\tend")
        #expect(feature.description == "note \u{FFFD} here")
    }

    @Test(arguments: GeodataFormat.allCases)
    func noWaypointsIsAnEmptyDocumentOGRStillReads(format: GeodataFormat) throws {
        let bytes = try GeodataDocument.encode([], as: format)
        #expect(try Self.read(bytes, as: format).features.isEmpty)
    }

    /// Each call has its own in-memory file, unlinked after: many at once neither mix nor leave files
    /// behind (the suite is serialized so that no other test holds one meanwhile).
    @Test func concurrentDocumentsStayApartAndLeaveNoFiles() async throws {
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for index in 0..<24 {
                group.addTask {
                    let waypoint = Waypoint(name: "Place \(index)", latitude: Double(index), longitude: Double(-index))
                    return (index, try GeodataDocument.encode([waypoint], as: GeodataFormat.allCases[index % 3]))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for (index, bytes) in results {
            let features = try Self.read(bytes, as: GeodataFormat.allCases[index % 3]).features
            #expect(features.map(\.name) == ["Place \(index)"])
            #expect(features.first?.latitude == Double(index))
        }
        let left = VSIReadDir("/vsimem/")
        defer { CSLDestroy(left) }
        #expect(CSLCount(left) == 0, "every /vsimem/ file unlinked")
    }
}
