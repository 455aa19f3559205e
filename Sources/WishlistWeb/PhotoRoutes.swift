import Foundation
import HTTPServer
import Imaging
import WishlistCore

/// Trip photos: `/trips/:id/thumbnail` (inline bytes from the trip row),
/// `/trips/:id/photo/:size` (a `DisplaySize` rendition: upright, sRGB, no metadata) and
/// `/trips/:id/original` (the upload as it came, GPS and camera EXIF included, only as a
/// download). All carry a strong ETag from the photo's content version; URLs with
/// `?v=<that version>` never change content, so browsers may keep them for a year without asking again.
/// Always `private`: they are someone's photos, behind a password when one is set, and a local
/// app gains nothing from a shared cache (a proxy must never keep them).
struct PhotoRoutes {
    let app: WishlistApp

    static let immutable = "private, max-age=31536000, immutable"
    /// Without the version in the URL the same address may show a new photo tomorrow.
    static let revalidate = "private, no-cache"

    func register(on router: inout Router) {
        router.get("/trips/:id/thumbnail") { request in try thumbnail(request) }
        router.get("/trips/:id/photo/:size") { request in try rendition(request) }
        router.get("/trips/:id/original") { request in try original(request) }
        // The same for scripts, under /api/ where an API token is accepted.
        router.get("/api/trips/:id/photo") { request in try original(request) }
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

    /// Made on upload; photos stored before renditions existed get theirs on first request.
    func rendition(_ request: Request) throws -> Response {
        guard let size = request.parameters["size"].flatMap(Int.init).flatMap(DisplaySize.init) else {
            throw HTTPError(.notFound, "There is no such photo size.")
        }
        let (id, photo) = try photoFile(request)
        let file = try app.store.photos.rendition(of: photo.fileName, size: size)
        return try Self.serve(file, format: PhotoLibrary.renditionFormat.imageFormat,
                              etag: "\"photo-\(size.rawValue)-\(photo.version)\"", version: photo.version, request) { _ in }
            ?? placeholder()
    }

    func original(_ request: Request) throws -> Response {
        let (id, photo) = try photoFile(request)
        return try Self.serve(try app.store.photos.url(for: photo.fileName), format: photo.format,
                              etag: "\"original-\(photo.version)\"", version: photo.version, request) { response in
            response.headers["Content-Disposition"] = "attachment; filename=\"trip-\(id)-photo.\(photo.format.fileExtension)\""
        } ?? placeholder()
    }

    static func thumbnailURL(tripID: Trip.ID, version: String) -> String {
        "/trips/\(tripID)/thumbnail?v=\(version)"
    }

    static func renditionURL(tripID: Trip.ID, size: DisplaySize, version: String) -> String {
        "/trips/\(tripID)/photo/\(size.rawValue)?v=\(version)"
    }

    static func originalURL(tripID: Trip.ID, version: String) -> String {
        "/trips/\(tripID)/original?v=\(version)"
    }

    /// `srcset` for the trip page's picture: every rendition, largest first.
    static func renditionSourceSet(tripID: Trip.ID, photo: TripPhotoSummary) -> String {
        DisplaySize.allCases.map { renditionSource(tripID: tripID, size: $0, photo: photo) }.joined(separator: ", ")
    }

    /// `srcset` for cards and the carousel: the thumbnail, and the medium rendition for 2× screens.
    static func thumbnailSourceSet(tripID: Trip.ID, photo: TripPhotoSummary) -> String {
        "\(thumbnailURL(tripID: tripID, version: photo.version)) \(photo.thumbnailWidth)w, "
            + renditionSource(tripID: tripID, size: .medium, photo: photo)
    }

    private static func renditionSource(tripID: Trip.ID, size: DisplaySize, photo: TripPhotoSummary) -> String {
        "\(renditionURL(tripID: tripID, size: size, version: photo.version)) \(photo.width(fittedWithin: size.rawValue))w"
    }

    /// The photo file the trip form sent, if the user chose one (browsers send no file part otherwise).
    static func uploadedPhotoPath(_ request: Request) -> String? {
        request.files.first { $0.fieldName == "photo" }?.path
    }

    private func photoFile(_ request: Request) throws -> (Trip.ID, TripPhotoFile) {
        let id = try RecordID(request.parameters["id"], entity: "trip").value
        guard let photo = try app.store.photoFile(tripID: id) else {
            throw HTTPError(.notFound, "Trip \(id) has no photo.")
        }
        return (id, photo)
    }

    /// The file at `url` as a conditional response; nil when it is not there.
    private static func serve(_ url: URL?, format: ImageFormat, etag: String, version: String, _ request: Request,
                              adding headers: (inout Response) -> Void) throws -> Response? {
        guard let path = url?.path, let size = fileSize(path) else { return nil }
        return Response.conditional(request: request, etag: etag, cacheControl: cacheControl(request, version: version)) {
            var response = Response(body: .file(path: path, size: size))
            response.headers["Content-Type"] = format.mediaType
            headers(&response)
            return response
        }
    }

    /// The row outlived its file (logged by the startup sweep): show the placeholder, never a broken image.
    private func placeholder() -> Response {
        var response = Response.redirect(to: app.staticFiles.versionedPrefix + TripViews.placeholderImage)
        response.headers["Cache-Control"] = Self.revalidate
        return response
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
