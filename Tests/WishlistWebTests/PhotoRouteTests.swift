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
        #expect(home.contains(#"src="/trips/\#(trip.id)/thumbnail?v=\#(photo.version)" width="480" height="300""#))

        let thumbnail = try site.get("/trips/\(trip.id)/thumbnail?v=\(photo.version)")
        #expect(thumbnail.status == 200)
        #expect(thumbnail.header("Content-Type") == "image/webp")
        #expect(thumbnail.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(thumbnail.header("X-Content-Type-Options") == "nosniff")
        #expect(try MediaType.detect(bytes: thumbnail.body) == "image/webp")
        #expect(thumbnail.body.count < 40_000)
        let etag = try #require(thumbnail.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))

        let revalidated = try site.get("/trips/\(trip.id)/thumbnail?v=\(photo.version)", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        #expect(try site.get("/trips/\(trip.id)/thumbnail").header("Cache-Control") == "no-cache", "an unversioned URL may change")

        let page = try site.get("/trips/\(trip.id)").text
        #expect(page.contains(#"src="/trips/\#(trip.id)/photo?v=\#(photo.version)" width="1600" height="1000""#))
        let full = try site.get("/trips/\(trip.id)/photo?v=\(photo.version)")
        #expect(full.status == 200 && full.header("Content-Type") == "image/jpeg")
        #expect(full.body == jpeg)
        #expect(full.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(try site.get("/trips/\(trip.id)/photo", headers: ["If-None-Match": full.header("ETag") ?? "?"]).status == 304)
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

    @Test func editFormReplacesThePhotoAndTheOldFileGoes() throws {
        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        let oldFile = try #require(try site.store.photoFile(tripID: trip.id)).fileName
        let edit = try site.get("/trips/\(trip.id)?edit=1").text
        #expect(edit.contains("/trips/\(trip.id)/thumbnail?v=\(trip.photo?.version ?? "?")"), "the edit form shows the current photo")

        let reply = try site.postTripForm("/trips/\(trip.id)", name: trip.name, collection: trip.collection.rawValue,
                                          photo: ("new.jpg", try site.photo(seed: 9)))
        #expect(reply.status == 303)

        let replaced = try #require(try site.store.trip(id: trip.id)?.photo)
        #expect(replaced.version != trip.photo?.version)
        #expect(!site.store.photos.contains(oldFile))
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
        let full = try site.get("/trips/\(trip.id)/photo")
        #expect(full.header("Content-Type") == "image/jpeg")
        #expect(try MediaType.detect(bytes: full.body) == "image/jpeg")
    }

    @Test func tripsWithoutAPhotoOrWithAMissingFileShowThePlaceholder() throws {
        #expect(try site.postTripForm("/trips", name: "No photo yet").status == 303)
        let bare = try #require(try site.store.recentTrips(limit: 1).first)
        #expect(bare.photo == nil)
        #expect(try site.get("/").text.contains(#"<img src="/static/images/placeholder.svg" width="480" height="360""#))
        #expect(try site.get("/trips/\(bare.id)/thumbnail").status == 404)
        #expect(try site.get("/trips/\(bare.id)").text.contains(#"src="/static/images/placeholder.svg""#))

        let seeded = try #require(try site.store.trips(in: .winterRetreats).first)
        let file = try #require(try site.store.photoFile(tripID: seeded.id))
        try FileManager.default.removeItem(at: site.store.photos.url(for: file.fileName))
        let photo = try site.get("/trips/\(seeded.id)/photo")
        #expect(photo.status == 303 && photo.header("Location") == "/static/images/placeholder.svg")
    }
}

/// What the photo tests ask of the live app.
private extension LiveServer {
    func photo(seed: Int, width: Int = 1600, height: Int = 1000) throws -> [UInt8] {
        try ImageGenerator.gradientJPEG(width: width, height: height, colors: [
            RGBColor(red: 90, green: 150, blue: 220), RGBColor(red: 250, green: 200, blue: 150),
        ], seed: seed, grain: 8)
    }

    func storedFileCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: store.photos.directory.path).count
    }

    /// Posts the trip form as a browser does: the CSRF cookie and field from a GET first, multipart body.
    func postTripForm(_ action: String, name: String, subtitle: String = "", collection: String = "springEscapes",
                      photo: (fileName: String, bytes: [UInt8])? = nil) throws -> Reply {
        let token = try #require(try get("/trips/new").cookie(CSRFProtection.cookieName))
        let form = SocketClient.multipart([("_csrf", token), ("name", name), ("subtitle", subtitle), ("collection", collection)],
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
