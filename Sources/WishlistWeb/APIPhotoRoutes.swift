import Foundation
import HTTPServer
import WishlistCore

/// The JSON API of galleries (docs/SYNC.md): a trip's photos listed in order (the first its
/// cover) and added one file a request, each photo read, captioned, moved (`position` 0 makes it
/// the cover) and deleted (undoable, as on the page). What the browser's bulk upload sends too.
struct APIPhotoRoutes {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.get("/api/trips/:id/photos") { request in
            try app.pages.cached(request) { try SharedResponse(json: gallery(tripID: RecordID(request.parameters["id"], entity: "trip").value)) }
        }
        router.post("/api/trips/:id/photos") { request in try add(request) }
        router.get("/api/photos/:id") { request in try .json(photo(try RecordID(request.parameters["id"], entity: "photo").value)) }
        router.patch("/api/photos/:id") { request in
            let id = try RecordID(request.parameters["id"], entity: "photo").value
            let body = try APIBody(request).decode(PhotoBody.self)
            let author = APIWriteRoutes.author(of: request)
            if let caption = body.caption { try app.store.setCaption(photoID: id, caption, author: author) }
            if let position = body.position { try app.store.movePhoto(id: id, toIndex: position, author: author) }
            return try .json(photo(id))
        }
        router.delete("/api/photos/:id") { request in
            try app.store.deletePhoto(id: try RecordID(request.parameters["id"], entity: "photo").value,
                                      author: APIWriteRoutes.author(of: request))
            return Response(status: .noContent)
        }
    }

    /// One file (the body, or the `photo` part of a form) added at the end of the trip's gallery:
    /// 201 with the photo; 200 with the photo the gallery had already of the same picture (nothing
    /// added); or the reason it was refused (422).
    private func add(_ request: Request) throws -> Response {
        let tripID = try RecordID(request.parameters["id"], entity: "trip").value
        let outcome = try APIWriteRoutes.withUploadedPhoto(request, in: app.store) { path in
            try app.store.addPhotos(tripID: tripID, at: [path], author: APIWriteRoutes.author(of: request))[0]
        }
        switch outcome {
        case .stored(let id), .alreadyThere(let id):
            var response = try Response.json(photo(id), status: outcome == .stored(id) ? .created : .ok)
            response.headers["Location"] = "/api/photos/\(id)"
            return response
        case .refused(let message):
            throw ValidationError(field: "photo", message: message)
        }
    }

    private func gallery(tripID: Trip.ID) throws -> GalleryJSON {
        try app.store.read { snapshot in
            guard try snapshot.fetch(.trip(id: tripID)) != nil else { throw WishlistError.notFound(entity: "trip", id: tripID) }
            let photos = try snapshot.fetch(.gallery(tripID: tripID))
            return GalleryJSON(tripID: tripID, photos: photos.enumerated().map { PhotoJSON($1, position: $0) })
        }
    }

    private func photo(_ id: GalleryPhoto.ID) throws -> PhotoJSON {
        try app.store.read { snapshot in
            guard let photo = try snapshot.fetch(.galleryPhoto(id: id)) else { throw WishlistError.notFound(entity: "photo", id: id) }
            let position = try snapshot.fetch(.gallery(tripID: photo.tripID)).firstIndex { $0.id == id } ?? 0
            return PhotoJSON(photo, position: position)
        }
    }
}

/// `{"caption": …, "position": …}`: either or both.
struct PhotoBody: Decodable {
    let caption: String?
    let position: Int?
}

struct GalleryJSON: Encodable {
    let tripID: Int64
    let photos: [PhotoJSON]
}

struct PhotoJSON: Encodable {
    let id: Int64
    let tripID: Int64
    /// 0 is the cover.
    let position: Int
    let caption: String
    /// `YYYY-MM-DDTHH:MM:SS` by the camera's clock; absent when the file did not say.
    let dateTaken: String?
    /// The content version: the same picture has the same one on every server.
    let photoVersion: String
    let width: Int
    let height: Int
    let url: String
    let thumbnailURL: String
    let originalURL: String

    init(_ photo: GalleryPhoto, position: Int) {
        id = photo.id
        tripID = photo.tripID
        self.position = position
        caption = photo.caption
        dateTaken = photo.dateTaken
        photoVersion = photo.summary.version
        width = photo.summary.width
        height = photo.summary.height
        url = PhotoPage.path(photo.id)
        thumbnailURL = PhotoRoutes.thumbnailURL(.photo(photo.id), version: photo.summary.version)
        originalURL = "/api/photos/\(photo.id)/original"
    }
}
