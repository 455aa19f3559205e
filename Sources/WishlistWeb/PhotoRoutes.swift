import Foundation
import HTTPServer
import Imaging
import WishlistCore

/// Photos, of a trip's cover (`/trips/:id/…`) and of each gallery photo (`/photos/:id/…`):
/// `thumbnail` (inline bytes from the row), `photo/:size` (a `DisplaySize` rendition: upright,
/// sRGB, no metadata) and `original` (the upload as it came, GPS and camera EXIF included, only
/// as a download). All carry a strong ETag from the photo's content version; URLs with
/// `?v=<that version>` never change content, so browsers may keep them for a year without asking again.
/// Always `private`: they are someone's photos, behind a password when one is set, and a local
/// app gains nothing from a shared cache (a proxy must never keep them).
struct PhotoRoutes {
    let app: WishlistApp

    static let immutable = "private, max-age=31536000, immutable"
    /// Without the version in the URL the same address may show a new photo tomorrow.
    static let revalidate = "private, no-cache"

    /// Where one picture's files are: under its trip (the cover) or under its gallery photo.
    struct Address: Sendable {
        let path: String
        static func trip(_ id: Trip.ID) -> Self { Self(path: "/trips/\(id)") }
        static func photo(_ id: GalleryPhoto.ID) -> Self { Self(path: "/photos/\(id)") }
    }

    /// Whose picture the routes under a prefix serve: a trip's cover, or a gallery photo.
    private enum Kind {
        case cover, galleryPhoto

        var entity: String { self == .cover ? "trip" : "photo" }

        func thumbnail(_ id: Int64) -> WishlistQuery<TripThumbnail?> {
            self == .cover ? .thumbnail(tripID: id) : .thumbnail(photoID: id)
        }

        func file(_ id: Int64) -> WishlistQuery<TripPhotoFile?> {
            self == .cover ? .photoFile(tripID: id) : .photoFile(photoID: id)
        }
    }

    func register(on router: inout Router) {
        for (prefix, kind) in [("/trips/:id", Kind.cover), ("/photos/:id", .galleryPhoto)] {
            router.get("\(prefix)/thumbnail") { request in try thumbnail(request, kind) }
            router.get("\(prefix)/photo/:size") { request in try rendition(request, kind) }
            router.get("\(prefix)/original") { request in try original(request, kind) }
        }
        // The same for scripts, under /api/ where an API token is accepted.
        router.get("/api/trips/:id/photo") { request in try original(request, .cover) }
        router.get("/api/photos/:id/original") { request in try original(request, .galleryPhoto) }
    }

    private func thumbnail(_ request: Request, _ kind: Kind) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: kind.entity).value
        guard let thumbnail = try app.store.fetch(kind.thumbnail(id)) else { throw Self.noPhoto(kind, id) }
        return Response.conditional(request: request, etag: "\"thumbnail-\(thumbnail.version)\"",
                                    cacheControl: Self.cacheControl(request, version: thumbnail.version)) {
            var response = Response(body: .bytes(thumbnail.bytes))
            response.headers["Content-Type"] = thumbnail.format.mediaType
            return response
        }
    }

    /// Made on upload; photos stored before renditions existed get theirs on first request.
    private func rendition(_ request: Request, _ kind: Kind) throws -> Response {
        guard let size = request.parameters["size"].flatMap(Int.init).flatMap(DisplaySize.init) else {
            throw HTTPError(.notFound, "There is no such photo size.")
        }
        let (_, photo) = try photoFile(request, kind)
        let file = try app.store.photos.rendition(of: photo.fileName, size: size)
        return try Self.serve(file, format: PhotoLibrary.renditionFormat.imageFormat,
                              etag: "\"photo-\(size.rawValue)-\(photo.version)\"", version: photo.version, request) { _ in }
            ?? placeholder()
    }

    private func original(_ request: Request, _ kind: Kind) throws -> Response {
        let (id, photo) = try photoFile(request, kind)
        return try Self.serve(try app.store.photos.url(for: photo.fileName), format: photo.format,
                              etag: "\"original-\(photo.version)\"", version: photo.version, request) { response in
            let name = kind.entity == "trip" ? "trip-\(id)-photo" : "photo-\(id)"
            response.headers["Content-Disposition"] = "attachment; filename=\"\(name).\(photo.format.fileExtension)\""
        } ?? placeholder()
    }

    static func thumbnailURL(_ address: Address, version: String) -> String {
        "\(address.path)/thumbnail?v=\(version)"
    }

    static func renditionURL(_ address: Address, size: DisplaySize, version: String) -> String {
        "\(address.path)/photo/\(size.rawValue)?v=\(version)"
    }

    static func originalURL(_ address: Address, version: String) -> String {
        "\(address.path)/original?v=\(version)"
    }

    /// `srcset` for the trip page's picture: every rendition, largest first.
    static func renditionSourceSet(_ address: Address, photo: TripPhotoSummary) -> String {
        DisplaySize.allCases.map { renditionSource(address, size: $0, photo: photo) }.joined(separator: ", ")
    }

    /// `srcset` for cards and the carousel: the thumbnail, and the medium rendition for 2× screens.
    static func thumbnailSourceSet(_ address: Address, photo: TripPhotoSummary) -> String {
        "\(thumbnailURL(address, version: photo.version)) \(photo.thumbnailWidth)w, " + renditionSource(address, size: .medium, photo: photo)
    }

    private static func renditionSource(_ address: Address, size: DisplaySize, photo: TripPhotoSummary) -> String {
        "\(renditionURL(address, size: size, version: photo.version)) \(photo.width(fittedWithin: size.rawValue))w"
    }

    /// The photo file the trip form sent, if the user chose one (browsers send no file part otherwise).
    static func uploadedPhotoPath(_ request: Request) -> String? {
        request.files.first { $0.fieldName == "photo" }?.path
    }

    private func photoFile(_ request: Request, _ kind: Kind) throws -> (Int64, TripPhotoFile) {
        let id = try RecordID(request.parameters["id"], entity: kind.entity).value
        guard let photo = try app.store.fetch(kind.file(id)) else { throw Self.noPhoto(kind, id) }
        return (id, photo)
    }

    private static func noPhoto(_ kind: Kind, _ id: Int64) -> HTTPError {
        HTTPError(.notFound, kind.entity == "trip" ? "Trip \(id) has no photo." : "There is no photo \(id). It may have been deleted.")
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
