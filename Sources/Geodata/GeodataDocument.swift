import CGDAL
import Foundation

/// A named point on the earth (WGS84 degrees), as map apps and GPS units take them.
public struct Waypoint: Hashable, Sendable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// An absolute URL that the point links to.
    public var link: String?
    public var description: String?
    /// The first and last day of what happens there (GPX carries the first alone, as the point's `time`).
    public var startDate: GeodataDay?
    public var endDate: GeodataDay?

    public init(name: String, latitude: Double, longitude: Double, link: String? = nil, description: String? = nil,
                startDate: GeodataDay? = nil, endDate: GeodataDay? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.link = link
        self.description = description
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// A day without time or zone, written `YYYY-MM-DD` (in GPX, that day's first moment).
public struct GeodataDay: Hashable, Sendable {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    var text: String { String(format: "%04d-%02d-%02d", year, month, day) }
}

/// The file formats waypoints are written in, each by its GDAL/OGR driver.
public enum GeodataFormat: String, CaseIterable, Hashable, Sendable {
    /// GPX 1.1 `<wpt>` elements (`name`, `desc`, `link href`, `time`).
    case gpx
    /// KML 2.2 placemarks (`name`, `description`; the link and dates as extended data `link`,
    /// `startDate`, `endDate`).
    case kml
    /// GeoJSON (RFC 7946) point features with `name`, `description`, `link`, `startDate` and
    /// `endDate` properties.
    case geojson

    public var fileExtension: String { rawValue }

    public var mediaType: String {
        switch self {
        case .gpx: "application/gpx+xml"
        case .kml: "application/vnd.google-earth.kml+xml"
        case .geojson: "application/geo+json"
        }
    }

    /// The OGR driver that writes it.
    var driverName: String {
        switch self {
        case .gpx: "GPX"
        case .kml: "KML"
        case .geojson: "GeoJSON"
        }
    }

    /// `text` as this format can carry it: XML 1.0 has no place for the C0 controls but tab,
    /// line feed and carriage return, nor for U+FFFE and U+FFFF, and GDAL's drivers escape markup
    /// but pass these through, so one such name made the whole file unreadable. Each becomes U+FFFD.
    func carried(_ text: String) -> String {
        guard self != .geojson, text.unicodeScalars.contains(where: Self.isOutsideXML) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { Self.isOutsideXML($0) ? "\u{FFFD}" : $0 }))
    }

    private static func isOutsideXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: false
        case 0..<0x20, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// The OGR field each of a waypoint's texts goes into (nil: the format has none). GPX has a
    /// fixed schema of its own; KML takes `name` and `description` as the placemark's own, any
    /// other field as extended data.
    var fields: (name: String, description: String, link: String, startDate: String, endDate: String?) {
        switch self {
        case .gpx: ("name", "desc", "link1_href", "time", nil)
        case .kml, .geojson: ("name", "description", "link", "startDate", "endDate")
        }
    }
}

/// GDAL could not write a document; its own message.
public struct GeodataError: Error, CustomStringConvertible {
    public let description: String
}

/// A document of waypoints written by GDAL/OGR's drivers into an in-memory file (`/vsimem/`),
/// whose bytes are taken back: the drivers escape the text (XML or JSON) and order the
/// coordinates as each format says. Safe from any thread: every call has its own dataset and file.
public enum GeodataDocument {
    /// The bytes of `waypoints` in `format`, one layer named `layerName`.
    public static func encode(_ waypoints: [Waypoint], as format: GeodataFormat, layerName: String = "waypoints") throws -> [UInt8] {
        _ = driversRegistered
        // GDAL's error handler stack is per thread: its messages come back as thrown errors, not on stderr.
        CPLPushErrorHandler(CPLQuietErrorHandler)
        defer { CPLPopErrorHandler() }
        CPLErrorReset()

        let path = "/vsimem/geodata-\(UUID().uuidString).\(format.fileExtension)"
        defer { VSIUnlink(path) }  // whatever was left after a failure (the success path has seized it)
        guard let driver = GDALGetDriverByName(format.driverName) else { throw lastError("no \(format.driverName) driver") }
        guard let dataset = GDALCreate(driver, path, 0, 0, 0, GDT_Unknown, nil) else { throw lastError("cannot create the document") }
        do {
            try write(waypoints, format: format, layerName: layerName, into: dataset)
        } catch {
            GDALClose(dataset)
            throw error
        }
        // Closing writes what the driver still holds (a KML's or GPX's closing tags). GDAL 3.6's
        // GDALClose returns nothing: a failure is its last error.
        CPLErrorReset()
        GDALClose(dataset)
        guard CPLGetLastErrorType().rawValue < CE_Failure.rawValue else { throw lastError("cannot finish the document") }
        var length: vsi_l_offset = 0
        guard let buffer = VSIGetMemFileBuffer(path, &length, 1) else { throw lastError("the document was not written") }
        defer { VSIFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }

    private static func write(_ waypoints: [Waypoint], format: GeodataFormat, layerName: String, into dataset: GDALDatasetH) throws {
        let wgs84 = OSRNewSpatialReference(nil)
        defer { OSRRelease(wgs84) }
        guard OSRSetWellKnownGeogCS(wgs84, "WGS84") == OGRERR_NONE else { throw lastError("no WGS84") }
        // x is the longitude, as the formats write it (GDAL 3's EPSG:4326 puts the latitude first).
        OSRSetAxisMappingStrategy(wgs84, OAMS_TRADITIONAL_GIS_ORDER)

        let options = format == .geojson ? CSLSetNameValue(nil, "RFC7946", "YES") : nil
        defer { CSLDestroy(options) }
        guard let layer = GDALDatasetCreateLayer(dataset, format.carried(layerName), wgs84, wkbPoint, options) else {
            throw lastError("cannot create the layer")
        }
        let fields = format.fields
        let names = [fields.name, fields.description, fields.link, fields.startDate, fields.endDate]
        if format != .gpx {
            for name in names.compactMap(\.self) {
                let field = OGR_Fld_Create(name, OFTString)
                defer { OGR_Fld_Destroy(field) }
                guard OGR_L_CreateField(layer, field, 1) == OGRERR_NONE else { throw lastError("cannot add the field \(name)") }
            }
        }
        let definition = OGR_L_GetLayerDefn(layer)
        // Each field's index, in the order of `names`.
        let indices = names.map { name in name.map { OGR_FD_GetFieldIndex(definition, $0) } }
        guard indices.allSatisfy({ ($0 ?? 0) >= 0 }) else { throw GeodataError(description: "the layer lacks a field") }

        for waypoint in waypoints {
            let feature = OGR_F_Create(definition)
            defer { OGR_F_Destroy(feature) }
            // A date as text: GPX's `time` field reads it as that day's first moment.
            let values = [waypoint.name, waypoint.description, waypoint.link, waypoint.startDate?.text, waypoint.endDate?.text]
            for (index, value) in zip(indices, values) {
                if let index, let value { OGR_F_SetFieldString(feature, index, format.carried(value)) }
            }
            let point = OGR_G_CreateGeometry(wkbPoint)
            OGR_G_SetPoint_2D(point, 0, waypoint.longitude, waypoint.latitude)
            OGR_G_AssignSpatialReference(point, wgs84)
            OGR_F_SetGeometryDirectly(feature, point)  // the feature owns it from here
            guard OGR_L_CreateFeature(layer, feature) == OGRERR_NONE else { throw lastError("cannot write \(waypoint.name)") }
        }
    }

    /// Every driver, registered once for the process (a Swift global is initialised once, thread-safely).
    private static let driversRegistered: Void = GDALAllRegister()

    private static func lastError(_ context: String) -> GeodataError {
        let message = String(cString: CPLGetLastErrorMsg())
        return GeodataError(description: message.isEmpty ? context : "\(context): \(message)")
    }
}
