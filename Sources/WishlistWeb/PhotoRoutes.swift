import Foundation
import HTTPServer
import Imaging
import WishlistCore

/// Trip photos: `/trips/:id/thumbnail` (inline bytes from the trip row) and `/trips/:id/photo`
/// (the stored file, or its JPEG rendition for HEIC). Both carry a strong ETag from the photo's
/// content version; URLs with `?v=<that version>` never change content, so browsers may keep
/// them for a year without asking again.
struct PhotoRoutes {
    let app: WishlistApp

    static let immutable = "public, max-age=31536000, immutable"
    /// Without the version in the URL the same address may show a new photo tomorrow.
    static let revalidate = "no-cache"

    func register(on router: inout Router) {
        router.get("/trips/:id/thumbnail") { request in try thumbnail(request) }
        router.get("/trips/:id/photo") { request in try photo(request) }
    }

    func thumbnail(_ request: Request) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: "trip").value
        guard let thumbnail = try app.store.thumbnail(tripID: id) else {
            throw HTTPError(.notFound, "Trip \(id) has no photo.")
        }
        return Response.conditional(request: request, etag: "\"thumbnail-\(thumbnail.version)\"",
                                    cacheControl: Self.cacheControl(request, version: thumbnail.version)) {
            var response = Response(body: .bytes(thumbnail.bytes))
            response.headers["Content-Type"] = thumbnail.format.mediaType
            return response
        }
    }

    func photo(_ request: Request) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: "trip").value
        guard let photo = try app.store.photoFile(tripID: id) else {
            throw HTTPError(.notFound, "Trip \(id) has no photo.")
        }
        let path = try app.store.photos.url(for: photo.fileName).path
        guard let size = Self.fileSize(path) else {
            // The row outlived its file (logged by the startup sweep): show the placeholder, never a broken image.
            var response = Response.redirect(to: TripViews.placeholderURL)
            response.headers["Cache-Control"] = Self.revalidate
            return response
        }
        return Response.conditional(request: request, etag: "\"photo-\(photo.version)\"",
                                    cacheControl: Self.cacheControl(request, version: photo.version)) {
            var response = Response(body: .file(path: path, size: size))
            response.headers["Content-Type"] = photo.format.mediaType
            return response
        }
    }

    static func thumbnailURL(tripID: Trip.ID, version: String) -> String {
        "/trips/\(tripID)/thumbnail?v=\(version)"
    }

    static func photoURL(tripID: Trip.ID, version: String) -> String {
        "/trips/\(tripID)/photo?v=\(version)"
    }

    /// The photo file the trip form sent, if the user chose one (browsers send no file part otherwise).
    static func uploadedPhotoPath(_ request: Request) -> String? {
        request.files.first { $0.fieldName == "photo" }?.path
    }

    private static func cacheControl(_ request: Request, version: String) -> String {
        request.query["v"] == version ? immutable : revalidate
    }

    private static func fileSize(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }
}
