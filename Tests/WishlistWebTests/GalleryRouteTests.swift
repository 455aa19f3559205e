import Foundation
import HTTPServer
import Imaging
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// Galleries through the real server: many files in one form post, each photo's page and its
/// changes, the photo files, and the JSON API the browser's bulk upload and scripts use.
@Suite struct GalleryRouteTests {
    private let site: LiveServer
    private let trip: Trip

    init() throws {
        site = try LiveServer(maxPhotoBytes: 4 * 1024 * 1024)
        trip = try site.trip(named: "Cali Coastal Trails")
    }

    private func jpeg(_ seed: Int) throws -> [UInt8] {
        try ImageGenerator.gradientJPEG(width: 900, height: 600, colors: [
            RGBColor(red: 90, green: 150, blue: 220), RGBColor(red: 250, green: 200, blue: 150)], seed: seed, grain: 8)
    }

    private func gallery() throws -> [GalleryPhoto] {
        try site.store.fetch(.gallery(tripID: trip.id))
    }

    private func upload(_ files: [(name: String, bytes: [UInt8])], as browser: inout Browser) throws -> Reply {
        _ = try browser.get("/trips/\(trip.id)")
        let token = try #require(browser.cookies[CSRFProtection.cookieName])
        let form = SocketClient.multipart([(CSRFProtection.fieldName, token)], files: files.map {
            (field: TripPage.uploadField, fileName: $0.name, contentType: "image/jpeg", bytes: $0.bytes)
        })
        return try browser.send(.post, "/trips/\(trip.id)/photos", headers: ["Content-Type": form.contentType], body: form.body)
    }

    @Test func manyFilesInOneFormAreEachStoredOrRefusedByName() throws {
        var browser = Browser(Endpoint(port: site.port))
        let refused = try upload([("a.jpg", jpeg(1)), ("broken.jpg", Array(try jpeg(2).prefix(900))), ("b.jpg", jpeg(3))], as: &browser)
        #expect(refused.status == 422)
        #expect(refused.text.contains("<li><strong>broken.jpg</strong>: "), "the refused file named, with its reason")
        let photos = try gallery()
        #expect(photos.count == 3, "the cover, a.jpg and b.jpg: none of the good ones lost")
        let page = try browser.get("/trips/\(trip.id)").text
        #expect(page.contains(#"Photos <span class="muted">· 3</span>"#))
        for (index, photo) in photos.enumerated() {
            #expect(page.contains(#"<a class="gallery-link" id="gallery-photo-\#(photo.id)" href="/photos/\#(photo.id)""#))
            // The cover at the trip's photo address, which the hero and the cards share.
            let owner = index == 0 ? "trips/\(trip.id)" : "photos/\(photo.id)"
            #expect(page.contains(#"src="/\#(owner)/thumbnail?v=\#(photo.summary.version)""#))
        }
        #expect(page.contains(#"data-live-topics="trip-header.\#(trip.id) activity-list.\#(trip.id) trip-gallery.\#(trip.id)""#))

        let stored = try upload([("c.jpg", jpeg(4))], as: &browser)
        #expect(stored.status == 303 && stored.header("Location") == "/trips/\(trip.id)#trip-gallery")
        let nothing = try upload([], as: &browser)
        #expect(nothing.status == 422 && nothing.text.contains("Choose one or more photos first."))
    }

    /// A picture the gallery has already is not added again, and the upload says so (the form
    /// names the file; the API answers 200 with the photo there, where a new one is 201).
    @Test func aPictureTheTripHasAlreadySaysSoAndAddsNothing() throws {
        var browser = Browser(Endpoint(port: site.port))
        let (picture, other) = (try jpeg(1), try jpeg(2))
        let first = try upload([("a.jpg", picture)], as: &browser)
        #expect(first.status == 303)
        let before = try gallery()
        let again = try upload([("again.jpg", picture), ("b.jpg", other)], as: &browser)
        #expect(again.status == 200)
        #expect(again.text.contains("<li><strong>again.jpg</strong>: Already in this trip.</li>"))
        #expect(!again.text.contains(#"aria-invalid="true" aria-describedby="gallery-upload-problems""#), "nothing to fix")
        #expect(try gallery().count == before.count + 1, "b.jpg only")

        let csrf = ["X-CSRF-Token": try #require(browser.cookies[CSRFProtection.cookieName])]
        let api = try browser.send(.post, "/api/trips/\(trip.id)/photos", headers: csrf.merging(["Content-Type": "image/jpeg"]) { $1 },
                                   body: other)
        #expect(api.status == 200)
        #expect(try (api.json()["id"] as? NSNumber)?.int64Value == gallery().last?.id)
        #expect(try gallery().count == before.count + 1)
    }

    @Test func aPhotosPageShowsItWithItsNeighboursAndChangesIt() throws {
        _ = try site.store.addPhotos(tripID: trip.id, at: [jpeg(1), jpeg(2)].enumerated().map { index, bytes in
            let path = site.directory + "/upload-\(index).jpg"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        })
        let photos = try gallery()
        var browser = Browser(Endpoint(port: site.port))
        let page = try browser.get("/photos/\(photos[1].id)")
        #expect(page.status == 200)
        #expect(page.text.contains("Photo 2 of 3"))
        #expect(page.text.contains(#"href="/photos/\#(photos[0].id)" rel="prev""#) && page.text.contains(#"href="/photos/\#(photos[2].id)" rel="next""#))
        #expect(page.text.contains(#"srcset="/photos/\#(photos[1].id)/photo/2048?v=\#(photos[1].summary.version)"#))

        let captioned = try browser.post("/photos/\(photos[1].id)/caption", form: [("caption", "Steamer Lane at dusk")])
        #expect(captioned.status == 303 && captioned.header("Location") == "/photos/\(photos[1].id)")
        #expect(try browser.get("/photos/\(photos[1].id)").text.contains(#"<h1 class="photo-title">Steamer Lane at dusk</h1>"#))
        let tooLong = String(repeating: "x", count: 201)
        let refused = try browser.post("/photos/\(photos[1].id)/caption", form: [("caption", tooLong)])
        #expect(refused.status == 422 && refused.text.contains(#"value="\#(tooLong)""#) && refused.text.contains("photo-caption-error"))

        #expect(try browser.post("/photos/\(photos[1].id)/move", form: [("to", "0")]).status == 303)
        #expect(try site.store.trip(id: trip.id)?.photo?.version == photos[1].summary.version, "made the cover")

        for (target, type) in [("thumbnail", "image/webp"), ("photo/1024", "image/jpeg"), ("original", "image/jpeg")] {
            let file = try browser.get("/photos/\(photos[2].id)/\(target)?v=\(photos[2].summary.version)")
            #expect(file.status == 200 && file.header("Content-Type") == type, "\(target)")
        }

        let deleted = try browser.post("/photos/\(photos[1].id)/delete", form: [])
        let location = try #require(deleted.header("Location"))
        #expect(location.hasPrefix("/trips/\(trip.id)?deleted=") && location.hasSuffix("#trip-gallery"))
        let notice = try browser.get(String(location.prefix { $0 != "#" })).text
        #expect(notice.contains("Deleted the photo “Steamer Lane at dusk”."))
        #expect(try gallery().count == 2)
        #expect(try browser.get("/photos/\(photos[1].id)").status == 404)
    }

    @Test func theAPIAddsListsCaptionsMovesAndDeletesPhotosForABrowserAsForAScript() throws {
        var browser = Browser(Endpoint(port: site.port))
        _ = try browser.get("/trips/\(trip.id)")
        let csrf = ["X-CSRF-Token": try #require(browser.cookies[CSRFProtection.cookieName])]
        let sent = try jpeg(5)
        let form = SocketClient.multipart([], file: (field: "photo", fileName: "a.jpg", contentType: "image/jpeg", bytes: sent))
        let added = try browser.send(.post, "/api/trips/\(trip.id)/photos", headers: csrf.merging(["Content-Type": form.contentType]) { $1 },
                                     body: form.body)
        #expect(added.status == 201)
        let id = try #require((try added.json()["id"] as? NSNumber)?.int64Value)
        #expect(added.header("Location") == "/api/photos/\(id)")

        let raw = try browser.send(.post, "/api/trips/\(trip.id)/photos", headers: csrf.merging(["Content-Type": "image/jpeg"]) { $1 },
                                   body: try jpeg(6))
        #expect(raw.status == 201)
        let refused = try browser.send(.post, "/api/trips/\(trip.id)/photos", headers: csrf, body: Array("hello".utf8))
        #expect(refused.status == 422 && refused.text.contains("isn't a supported image"))
        #expect(try browser.send(.post, "/api/trips/\(trip.id)/photos", body: try jpeg(7)).status == 403, "no CSRF token, no write")

        let patched = try browser.send(.patch, "/api/photos/\(id)", headers: csrf.merging(["Content-Type": "application/json"]) { $1 },
                                       body: Array(#"{"caption": "Lighthouse", "position": 0}"#.utf8))
        #expect(patched.status == 200)
        let json = try patched.json()
        #expect(json["caption"] as? String == "Lighthouse" && json["position"] as? Int == 0)
        let list = try browser.get("/api/trips/\(trip.id)/photos").json()
        let photos = try #require(list["photos"] as? [[String: Any]])
        #expect(photos.count == 3 && (photos[0]["id"] as? NSNumber)?.int64Value == id)
        let original = try browser.get("/api/photos/\(id)/original")
        #expect(original.status == 200 && original.body == sent, "the original, byte for byte: \(original.status) \(original.body.count) \(sent.count) \(original.header("Content-Type") ?? "")")

        #expect(try browser.send(.delete, "/api/photos/\(id)", headers: csrf).status == 204)
        #expect(try gallery().count == 2)
        #expect(try browser.get("/api/trips/999/photos").status == 404)
    }
}
