import CVips
import Foundation
import Glibc
import HTTPServer
import Imaging
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// Photo uploads and photo serving through the real server, middleware and templates, over
/// real sockets, on a fresh data directory.
@Suite struct PhotoRouteTests {
    private let site: LiveServer

    init() throws {
        site = try LiveServer(maxPhotoBytes: 2 * 1024 * 1024)
    }

    @Test func uploadedPhotoShowsAsThumbnailOnTheWishlistAndFullOnTheTripPage() throws {
        let jpeg = try site.photo(seed: 3)
        let reply = try site.postTripForm("/trips", name: "Lisbon Trams", photo: ("lisbon.jpg", jpeg))
        #expect(reply.status == 303 && reply.header("Location") == "/")

        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        #expect(trip.name == "Lisbon Trams")
        let photo = try #require(trip.photo)
        let home = try site.get("/").text
        #expect(home.contains(#"src="/trips/\#(trip.id)/thumbnail?v=\#(photo.version)" srcset="/trips/\#(trip.id)/thumbnail?v=\#(photo.version) 480w, /trips/\#(trip.id)/photo/1024?v=\#(photo.version) 1024w""#),
                "cards and the carousel offer the medium rendition to 2× screens")

        let thumbnail = try site.get("/trips/\(trip.id)/thumbnail?v=\(photo.version)")
        #expect(thumbnail.status == 200)
        #expect(thumbnail.header("Content-Type") == "image/webp")
        #expect(thumbnail.header("Cache-Control") == "private, max-age=31536000, immutable")
        #expect(thumbnail.header("X-Content-Type-Options") == "nosniff")
        #expect(try MediaType.detect(bytes: thumbnail.body) == "image/webp")
        #expect(thumbnail.body.count < 40_000)
        let etag = try #require(thumbnail.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))

        let revalidated = try site.get("/trips/\(trip.id)/thumbnail?v=\(photo.version)", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        #expect(try site.get("/trips/\(trip.id)/thumbnail").header("Cache-Control") == "private, no-cache", "an unversioned URL may change")

        let page = try site.get("/trips/\(trip.id)").text
        let large = "/trips/\(trip.id)/photo/2048?v=\(photo.version)", medium = "/trips/\(trip.id)/photo/1024?v=\(photo.version)"
        #expect(page.contains(#"src="\#(large)" srcset="\#(large) 1600w, \#(medium) 1024w""#), "never enlarged: 1600 px wide")
        #expect(page.contains(#"width="1600" height="1000""#))
        let full = try site.get(large)
        #expect(full.status == 200 && full.header("Content-Type") == "image/jpeg")
        #expect(try MediaType.detect(bytes: full.body) == "image/jpeg" && full.body != jpeg, "a rendition, not the upload")
        #expect(full.header("Cache-Control") == "private, max-age=31536000, immutable")
        #expect(try site.get("/trips/\(trip.id)/photo/2048", headers: ["If-None-Match": full.header("ETag") ?? "?"]).status == 304)
        #expect(try site.get(medium).status == 200)
        #expect(try site.get("/trips/\(trip.id)/photo/4096").status == 404, "only the sizes there are")
    }

    @Test func tripPageShowsAnUprightRenditionWithoutLocationAndOffersTheOriginal() throws {
        let path = try site.phonePhoto()
        let upload = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(String(decoding: upload, as: UTF8.self).contains("Acme Phones"), "the fixture must carry camera EXIF")
        #expect(try Thumbnailer().inspect(path: path).orientation == 6)
        #expect(try site.postTripForm("/trips", name: "Phone photo", photo: ("IMG_0002.JPG", upload)).status == 303)
        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        let page = try site.get("/trips/\(trip.id)").text

        let source = try #require(page.firstMatch(of: /<img src="([^"]+)" srcset/)?.1)
        let shown = try site.get(String(source))
        #expect(shown.status == 200 && shown.header("Content-Type") == "image/jpeg")
        let shownPath = site.directory + "/shown.jpg"
        try Data(shown.body).write(to: URL(fileURLWithPath: shownPath))
        let image = try Thumbnailer().inspect(path: shownPath)  // read back with libvips
        #expect((image.width, image.height, image.orientation) == (1536, 2048, 1), "turned upright, long side 2048")
        let text = String(decoding: shown.body, as: UTF8.self)
        #expect(!text.contains("Exif") && !text.contains("Acme Phones"), "no EXIF at all, so no GPS position")

        let link = try #require(page.firstMatch(of: /<a class="download-original" href="([^"]+)" download>Download original<\/a>/)?.1)
        let original = try site.get(String(link))
        #expect(original.status == 200 && original.header("Content-Type") == "image/jpeg")
        #expect(original.header("Content-Disposition") == "attachment; filename=\"trip-\(trip.id)-photo.jpg\"")
        #expect(original.body == upload, "byte for byte the upload")
    }

    @Test func nonImageGetsTheFormBackWithTheMessageAndTheUsersInput() throws {
        let reply = try site.postTripForm("/trips", name: "Lisbon Trams", subtitle: "Custard tarts",
                                          photo: ("tarts.jpg", Array("not a picture at all\n".utf8)))
        #expect(reply.status == 422)
        // Next to the Photo field (apostrophe HTML-escaped).
        #expect(reply.text.contains(
            #"<p class="field-error" id="new-trip-photo-error">That file isn&#39;t a supported image (JPEG, PNG, WebP, HEIC).</p>"#))
        #expect(reply.text.contains(#"value="Lisbon Trams""#) && reply.text.contains(#"value="Custard tarts""#))
        #expect(try site.store.recentTrips(limit: 20).count == 12)
        #expect(try site.storedFileCount() == 12)
    }

    @Test func oversizeUploadGetsAPageNamingTheLimit() throws {
        let reply = try site.postTripForm("/trips", name: "Too big", photo: ("big.jpg", Array(repeating: 0xFF, count: 3_500_000)))
        #expect(reply.status == 413)
        #expect(reply.text.contains("That photo is too large. Photos can be up to 2 MB."), "\(reply.text)")
        #expect(try site.store.recentTrips(limit: 20).count == 12)
    }

    @Test func editFormMakesTheNewPhotoTheCoverAndKeepsTheOldInTheGallery() throws {
        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        let oldFile = try #require(try site.store.photoFile(tripID: trip.id)).fileName
        let edit = try site.get("/trips/\(trip.id)?edit=1").text
        #expect(edit.contains("/trips/\(trip.id)/thumbnail?v=\(trip.photo?.version ?? "?")"), "the edit form shows the current photo")

        let reply = try site.postTripForm("/trips/\(trip.id)", name: trip.name, collection: trip.collection.rawValue,
                                          photo: ("new.jpg", try site.photo(seed: 9)), versions: site.formVersions(ofTrip: trip.id))
        #expect(reply.status == 303)

        let replaced = try #require(try site.store.trip(id: trip.id)?.photo)
        #expect(replaced.version != trip.photo?.version)
        #expect(site.store.photos.contains(oldFile), "nothing lost: the old photo is second in the gallery")
        #expect(try site.store.fetch(.gallery(tripID: trip.id)).map(\.summary.version) == [replaced.version, trip.photo?.version])
        #expect(try site.get("/trips/\(trip.id)/thumbnail?v=\(replaced.version)").status == 200)
    }

    @Test func heicIsServedAsItsJPEGRendition() throws {
        let source = URL(fileURLWithPath: site.directory).appendingPathComponent("source.jpg")
        // Small: HEVC encoding is slow.
        try Data(try site.photo(seed: 4, width: 320, height: 200)).write(to: source)
        let heic = site.directory + "/phone.heic"
        try run("/usr/bin/vips", ["copy", source.path, heic])
        let reply = try site.postTripForm("/trips", name: "iPhone trip", photo: ("IMG_0001.HEIC", try Array(Data(contentsOf: URL(fileURLWithPath: heic)))))
        #expect(reply.status == 303)

        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        let full = try site.get("/trips/\(trip.id)/photo/2048")
        #expect(full.header("Content-Type") == "image/jpeg")
        #expect(try MediaType.detect(bytes: full.body) == "image/jpeg")
    }

    @Test func tripsWithoutAPhotoOrWithAMissingFileShowThePlaceholder() throws {
        #expect(try site.postTripForm("/trips", name: "No photo yet").status == 303)
        let bare = try #require(try site.store.recentTrips(limit: 1).first)
        #expect(bare.photo == nil)
        // At the static files' version: a browser keeps it without asking again.
        let placeholder = site.app.staticFiles.versionedPrefix + "images/placeholder.svg"
        #expect(try site.get("/").text.contains(#"<img src="\#(placeholder)" width="480" height="360""#))
        #expect(try site.get("/trips/\(bare.id)/thumbnail").status == 404)
        #expect(try site.get("/trips/\(bare.id)").text.contains(#"src="\#(placeholder)""#))

        let seeded = try #require(try site.store.trips(in: .winterRetreats).first)
        let file = try #require(try site.store.photoFile(tripID: seeded.id))
        try FileManager.default.removeItem(at: site.store.photos.url(for: file.fileName))
        try FileManager.default.removeItem(at: site.store.photos.renditions.directory)
        for target in ["/trips/\(seeded.id)/photo/2048", "/trips/\(seeded.id)/original"] {
            let photo = try site.get(target)
            #expect(photo.status == 303 && photo.header("Location") == placeholder, "\(target)")
        }
    }
}

/// What the photo tests ask of the live app.
private extension LiveServer {
    func photo(seed: Int, width: Int = 1600, height: Int = 1000) throws -> [UInt8] {
        try ImageGenerator.gradientJPEG(width: width, height: height, colors: [
            RGBColor(red: 90, green: 150, blue: 220), RGBColor(red: 250, green: 200, blue: 150),
        ], seed: seed, grain: 8)
    }

    /// A phone photo as libvips writes it: 4032×3024 (12 MP), EXIF orientation 6 (held sideways),
    /// a camera make and a GPS position. Flat grey: its content does not matter here.
    func phonePhoto() throws -> String {
        Imaging.initialize()
        var black: UnsafeMutablePointer<VipsImage>?, grey: UnsafeMutablePointer<VipsImage>?
        guard shim_vips_black(&black, 4032, 3024, 3) == 0, let black else { throw ImagingError.processingFailed("vips_black") }
        defer { g_object_unref(black) }
        guard shim_vips_linear(black, &grey, [1], [128], 1) == 0, let grey else { throw ImagingError.processingFailed("vips_linear") }
        defer { g_object_unref(grey) }
        vips_image_set_int(grey, "orientation", 6)
        vips_image_set_string(grey, "exif-ifd0-Make", "Acme Phones")
        vips_image_set_string(grey, "exif-ifd3-GPSLatitude", "38/1 42/1 0/1")
        vips_image_set_string(grey, "exif-ifd3-GPSLatitudeRef", "N")
        let path = directory + "/IMG_0002.JPG"
        guard shim_vips_write_to_file(grey, path + "[Q=90]") == 0 else { throw ImagingError.processingFailed("vips_jpegsave") }
        return path
    }

    /// The files in the images folder, besides the renditions folder.
    func storedFileCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: store.photos.directory.path)
            .filter { $0 != store.photos.renditions.directory.lastPathComponent }.count
    }

    /// Posts the trip form as a browser does: the CSRF cookie and field from a GET first, multipart body.
    func postTripForm(_ action: String, name: String, subtitle: String = "", collection: String = "springEscapes",
                      photo: (fileName: String, bytes: [UInt8])? = nil, versions: [(String, String)] = []) throws -> Reply {
        let token = try #require(try get("/trips/new").cookie(CSRFProtection.cookieName))
        let form = SocketClient.multipart([("_csrf", token), ("name", name), ("subtitle", subtitle), ("collection", collection)] + versions,
                                       photo: photo)
        return try Endpoint(port: port).send("POST", action, headers: [
            "Cookie": "\(CSRFProtection.cookieName)=\(token)", "Content-Type": form.contentType,
        ], body: form.body)
    }
}

private func run(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(executable) \(arguments) failed")
}
