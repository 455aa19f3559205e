import HTTPServer
import Mustache
import WishlistCore

/// The trip page's gallery: its photos as thumbnails, each a link to its own page (`PhotoPage`),
/// and the form that adds many at once. Without a script the form sends every chosen file in one
/// post; `gallery-upload.js` sends them one at a time through the API instead, each with its own
/// progress and outcome.
extension TripPage {
    func registerGallery(on router: inout Router) {
        router.post("/trips/:id/photos") { request in try addPhotos(request) }
    }

    /// Each file is checked and stored on its own: those refused are named with the reason on the
    /// page again (422), beside the gallery with the others in it; a picture the gallery had
    /// already is named too, as not added again (200 if nothing was refused). When the disk fills, the page
    /// (507) names each file: those stored before, and the one it stopped at with the rest.
    func addPhotos(_ request: Request) throws -> Response {
        let trip = try trip(request)
        let files = request.files.filter { $0.fieldName == Self.uploadField }
        guard !files.isEmpty else {
            return try render(request, uploads: [UploadProblem(file: "", message: "Choose one or more photos first.")],
                              status: .unprocessableContent).response(for: request)
        }
        func name(_ file: UploadedFile) -> String { file.fileName.isEmpty ? "A file" : file.fileName }
        var stored: [UploadProblem] = []
        var problems: [UploadProblem] = []
        for (index, file) in files.enumerated() {
            do {
                switch try app.store.addPhotos(tripID: trip.id, at: [file.path])[0] {
                case .stored: stored.append(UploadProblem(file: name(file), message: "Stored.", refused: false))
                case .alreadyThere: problems.append(UploadProblem(file: name(file), message: Self.alreadyThere, refused: false))
                case .refused(let message): problems.append(UploadProblem(file: name(file), message: message))
                }
            } catch let error where HTTPError(wrapping: error).status == .insufficientStorage {
                let notStored = files[index...].map { UploadProblem(file: name($0), message: "Not stored: the disk is full. Free some space on the disk and send it again.") }
                return try render(request, uploads: stored + problems + notStored, status: .insufficientStorage).response(for: request)
            }
        }
        guard problems.isEmpty else {
            let status: HTTPStatus = problems.contains(where: \.refused) ? .unprocessableContent : .ok
            return try render(request, uploads: problems, status: status).response(for: request)
        }
        return .redirect(to: "/trips/\(trip.id)#\(TripGalleryView.elementID)")
    }

    /// The upload form's file field.
    static let uploadField = "photos"

    /// What a file's upload says when the gallery shows that picture already (the API's 200 too).
    static let alreadyThere = "Already in this trip."

    /// A file of an upload that was not stored, and why.
    struct UploadProblem: Sendable {
        let file: String
        let message: String
        /// The person has something to fix (not a picture the gallery had already, nor one stored).
        var refused = true

        var mustacheValue: MustacheValue { ["file": .string(file), "message": .string(message)] }
    }
}

/// The trip's photos in their order, the cover first.
struct TripGalleryFragment: Fragment {
    let tripID: Int64
    var topic: LiveTopic { .tripGallery(tripID: tripID) }
    var query: WishlistQuery<[GalleryPhoto]> { .gallery(tripID: tripID) }
    func view(_ photos: [GalleryPhoto]) -> TripGalleryView? { TripGalleryView(tripID: tripID, photos: photos) }
}

struct TripGalleryView: FragmentView {
    static let partial = "partials/trip-gallery"
    let tripID: Int64
    let photos: [GalleryPhoto]
    static let elementID = "trip-gallery"
    var elementID: String { Self.elementID }

    var mustacheValue: MustacheValue {
        object([
            "count": photos.isEmpty ? .null : .string(String(photos.count)),
            "hasPhotos": .bool(!photos.isEmpty),
            "photos": .array(photos.enumerated().map { index, photo in
                // The cover at the trip's own photo addresses: the bytes the cards and the hero
                // already had the browser (and the offline keep) fetch.
                let address: PhotoRoutes.Address = index == 0 ? .trip(tripID) : .photo(photo.id)
                return [
                    "id": .int(Int(photo.id)),
                    "pageURL": .string(PhotoPage.path(photo.id)),
                    // For the full-screen viewer (gallery-viewer.js).
                    "photoURL": .string(PhotoRoutes.renditionURL(address, size: .large, version: photo.summary.version)),
                    "sourceSet": .string(PhotoRoutes.renditionSourceSet(address, photo: photo.summary)),
                    "photoWidth": .int(photo.summary.width),
                    "photoHeight": .int(photo.summary.height),
                    "thumbnailURL": .string(PhotoRoutes.thumbnailURL(address, version: photo.summary.version)),
                    "width": .int(photo.summary.thumbnailWidth),
                    "height": .int(photo.summary.thumbnailHeight),
                    "alt": .string(PhotoPage.description(of: photo, index: index, count: photos.count)),
                    "caption": photo.caption.isEmpty ? .null : .string(photo.caption),
                    "isCover": .bool(index == 0),
                ]
            }),
        ])
    }
}
